"""Reads about a game's chat: what one person sees of it.

Games between people have a chat; games against the AI have none. The two
players write in it and anyone who can see the game reads it, except that a
player who muted the opponent no longer sees the opponent's messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import formats, timezone

from games.engine import other_side
from games.errors import ChatRefused
from games.play.chat_models import ChatBan, ChatMessage, ChatMute
from games.play.models import Game
from games.play.players import Player

#: The most messages shown at once: the latest ones, oldest first.
MESSAGES_SHOWN = 100


@dataclass(frozen=True)
class Chat:
    """A game's chat as one person sees it."""

    game: Game
    side: str | None  # the side the viewer plays; None for a spectator
    messages: list[ChatMessage]  # oldest first, without those the viewer muted
    muted_opponent: bool  # the viewer muted the opponent's messages
    ban: ChatBan | None = None  # a moderator muted the viewer in every chat, for now

    @property
    def can_send(self) -> bool:
        """Only the players write, unless a moderator muted them; spectators read."""
        return self.side is not None and self.ban is None

    @property
    def opponent_side(self) -> str | None:
        return other_side(self.side) if self.side else None

    @property
    def opponent_name(self) -> str:
        return self.game.player_name(self.opponent_side) if self.side else ""


def has_chat(game: Game) -> bool:
    """Only games between people have a chat."""
    return not game.ai_side


def require_chat(game: Game) -> None:
    """Refuse anything about the chat of a game that has none."""
    if not has_chat(game):
        raise ChatRefused("a game against the AI has no chat", code="no_chat")


def is_muted(game: Game, side: str) -> bool:
    """Whether ``side``'s opponent muted ``side`` in ``game``."""
    return ChatMute.objects.filter(game=game, muted_by=other_side(side)).exists()


def chat_ban_of(user) -> ChatBan | None:
    """The moderator's mute in force on ``user`` (an account), or None."""
    if user is None:
        return None
    return ChatBan.objects.filter(user=user, until__gt=timezone.now()).first()


def ban_words(ban: ChatBan) -> str:
    """What a muted player is told: until when, and why."""
    until = formats.date_format(timezone.localtime(ban.until), "j M Y, H:i T")
    return f"a moderator has muted you in every chat until {until}: {ban.reason}"


def game_chat(game: Game, player: Player) -> Chat:
    """The chat of ``game`` as ``player`` sees it (a player or a spectator)."""
    require_chat(game)
    side = game.side_of(player.user, player.guest_key)
    muted_opponent = side is not None and ChatMute.objects.filter(game=game, muted_by=side).exists()
    messages = ChatMessage.objects.filter(game=game)
    if muted_opponent:
        messages = messages.exclude(side=other_side(side))
    latest = list(messages.order_by("-created_at", "-id")[:MESSAGES_SHOWN])
    for message in latest:
        message.game = game  # its authors' names come from the game already read
    ban = chat_ban_of(player.user) if side is not None else None
    return Chat(game=game, side=side, messages=latest[::-1], muted_opponent=muted_opponent, ban=ban)
