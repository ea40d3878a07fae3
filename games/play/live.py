"""Telling connected browsers that something changed.

Services call these after their transaction commits. A message carries only
what happened and the game's ply: a page that hears it fetches the game from
the server, so a client that missed a message, or reconnects, catches up by
asking, never by trusting a stream. When the channel layer is down (Redis
stopped), the write has already succeeded: the failure is logged and pages
fall back on reloading.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def lobby_group() -> str:
    return "lobby"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a live update is a courtesy; the stored game is the truth
        logger.warning("could not publish %s to %s", message.get("event"), group, exc_info=True)


def publish_game(game, event: str = "changed", **extra) -> None:
    """After commit: tell everyone watching ``game`` it changed (with its ply)."""
    message = {
        "type": "game.event",
        "event": event,
        "game": game.pk,
        "ply": game.move_count,
        "status": game.status,
        **extra,
    }
    transaction.on_commit(lambda: _send(game_group(game.pk), message))


def publish_lobby(event: str, **extra) -> None:
    """After commit: the list of open challenges or live games changed."""
    message = {"type": "lobby.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(lobby_group(), message))


def publish_user(user_id: int, event: str, **extra) -> None:
    """After commit: something for one player (a challenge sent to them)."""
    message = {"type": "user.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(user_group(user_id), message))
