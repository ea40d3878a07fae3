"""Guides from docs/ shown as pages: "Check your own minimax" (docs/bots.md:
from a student's minimax function to a graded report and live games, with
the reference client's files from clients/python/ to download) and the
game notation (docs/notation.md)."""

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
def _guide(name: str) -> tuple[str, str]:
    """docs/<name>.md as HTML (the project's own file, read once), and its title."""
    text = (settings.BASE_DIR / "docs" / f"{name}.md").read_text(encoding="utf-8")
    title, _, body = text.partition("\n")
    return title.removeprefix("# ").strip(), markdown.markdown(body, extensions=["fenced_code", "tables"])


def _page(request, name: str, eyebrow: str):
    title, html = _guide(name)
    context = {"title": title, "guide": mark_safe(html), "eyebrow": eyebrow}  # noqa: S308 - our own docs
    return render(request, "learn/bots.html", context)


@require_GET
def bots(request):
    return _page(request, "bots", "Learn minimax · practice")


@require_GET
def notation(request):
    """The game notation: what a game page's Download holds, and what the analysis board imports."""
    return _page(request, "notation", "Games you can take along")


@require_GET
def client_file(request, name: str):
    """One of the reference client's files, as a download."""
    if name not in CLIENT_FILES:
        raise Http404(f"The client has no file {name}; it has {', '.join(CLIENT_FILES)}.")
    path = settings.BASE_DIR / "clients" / "python" / name
    return FileResponse(path.open("rb"), as_attachment=True, filename=name, content_type="text/plain; charset=utf-8")
