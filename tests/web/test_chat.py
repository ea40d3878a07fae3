"""The chat on the game page: plain forms without JavaScript, the chat box for
chat.js with it; players write, spectators read, a player mutes the other."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.play import chat_services
from games.play.chat_models import ChatMessage
from games.play.players import Player
from tests import factories

pytestmark = pytest.mark.django_db

PARTIAL = {"HTTP_X_PARTIAL": "1"}


@pytest.fixture
def game(user, bob):
    """Alice (X) against Bob (O), just started."""
    return factories.human_game(user, bob, cells=[])


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def shown(html: str) -> list[str]:
    """The messages a page shows, as "author: text"."""
    pairs = re.findall(r'class="chat__author[^"]*">([^<]*)</span>\s*<span class="chat__text">([^<]*)</span>', html)
    return [f"{author}: {text}" for author, text in pairs]


def page(client, game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def say(game, user, text):
    chat_services.chat_send(game_id=game.pk, player=Player(user=user), text=text)


def test_a_player_writes_without_javascript_and_the_page_shows_it(game, user):
    alice = client_of(user)
    html = page(alice, game)
    assert 'id="chat"' in html and "No messages yet." in html
    assert re.search(r'<form method="post" action="/games/\d+/chat/" class="chat__form"', html)

    response = alice.post(reverse("games:chat", args=[game.pk]), {"text": "  good luck!  "})

    assert response.status_code == 302 and response["Location"] == game.get_absolute_url() + "#chat"
    assert shown(page(alice, game)) == ["alice: good luck!"]


def test_spectators_read_the_chat_but_have_no_form(game, user, bob, carol):
    say(game, user, "hi")
    say(game, bob, "hello")
    for viewer in (client_of(carol), client_of()):
        html = page(viewer, game)
        assert shown(html) == ["alice: hi", "bob: hello"]
        assert "chat__form" not in html and "Mute" not in html
        assert "Only the two players write here." in html


def test_a_spectators_post_is_refused_and_stores_nothing(game, carol):
    url = reverse("games:chat", args=[game.pk])
    assert client_of(carol).post(url, {"text": "let me in"}).status_code == 403
    assert client_of().post(url, {"text": "me too"}).status_code == 403
    response = client_of(carol).post(url, {"text": "let me in"}, **PARTIAL)
    assert response.status_code == 403
    assert "Message not sent: only the players write in a game&#x27;s chat" in response.content.decode()
    assert client_of(carol).post(reverse("games:chat_mute", args=[game.pk])).status_code == 403
    assert not ChatMessage.objects.exists()


def test_a_game_against_the_ai_has_no_chat(user):
    game = factories.ai_game(user, resign=True)
    alice = client_of(user)
    assert 'id="chat"' not in page(alice, game) and "chat.js" not in page(alice, game)
    response = alice.post(reverse("games:chat", args=[game.pk]), {"text": "hello AI"}, follow=True)
    assert "Message not sent: a game against the AI has no chat." in response.content.decode()
    assert alice.get(reverse("games:chat", args=[game.pk]), **PARTIAL).status_code == 404
    assert not ChatMessage.objects.exists()


def test_messages_are_shown_escaped(game, user, carol):
    say(game, user, '<script>alert("hi")</script> <b>bold</b>')
    html = page(client_of(carol), game)
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt;" in html


def test_an_empty_message_is_refused_with_a_message_on_the_page(game, user):
    response = client_of(user).post(reverse("games:chat", args=[game.pk]), {"text": "   "}, follow=True)
    assert "Message not sent: write something before sending" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_with_javascript_a_message_comes_back_as_the_chat_box(game, user):
    response = client_of(user).post(reverse("games:chat", args=[game.pk]), {"text": "gl hf"}, **PARTIAL)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="chat"' in html and "<html" not in html
    assert shown(html) == ["alice: gl hf"]
    assert 'value=""' in html  # the box is empty again


def test_with_javascript_a_refusal_keeps_the_text_and_says_why(game, user):
    too_long = "x" * 201
    response = client_of(user).post(reverse("games:chat", args=[game.pk]), {"text": too_long}, **PARTIAL)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Message not sent: a chat message is at most 200 characters; this one has 201." in html
    assert f'value="{too_long}"' in html


def test_sending_too_fast_is_refused_with_when_to_send_again(game, user):
    alice = client_of(user)
    url = reverse("games:chat", args=[game.pk])
    for n in range(5):
        assert alice.post(url, {"text": f"spam {n}"}).status_code == 302
    response = alice.post(url, {"text": "spam 5"}, **PARTIAL)
    assert response.status_code == 429
    assert re.search(r"you may send again in \d+ seconds?", response.content.decode())
    response = alice.post(url, {"text": "spam 5"}, follow=True)
    assert "Message not sent: you are sending messages too fast" in response.content.decode()
    assert ChatMessage.objects.count() == 5


def test_muting_hides_the_opponent_and_stops_their_messages(game, user, bob, carol):
    say(game, bob, "you will lose")
    say(game, user, "we will see")
    alice = client_of(user)
    assert "Mute bob" in page(alice, game)

    response = alice.post(reverse("games:chat_mute", args=[game.pk]))

    assert response.status_code == 302 and response["Location"].endswith("#chat")
    html = page(alice, game)
    assert shown(html) == ["alice: we will see"]
    assert "Unmute bob" in html and "You muted bob" in html
    assert 'data-muted-side="O"' in html

    refused = client_of(bob).post(reverse("games:chat", args=[game.pk]), {"text": "hello?"}, follow=True)
    assert "Message not sent: your opponent has muted you in this game" in refused.content.decode()
    partial = client_of(bob).post(reverse("games:chat", args=[game.pk]), {"text": "hello?"}, **PARTIAL)
    assert partial.status_code == 409
    assert shown(page(client_of(carol), game)) == ["bob: you will lose", "alice: we will see"]

    alice.post(reverse("games:chat_unmute", args=[game.pk]))
    assert shown(page(alice, game)) == ["bob: you will lose", "alice: we will see"]
    assert "Mute bob" in page(alice, game)


def test_the_chat_box_alone_is_for_scripts_and_a_browser_is_sent_to_the_game(game, user):
    say(game, user, "hello")
    url = reverse("games:chat", args=[game.pk])
    assert client_of().get(url)["Location"] == game.get_absolute_url() + "#chat"
    box = client_of().get(url, **PARTIAL)
    assert box.status_code == 200 and shown(box.content.decode()) == ["alice: hello"]
    assert client_of().get(reverse("games:chat", args=[999999]), **PARTIAL).status_code == 404


def test_the_game_panel_alone_does_not_carry_the_chat(game, user):
    say(game, user, "hello")
    panel = client_of(user).get(game.get_absolute_url(), **PARTIAL).content.decode()
    assert 'id="game"' in panel and 'id="chat"' not in panel


# -- the admin -----------------------------------------------------------------------------


def test_staff_read_a_games_chat_in_the_admin_and_delete_a_message(admin_client, game, user, bob):
    say(game, user, "a fine <i>game</i>")
    say(game, bob, "something rude")
    other = factories.human_game(bob, user, cells=[])
    say(other, bob, "another game")

    listing = admin_client.get(reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game.pk}")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "a fine &lt;i&gt;game&lt;/i&gt;" in html and "something rude" in html and "another game" not in html

    rude = ChatMessage.objects.get(text="something rude")
    page = admin_client.get(reverse("admin:games_chatmessage_change", args=[rude.pk])).content.decode()
    assert "something rude" in page and "bob" in page
    assert 'name="text"' not in page  # read, not edited

    response = admin_client.post(reverse("admin:games_chatmessage_delete", args=[rude.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert list(ChatMessage.objects.values_list("text", flat=True).order_by("id")) == [
        "a fine <i>game</i>",
        "another game",
    ]
    assert admin_client.get(reverse("admin:games_chatmessage_add")).status_code == 403


def test_staff_see_who_muted_whom(admin_client, game, user):
    chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))
    html = admin_client.get(reverse("admin:games_chatmute_changelist")).content.decode()
    assert f"Game {game.pk}" in html and "bob" in html
