"""Reads about accounts: a player by name, the last superuser, every game for an export."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import F, Func, IntegerField, OuterRef, Q, Subquery

from games.accounts import usernames
from games.accounts.models import ApiToken, token_digest
from games.play.chat_models import ChatMessage
from games.play.models import Bot, Game, Move


def username_lookalike(name: str) -> str | None:
    """The taken username that reads the same as ``name`` (same skeleton: case,
    Cyrillic or Greek lookalikes, 0 for o), or None. Every username is read,
    a few at a time: sign-up is rare and rate-limited."""
    wanted = usernames.skeletons(name)
    User = get_user_model()
    for taken in User.objects.values_list(User.USERNAME_FIELD, flat=True).iterator(chunk_size=2000):
        if wanted & usernames.skeletons(taken):
            return taken
    return None


def bot_of(user) -> Bot | None:
    """``user``'s bot settings, or None for a person."""
    return Bot.objects.filter(user=user).first()


def api_tokens(user) -> list[ApiToken]:
    """``user``'s API tokens, newest first."""
    return list(ApiToken.objects.filter(user=user))


def api_token_for_key(key: str) -> ApiToken | None:
    """The token whose key this is, with its user; None for no token."""
    try:
        return ApiToken.objects.select_related("user").get(digest=token_digest(key))
    except ApiToken.DoesNotExist:
        return None


def users_with_games_played(users):
    """``users`` (a User queryset) with ``games_played``: their games on either side.

    A correlated COUNT rather than joining both sides' games, which would
    multiply the rows of a player with many games as X by those as O.
    """
    games = (
        Game.objects.filter(Q(x_player=OuterRef("pk")) | Q(o_player=OuterRef("pk")))
        .order_by()
        .annotate(count=Func(F("pk"), function="COUNT"))
        .values("count")
    )
    return users.annotate(games_played=Subquery(games, output_field=IntegerField()))


#: How many games an export reads at a time (with one query for their moves).
EXPORT_CHUNK = 500


def player_games_for_export(user, chunk_size: int = EXPORT_CHUNK):
    """Every game ``user`` played, on either side and in any state, oldest first,
    with both players and ``cells`` (the moves) filled in: a generator reading
    ``chunk_size`` games at a time and their moves in one query per chunk, never
    a query per game, so 50,000 games take about a hundred queries and little memory."""

    def with_moves(games: list[Game]):
        moves: dict[int, list[int]] = {game.pk: [] for game in games}
        rows = Move.objects.filter(game_id__in=list(moves)).order_by("game_id", "ply").values_list("game_id", "cell")
        for game_id, cell in rows:
            moves[game_id].append(cell)
        for game in games:
            game.__dict__["cells"] = moves[game.pk]  # Game.cells, read already
            yield game

    games = Game.objects.of_player(user).select_related("x_player", "o_player").order_by("created_at", "id")
    chunk = []
    for game in games.iterator(chunk_size=chunk_size):
        chunk.append(game)
        if len(chunk) == chunk_size:
            yield from with_moves(chunk)
            chunk = []
    yield from with_moves(chunk)


def closed_account(username: str):
    """The closed (inactive) account called ``username``, or None."""
    if "\x00" in username:
        return None
    return get_user_model().objects.filter(username=username, is_active=False).first()


def active_player(username: str):
    """The active account called ``username``; raises User.DoesNotExist (also for a
    name no account can have, such as one with a NUL, which PostgreSQL refuses)."""
    User = get_user_model()
    if "\x00" in username:
        raise User.DoesNotExist
    return User.objects.select_related("bot").get(username=username, is_active=True)


def is_last_superuser(user) -> bool:
    """Whether ``user`` is the site's only active superuser: the account that
    must stay, or nobody could manage the site (give the role to another first)."""
    if not user.is_superuser:
        return False
    return not get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(pk=user.pk).exists()


def player_chat_for_export(user):
    """Every chat message ``user`` wrote, oldest first, as dicts (game_id,
    created_at, text), read a chunk at a time."""
    return (
        ChatMessage.objects.filter(author=user)
        .order_by("created_at", "id")
        .values("game_id", "created_at", "text")
        .iterator(chunk_size=EXPORT_CHUNK)
    )
