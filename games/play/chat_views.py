"""The chat on a game page between people: send a message, mute or unmute the opponent.

Each is a plain form POST that redirects back to the game page, so the chat
works without JavaScript. chat.js sends the same POSTs with an ``X-Partial``
header and swaps in the chat box it gets back (templates/games/_chat.html,
with the refusal in it when there is one); it GETs the box to catch up when
the game's socket (re)connects. Messages arrive live as the game's "chat" events.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import GameError
from games.play import chat_selectors, chat_services, selectors
from games.play.models import Game
from games.play.players import current_player
from games.serving.http import status_of


def _is_partial(request) -> bool:
    return request.headers.get("X-Partial") == "1"


def _chat_url(pk: int) -> str:
    return reverse("games:game", args=[pk]) + "#chat"


def _chat_box(request, pk: int, *, status: int = 200, error: str = "", text: str = ""):
    """The chat box as the person asking sees it, for chat.js to swap in."""
    try:
        game = selectors.game_detail(pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if not chat_selectors.has_chat(game):
        raise Http404("A game against the AI has no chat")
    chat = chat_selectors.game_chat(game, current_player(request))
    context = {"game": game, "chat": chat, "chat_error": error, "chat_text": text}
    return render(request, "games/_chat.html", context, status=status)


def _refused(request, pk: int, error: GameError, what: str, text: str = ""):
    """A refusal: with JavaScript, the chat box saying why (the text kept to be
    edited); without, a message on the game page. Someone who is not a player
    has no form to send: a forged POST gets the 403 page."""
    status = status_of(error)
    if _is_partial(request):
        return _chat_box(request, pk, status=status, error=f"{what}: {error.message}", text=text)
    if status == 403:
        raise PermissionDenied(error.message)
    messages.error(request, f"{what}: {error.message}.")
    return redirect(_chat_url(pk))


@require_http_methods(["GET", "POST"])
def chat(request, pk: int):
    """GET: the chat box (for chat.js; a browser is sent to the game page).
    POST: send the message in the form field ``text``."""
    if request.method == "GET":
        return _chat_box(request, pk) if _is_partial(request) else redirect(_chat_url(pk))
    text = request.POST.get("text", "")
    try:
        chat_services.chat_send(game_id=pk, player=current_player(request), text=text)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        return _refused(request, pk, error, "Message not sent", text)
    return _chat_box(request, pk) if _is_partial(request) else redirect(_chat_url(pk))


def _mute_action(request, pk: int, action, refused: str):
    try:
        action(game_id=pk, player=current_player(request))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        return _refused(request, pk, error, refused)
    return _chat_box(request, pk) if _is_partial(request) else redirect(_chat_url(pk))


@require_POST
def chat_mute(request, pk: int):
    """Hide the opponent's messages in this game, and stop them writing."""
    return _mute_action(request, pk, chat_services.chat_mute_opponent, "Could not mute")


@require_POST
def chat_unmute(request, pk: int):
    """Show the opponent's messages again."""
    return _mute_action(request, pk, chat_services.chat_unmute_opponent, "Could not unmute")
