"""Reading pages as a person would: who is signed in, the words they see, the
messages the site flashes at them."""

import re

from django.test import Client


def signed_in(user) -> Client:
    """A browser of its own (its own cookies), signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def visible_text(response) -> str:
    """The page's visible words, tags stripped and spaces squeezed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def messages_shown(response) -> str:
    """The messages the page flashes (a refusal's reason, "You resigned.")."""
    return " ".join(re.findall(r'<li class="message[^"]*">(.*?)</li>', response.content.decode(), flags=re.S))
