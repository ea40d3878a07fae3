"""Reads about games: one game, a player's games and history."""

from __future__ import annotations

from django.db.models import F, Q, prefetch_related_objects

from games import notation
from games.play.models import PLAYERS_AND_BOTS, Game, Move, Result, Status

RESULT_FILTERS = {
    "won": lambda user: Q(x_player=user, result=Result.X_WON) | Q(o_player=user, result=Result.O_WON),
    "lost": lambda user: Q(x_player=user, result=Result.O_WON) | Q(o_player=user, result=Result.X_WON),
    "drawn": lambda user: Q(result=Result.DRAW),
    "in_progress": lambda user: Q(status=Status.IN_PROGRESS),
    "aborted": lambda user: Q(status=Status.ABORTED),
}


def _history_filters(games, user, *, result: str = "", opponent: str = "", variant: str = "", level: str = ""):
    if result in RESULT_FILTERS:
        games = games.filter(RESULT_FILTERS[result](user))
    if opponent == "ai":
        games = games.against_ai()
    elif opponent == "human":
        games = games.against_humans()
    if variant:
        games = games.filter(variant=variant)
    if level:
        games = games.filter(ai_level=level)
    return games


def player_games(user, **filters):
    """A player's games, newest first, narrowed by the history page's filters.

    ``result`` is won/lost/drawn/in_progress/aborted from the player's side,
    ``opponent`` is ai/human, ``variant`` and ``level``; empty means any.
    """
    return _history_filters(Game.objects.of_player(user).with_players_and_moves(), user, **filters)


class PlayerGamesNewestFirst:
    """``player_games`` for a paginator, fetched one side at a time.

    A page of "X is me or O is me, newest first" makes the database sort every
    game of the player; the newest N of one side come straight off an index.
    Slicing takes the newest ``stop`` games of each side and merges them.
    """

    def __init__(self, user, **filters):
        self.user = user
        self.filters = filters

    def count(self) -> int:
        return player_games_count(self.user, **self.filters)

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[Game]:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("a player's games are read a page (a slice) at a time")
        start, stop = index.start or 0, index.stop
        sides = [
            _history_filters(Game.objects.filter(**{side: self.user}), self.user, **self.filters)
            .select_related(*PLAYERS_AND_BOTS)
            # Start time alone: it is the index's own order; an id tie-break
            # would make SQLite sort every game of the side first.
            .order_by("-created_at")[:stop]
            for side in ("x_player", "o_player")
        ]
        newest = sorted((game for side in sides for game in side), key=lambda g: (g.created_at, g.id), reverse=True)
        page = newest[start:stop]
        prefetch_related_objects(page, "moves")
        return page


def player_games_count(user, **filters) -> int:
    """How many games ``player_games`` has, counted one side at a time.

    "X is me or O is me" makes the database read every game of the player
    (slow for someone with tens of thousands); each side alone is a scan of one
    index. The sum is exact: nobody plays both sides of a game.
    """
    return sum(
        _history_filters(Game.objects.filter(**{side: user}), user, **filters).order_by().count()
        for side in ("x_player", "o_player")
    )


def game_detail(game_id: int) -> Game:
    """One game with its players and moves; raises Game.DoesNotExist."""
    return Game.objects.with_players_and_moves().get(pk=game_id)


def games_in_progress(user=None, guest_key: str = "", limit: int = 10) -> list[Game]:
    """The unfinished games of a signed-in user or of a guest, newest first."""
    if user is not None and user.is_authenticated:
        games = Game.objects.of_player(user)
    else:
        games = Game.objects.of_guest(guest_key)
    return list(games.in_progress().with_players_and_moves()[:limit])


def recent_results(user, limit: int = 5) -> list[Game]:
    return list(Game.objects.of_player(user).filter(status=Status.FINISHED).with_players_and_moves()[:limit])


def player_recent_games(user, limit: int = 10) -> list[Game]:
    """A player's latest games, finished or not, newest first."""
    return PlayerGamesNewestFirst(user)[0:limit]


def games_owing_ai_move(*, unchanged_since=None):
    """Ids of games in progress where it is the AI's turn: a server stopped
    while the AI thought left its reply unmade. One query over the unfinished
    games; ``unchanged_since`` leaves out games a request may still be
    thinking about."""
    games = Game.objects.against_ai().in_progress()
    if unchanged_since is not None:
        games = games.filter(updated_at__lt=unchanged_since)
    return (
        games.annotate(parity=F("move_count") % 2)
        .filter(Q(ai_side="X", parity=0) | Q(ai_side="O", parity=1))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def games_out_of_time(now, limit: int = 100) -> list[int]:
    """Games in progress whose player to move has run out of time at ``now``,
    the longest overdue first (the clock worker ends them)."""
    overdue = Game.objects.filter(status=Status.IN_PROGRESS, deadline__lte=now).order_by("deadline")
    return list(overdue.values_list("pk", flat=True)[:limit])


def next_deadline(now):
    """The soonest deadline still to come, or None: how long the worker may sleep."""
    upcoming = Game.objects.filter(status=Status.IN_PROGRESS, deadline__gt=now).order_by("deadline")
    return upcoming.values_list("deadline", flat=True).first()


def game_row(game_id: int) -> Game | None:
    """The game's own row (no players, no moves), or None: what a socket
    opened on a game reads first."""
    return Game.objects.filter(pk=game_id).first()


def game_cells(game_id: int) -> list[int]:
    """The cells played in a game, in the order they were played."""
    return list(Move.objects.filter(game_id=game_id).order_by("ply").values_list("cell", flat=True))


_RESULTS = {Result.X_WON: "1-0", Result.O_WON: "0-1", Result.DRAW: "1/2-1/2"}


def game_notation(game: Game) -> str:
    """The game written in the site's notation (docs/notation.md): its headers, then its moves."""
    headers = {
        "Site": "tttsite",
        "Game": str(game.pk),
        "Date": game.created_at.strftime("%Y.%m.%d"),
        "X": game.player_name("X"),
        "O": game.player_name("O"),
        "Result": _RESULTS.get(game.result, "*"),
        "Status": game.status,
    }
    if game.termination:
        headers["Termination"] = game.termination
    if game.ai_level:
        headers["AILevel"] = game.ai_level
    if game.move_time_limit:
        headers["MoveTime"] = str(game.move_time_limit)
    if game.clock_initial:
        headers["Clock"] = f"{game.clock_initial}+{game.clock_increment or 0}"
    return notation.write(notation.Record(size=game.size, moves=tuple(game.cells), headers=headers))
