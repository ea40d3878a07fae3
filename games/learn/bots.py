"""Check your own minimax: the way from a student's minimax function to a
graded report and live games, docs/bots.md shown as a page, and the reference
client's files (clients/python/) to download."""

from __future__ import annotations

from functools import cache

import markdown
from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

#: The reference client's files a student downloads, by name.
CLIENT_FILES = ("tttbot.py", "my_bot.py", "requirements.txt")


@cache
def _guide() -> tuple[str, str]:
    """docs/bots.md as HTML (the project's own file, read once), and its title."""
    text = (settings.BASE_DIR / "docs" / "bots.md").read_text(encoding="utf-8")
    title, _, body = text.partition("\n")
    return title.removeprefix("# ").strip(), markdown.markdown(body, extensions=["fenced_code", "tables"])


@require_GET
def bots(request):
    title, html = _guide()
    return render(request, "learn/bots.html", {"title": title, "guide": mark_safe(html)})  # noqa: S308 - our own docs


@require_GET
def client_file(request, name: str):
    """One of the reference client's files, as a download."""
    if name not in CLIENT_FILES:
        raise Http404(f"The client has no file {name}; it has {', '.join(CLIENT_FILES)}.")
    path = settings.BASE_DIR / "clients" / "python" / name
    return FileResponse(path.open("rb"), as_attachment=True, filename=name, content_type="text/plain; charset=utf-8")
