"""Writing in a game's chat and muting the opponent: one transaction each.

Each locks the game's row, so two messages sent at once by the same player are
counted one after the other and the rate limit holds on every server: it is
read from the stored messages, not from a counter in one process's memory.
A refusal raises a :class:`games.errors.GameError` and stores nothing.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.errors import ChatRateLimited, ChatRefused, InvalidInput, NotAPlayer
from games.play import live
from games.play.chat_models import MESSAGE_MAX_LENGTH, ChatBan, ChatMessage, ChatMute
from games.play.chat_selectors import Chat, ban_words, chat_ban_of, game_chat, is_muted, require_chat
from games.play.models import Game
from games.play.players import Player
from games.serving.windows import seconds_until_room

#: A player may send at most RATE_LIMIT_MESSAGES messages in one game within RATE_LIMIT_WINDOW.
RATE_LIMIT_MESSAGES = 5
RATE_LIMIT_WINDOW = timedelta(seconds=10)


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (as games.play.services locks it)."""
    return Game.objects.select_for_update(of=("self",)).select_related("x_player", "o_player").get(pk=game_id)


def _player_side(game: Game, player: Player, refusal: str) -> str:
    """The side ``player`` plays in a game that has a chat; ``refusal`` for anyone else."""
    require_chat(game)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer(refusal)
    return side


#: Bidirectional overrides, embeddings and isolates: dropped, so that no
#: message turns the words around it (or its sender's name) backwards.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _visible(char: str) -> bool:
    """Whether ``char`` shows: not a space, and not a format character such as
    a zero-width space (those stay, since emoji are joined with them)."""
    return not char.isspace() and unicodedata.category(char) != "Cf"


def _clean(text: object) -> str:
    """The message as it is stored: one line of plain text, 1 to 200
    characters, at least one of which shows."""
    if not isinstance(text, str):
        raise InvalidInput("a chat message is text", code="chat_empty")
    # Control characters (new lines, tabs, NUL) become spaces: a message is one line.
    text = "".join(" " if unicodedata.category(char) == "Cc" else char for char in text if char not in BIDI_CONTROLS)
    text = text.strip()
    if not any(_visible(char) for char in text):
        raise InvalidInput("write something before sending: the message is empty", code="chat_empty")
    if len(text) > MESSAGE_MAX_LENGTH:
        raise InvalidInput(
            f"a chat message is at most {MESSAGE_MAX_LENGTH} characters; this one has {len(text)}",
            code="chat_too_long",
        )
    return text


def _check_rate(game: Game, side: str, now) -> None:
    """Refuse a message that would make more than RATE_LIMIT_MESSAGES within RATE_LIMIT_WINDOW."""
    recent = list(
        ChatMessage.objects.filter(game=game, side=side, created_at__gt=now - RATE_LIMIT_WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:RATE_LIMIT_MESSAGES]
    )
    wait = seconds_until_room(recent, limit=RATE_LIMIT_MESSAGES, window=RATE_LIMIT_WINDOW, now=now)
    if wait:
        raise ChatRateLimited(
            f"you are sending messages too fast (at most {RATE_LIMIT_MESSAGES} in "
            f"{RATE_LIMIT_WINDOW.seconds} seconds): you may send again in {wait} second{'s' if wait != 1 else ''}",
            retry_after=wait,
        )


def chat_event(message: ChatMessage, game: Game) -> dict:
    """A message as the game's live event carries it to every page watching."""
    return {
        "id": message.pk,
        "side": message.side,
        "author": game.player_name(message.side),
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def chat_send(*, game_id: int, player: Player, text: object) -> ChatMessage:
    """``player`` writes ``text`` in the chat of a game between people (during
    the game or after it). Refused for spectators, in games against the AI,
    for an empty or too long message, for a player the opponent muted, and
    for a player sending too fast, and for a player a moderator muted."""
    with transaction.atomic():
        game = _locked(game_id)
        side = _player_side(game, player, "only the players write in a game's chat; spectators read it")
        text = _clean(text)
        ban = chat_ban_of(player.user)
        if ban is not None:
            raise ChatRefused(ban_words(ban), code="chat_banned")
        if is_muted(game, side):
            raise ChatRefused(
                "your opponent has muted you in this game, so your messages are not sent", code="chat_muted"
            )
        now = timezone.now()
        _check_rate(game, side, now)
        message = ChatMessage.objects.create(game=game, author=player.account, side=side, text=text, created_at=now)
        live.publish_game(game, "chat", changed=False, message=chat_event(message, game))
    return message


def chat_mute_opponent(*, game_id: int, player: Player) -> Chat:
    """Hide the opponent's messages from ``player`` in this game and refuse
    their new ones; the chat as ``player`` now sees it. Muting twice is muting."""
    with transaction.atomic():
        game = _locked(game_id)
        side = _player_side(game, player, "only a player of this game can mute the other")
        ChatMute.objects.get_or_create(game=game, muted_by=side)
    return game_chat(game, player)


def chat_unmute_opponent(*, game_id: int, player: Player) -> Chat:
    """Show the opponent's messages to ``player`` again, and let them write; the chat as ``player`` now sees it."""
    with transaction.atomic():
        game = _locked(game_id)
        side = _player_side(game, player, "only a player of this game can unmute the other")
        ChatMute.objects.filter(game=game, muted_by=side).delete()
    return game_chat(game, player)


def chat_ban(*, user, until, reason: str) -> ChatBan:
    """Mute ``user`` in every chat until ``until``, telling them ``reason``; a
    longer mute in force stays as it is."""
    with transaction.atomic():
        ban, made = ChatBan.objects.select_for_update().get_or_create(
            user=user, defaults={"until": until, "reason": reason[:200]}
        )
        if not made and (ban.until < until or ban.until <= timezone.now()):
            ban.until, ban.reason = until, reason[:200]
            ban.save(update_fields=["until", "reason"])
    return ban


def chat_ban_lift(*, user) -> bool:
    """Let ``user`` write in chats again; whether they were muted."""
    deleted, _ = ChatBan.objects.filter(user=user).delete()
    return deleted > 0
