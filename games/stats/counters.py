"""The statistics' writes: counters and ratings kept as games end, and the recount.

``count_as_it_finishes`` runs inside the transaction that finishes a game
(games.play.services calls it), so a counter can never disagree with the game that
moved it: both are stored or neither. ``recount`` rebuilds every counter
and rating from the games themselves; the tests compare the two.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache

from django.db import connection, models, transaction
from django.db.models import Count, Sum
from django.db.models.functions import Mod, TruncDate
from django.utils import timezone

from games.play.models import Game, Move, Result, Status
from games.rows import ModelRows, Writes, for_update_of
from games.stats.models import (
    COUNTER_SHARDS,
    INITIAL_RATING,
    PROVISIONAL_GAMES,
    DailyStats,
    FirstMoveStats,
    HeadToHead,
    PlayerRecord,
    PlayerStats,
    RatingChange,
    counter_shard,
)

K_PROVISIONAL = 40  # a new player's rating moves fast until it has found its level
K_ESTABLISHED = 20


def opponent_kind(game: Game) -> str:
    """ "human", or the AI's level."""
    return game.ai_level if game.ai_side else "human"


def expected_score(rating: int, other: int) -> float:
    """Elo's expected score of a player rated ``rating`` against ``other``."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def rating_after(rating: int, other: int, score: float, games_before: int) -> int:
    """The new rating after scoring ``score`` (1, 0.5 or 0) against ``other``."""
    k = K_PROVISIONAL if games_before < PROVISIONAL_GAMES else K_ESTABLISHED
    return round(rating + k * (score - expected_score(rating, other)))


def _score(result: str, side: str) -> float:
    """What a finished game's ``result`` scores for ``side``: 1, 0.5 or 0."""
    if result == Result.DRAW:
        return 0.5
    return 1.0 if result == ("x_won" if side == "X" else "o_won") else 0.0


#: Where a score goes in a (wins, draws, losses) list.
_SLOT = {1.0: 0, 0.5: 1, 0.0: 2}


def _count_game(player, score: float, finished_at) -> None:
    """One more finished game for a player's PlayerStats (or its recount twin)."""
    player.games += 1
    player.current_streak = _streak(player.current_streak, score)
    player.best_streak = max(player.best_streak, player.current_streak)
    player.last_finished_at = finished_at


def _count_rated(player, after: int, score: float) -> None:
    """One more rated game for a player's PlayerStats (or its recount twin)."""
    player.rating = after
    player.rated_games += 1
    if score == 1.0:
        player.rated_wins += 1
    elif score == 0.0:
        player.rated_losses += 1
    else:
        player.rated_draws += 1


def _day(moment):
    return timezone.localdate(moment) if timezone.is_aware(moment) else moment.date()


@cache
def _rows(model) -> ModelRows:
    """A game's end is the second busiest write, after a move: its statements
    are built once too (games/rows.py)."""
    return ModelRows(model)


def _bump(model, keys: dict, writes: Writes, **increments) -> None:
    """Add ``increments`` to the counter row at ``keys``: one UPDATE, added to
    ``writes``; when it changed no row (the row's first count), the row is
    made and counted once they are sent."""

    def made_if_missing(changed: int) -> None:
        if not changed:
            row, _ = model.objects.get_or_create(**keys)
            _rows(model).update_where({"pk": row.pk}, add=increments)

    _rows(model).update_where(keys, add=increments, writes=writes, then=made_if_missing)


def _streak(current: int, score: float) -> int:
    if score == 1.0:
        return current + 1 if current > 0 else 1
    if score == 0.0:
        return current - 1 if current < 0 else -1
    return 0


def count_as_it_finishes(game: Game, writes: Writes | None = None) -> None:
    """Count ``game`` in the transaction that has just finished it: the caller
    locked its row, found it in progress and wrote ``stats_counted`` with the
    rest of its end, so no statement of its own marks it (a game's end is a
    move's costliest part, docs/benchmarks.md). Once only: a game in progress
    is finished once, and a finished one is refused by every service that
    would end it (``stats_counted`` also tells the recount which games it has
    counted). The counters' writes are added to ``writes`` when given (the
    caller sends them with its own), else sent before this returns."""
    if game.status != Status.FINISHED or not game.stats_counted:
        raise ValueError(f"game {game.pk} is not one finished and marked counted in this transaction")
    if writes is None:
        writes = Writes()
        _count(game, writes)
        writes.send()
    else:
        _count(game, writes)


def _count(game: Game, writes: Writes) -> None:
    kind = opponent_kind(game)
    sides = [(side, user_id) for side, user_id in (("X", game.x_player_id), ("O", game.o_player_id)) if user_id]
    rated = kind == "human" and len(sides) == 2
    # A rated game reads both players' rows (locked) for their ratings; any
    # other game changes its player's row in one statement (_count_unrated).
    locked = _locked_player_stats([user_id for _, user_id in sides]) if rated else {}
    columns = ("wins", "draws", "losses")
    for side, user_id in sides:
        score = _score(game.result, side)
        column = columns[_SLOT[score]]
        if rated:
            _count_game(locked[user_id], score, game.finished_at)
        else:
            _count_unrated(user_id, score, game.finished_at, writes)
        _bump(PlayerRecord, {"user_id": user_id, "variant": game.variant, "opponent": kind}, writes, **{column: 1})
    if rated:
        _rate(game, locked[game.x_player_id], locked[game.o_player_id])
        for side, user_id, other_id in (
            ("X", game.x_player_id, game.o_player_id),
            ("O", game.o_player_id, game.x_player_id),
        ):
            column = columns[_SLOT[_score(game.result, side)]]
            _bump(HeadToHead, {"user_id": user_id, "opponent_id": other_id}, writes, games=1, **{column: 1})
    for stats in locked.values():
        _rows(PlayerStats).update(stats, writes=writes)
    # Last, the counters games ending that day share: their rows stay locked
    # until the transaction commits, so they are held for as short a time as
    # can be, and each kind is kept in COUNTER_SHARDS rows (games/stats/models.py).
    # (game.cells is known already when the game has just been played to its end.)
    shard = counter_shard(game.pk)
    _bump(
        DailyStats,
        {
            "day": _day(game.finished_at),
            "variant": game.variant,
            "opponent": kind,
            "ai_side": game.ai_side,
            "result": game.result,
            "termination": game.termination,
            "shard": shard,
        },
        writes,
        games=1,
        moves=game.move_count,
    )
    if game.cells:
        keys = {"variant": game.variant, "cell": game.cells[0], "result": game.result, "shard": shard}
        _bump(FirstMoveStats, keys, writes, games=1)


#: A player's new current streak after a game that scored 1, 0.5 or 0, worked
#: out in SQL from the streak as it stands ({streak}), as ``_streak`` works it
#: out in Python (the recount's; the tests compare the two).
_STREAK_AFTER = {
    1.0: "CASE WHEN {streak} > 0 THEN {streak} + 1 ELSE 1 END",
    0.5: "0",
    0.0: "CASE WHEN {streak} < 0 THEN {streak} - 1 ELSE -1 END",
}


@cache
def _count_unrated_sql(vendor: str, score: float) -> str:
    """``_count_game`` as one UPDATE of a player's PlayerStats: every
    expression of a SET reads the row as it was, on PostgreSQL as on SQLite."""
    quote = connection.ops.quote_name
    games, streak, best, last, user = (
        quote(PlayerStats._meta.get_field(name).column)
        for name in ("games", "current_streak", "best_streak", "last_finished_at", "user")
    )
    after = _STREAK_AFTER[score].format(streak=streak)
    return (
        f"UPDATE {quote(PlayerStats._meta.db_table)} SET {games} = {games} + 1, {streak} = {after}, "
        f"{best} = CASE WHEN {after} > {best} THEN {after} ELSE {best} END, {last} = %s WHERE {user} = %s"
    )


def _count_unrated(user_id: int, score: float, finished_at, writes: Writes) -> None:
    """One more finished game that moves no rating (one against the AI) in a
    player's PlayerStats, in one statement added to ``writes``: the row is not
    read and locked first, as a rated game's are. Made, then counted, for the
    player's first game."""
    sql = _count_unrated_sql(connection.vendor, score)
    values = [PlayerStats._meta.get_field("last_finished_at").get_db_prep_save(finished_at, connection), user_id]

    def made_if_missing(changed: int) -> None:
        if not changed:
            PlayerStats.objects.bulk_create([PlayerStats(user_id=user_id)], ignore_conflicts=True)
            with connection.cursor() as cursor:
                cursor.execute(sql, values)

    writes.add(sql, values, made_if_missing)


def _locked_player_stats(user_ids: list[int]) -> dict[int, PlayerStats]:
    """The players' PlayerStats rows, locked, made first for a player's first
    game. Locked in one order, so two games ending at once cannot deadlock."""

    if not user_ids:  # a guest's game against the AI: no one's record
        return {}

    def lock():
        with connection.cursor() as cursor:
            cursor.execute(_locked_player_stats_sql(connection.vendor, len(user_ids)), sorted(user_ids))
            rows = [_rows(PlayerStats).read(row) for row in cursor.fetchall()]
        return {row.user_id: row for row in rows}

    locked = lock()
    if len(locked) < len(user_ids):
        PlayerStats.objects.bulk_create(
            [PlayerStats(user_id=user_id) for user_id in user_ids if user_id not in locked], ignore_conflicts=True
        )
        locked = lock()
    return locked


@cache
def _locked_player_stats_sql(vendor: str, players: int) -> str:
    rows = _rows(PlayerStats)
    user, wanted = rows.column("user"), ", ".join(["%s"] * players)
    return (
        f"SELECT {rows.columns()} FROM {connection.ops.quote_name(rows.table)} WHERE {user} IN ({wanted})"
        f" ORDER BY {user} ASC{for_update_of(rows.table)}"
    )


def _rate(game: Game, x: PlayerStats, o: PlayerStats) -> None:
    """Update both ratings for one game between people, once (RatingChange is unique)."""
    if RatingChange.objects.filter(game=game).exists():
        return
    x_score = _score(game.result, "X")
    x_after = rating_after(x.rating, o.rating, x_score, x.rated_games)
    o_after = rating_after(o.rating, x.rating, 1 - x_score, o.rated_games)
    RatingChange.objects.bulk_create(
        [
            RatingChange(game=game, user_id=x.user_id, before=x.rating, after=x_after, created_at=game.finished_at),
            RatingChange(game=game, user_id=o.user_id, before=o.rating, after=o_after, created_at=game.finished_at),
        ]
    )
    _count_rated(x, x_after, x_score)
    _count_rated(o, o_after, 1 - x_score)


# --------------------------------------------------------------------------
# The recount.


@dataclass
class _Player:
    rating: int = INITIAL_RATING
    rated_games: int = 0
    rated_wins: int = 0
    rated_losses: int = 0
    rated_draws: int = 0
    games: int = 0
    current_streak: int = 0
    best_streak: int = 0
    last_finished_at: object = None
    records: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))  # wins, draws, losses


def recount(batch_size: int = 5000) -> None:
    """Rebuild every counter and rating from the finished games, in the order they ended."""
    with transaction.atomic():
        # A rated game whose opponent has deleted their account cannot be rated
        # again (their rating went with them): what it did to the player left
        # is kept as it was.
        kept_changes = {
            game_id: after - before
            for game_id, before, after in RatingChange.objects.filter(game__ai_side="")
            .filter(models.Q(game__x_player__isnull=True) | models.Q(game__o_player__isnull=True))
            .values_list("game_id", "before", "after")
        }
        for model in (DailyStats, FirstMoveStats, PlayerRecord, RatingChange, PlayerStats, HeadToHead):
            model.objects.all().delete()
        finished = Game.objects.filter(status=Status.FINISHED)
        finished.filter(stats_counted=False).update(stats_counted=True)
        Game.objects.exclude(status=Status.FINISHED).filter(stats_counted=True).update(stats_counted=False)
        daily = (
            finished.annotate(day=TruncDate("finished_at"), shard=Mod("id", COUNTER_SHARDS))
            .values("day", "variant", "ai_level", "ai_side", "result", "termination", "shard")
            .annotate(games=Count("id"), moves=Sum("move_count"))
            .order_by()
        )
        DailyStats.objects.bulk_create(
            [
                DailyStats(
                    day=row["day"],
                    variant=row["variant"],
                    opponent=row["ai_level"] or "human",
                    ai_side=row["ai_side"],
                    result=row["result"],
                    termination=row["termination"],
                    games=row["games"],
                    moves=row["moves"] or 0,
                    shard=row["shard"],
                )
                for row in daily
            ],
            batch_size=batch_size,
        )
        first_moves = (
            Move.objects.filter(ply=0, game__status=Status.FINISHED)
            .annotate(shard=Mod("game_id", COUNTER_SHARDS))
            .values("game__variant", "cell", "game__result", "shard")
            .annotate(games=Count("id"))
            .order_by()
        )
        FirstMoveStats.objects.bulk_create(
            [
                FirstMoveStats(
                    variant=r["game__variant"],
                    cell=r["cell"],
                    result=r["game__result"],
                    games=r["games"],
                    shard=r["shard"],
                )
                for r in first_moves
            ],
            batch_size=batch_size,
        )
        players: dict[int, _Player] = defaultdict(_Player)
        changes: list[RatingChange] = []
        pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
        games = finished.order_by("finished_at", "id").values_list(
            "id", "variant", "ai_side", "ai_level", "x_player_id", "o_player_id", "result", "finished_at"
        )
        for game_id, variant, ai_side, ai_level, x_id, o_id, result, finished_at in games.iterator(
            chunk_size=batch_size
        ):
            kind = ai_level if ai_side else "human"
            scores = {"X": _score(result, "X"), "O": _score(result, "O")}
            for side, user_id in (("X", x_id), ("O", o_id)):
                if not user_id:
                    continue
                player = players[user_id]
                player.records[(variant, kind)][_SLOT[scores[side]]] += 1
                _count_game(player, scores[side], finished_at)
            if kind == "human" and x_id and o_id:
                pairs[(x_id, o_id)][_SLOT[scores["X"]]] += 1
                pairs[(o_id, x_id)][_SLOT[scores["O"]]] += 1
                x, o = players[x_id], players[o_id]
                x_after = rating_after(x.rating, o.rating, scores["X"], x.rated_games)
                o_after = rating_after(o.rating, x.rating, scores["O"], o.rated_games)
                changes.append(
                    RatingChange(game_id=game_id, user_id=x_id, before=x.rating, after=x_after, created_at=finished_at)
                )
                changes.append(
                    RatingChange(game_id=game_id, user_id=o_id, before=o.rating, after=o_after, created_at=finished_at)
                )
                _count_rated(x, x_after, scores["X"])
                _count_rated(o, o_after, scores["O"])
            elif game_id in kept_changes:
                side, user_id = ("X", x_id) if x_id else ("O", o_id)
                player = players[user_id]
                after = player.rating + kept_changes[game_id]
                changes.append(
                    RatingChange(
                        game_id=game_id, user_id=user_id, before=player.rating, after=after, created_at=finished_at
                    )
                )
                _count_rated(player, after, scores[side])
        RatingChange.objects.bulk_create(changes, batch_size=batch_size)
        HeadToHead.objects.bulk_create(
            [
                HeadToHead(
                    user_id=user_id,
                    opponent_id=other_id,
                    games=wins + draws + losses,
                    wins=wins,
                    draws=draws,
                    losses=losses,
                )
                for (user_id, other_id), (wins, draws, losses) in pairs.items()
            ],
            batch_size=batch_size,
        )
        PlayerStats.objects.bulk_create(
            [
                PlayerStats(
                    user_id=user_id,
                    rating=p.rating,
                    rated_games=p.rated_games,
                    rated_wins=p.rated_wins,
                    rated_losses=p.rated_losses,
                    rated_draws=p.rated_draws,
                    games=p.games,
                    current_streak=p.current_streak,
                    best_streak=p.best_streak,
                    last_finished_at=p.last_finished_at,
                )
                for user_id, p in players.items()
            ],
            batch_size=batch_size,
        )
        PlayerRecord.objects.bulk_create(
            [
                PlayerRecord(user_id=user_id, variant=variant, opponent=kind, wins=wins, draws=draws, losses=losses)
                for user_id, p in players.items()
                for (variant, kind), (wins, draws, losses) in p.records.items()
            ],
            batch_size=batch_size,
        )


def recount_player(user_id: int) -> None:
    """Rebuild one player's records, game count and streaks from their finished
    games, in order: for when games change hands (a guest's games adopted by
    their account). Ratings come from games between people, which never do."""
    games = (
        Game.objects.filter(status=Status.FINISHED)
        .filter(models.Q(x_player_id=user_id) | models.Q(o_player_id=user_id))
        .order_by("finished_at", "id")
        .values_list("variant", "ai_side", "ai_level", "x_player_id", "result", "finished_at")
    )
    player = _Player()
    for variant, ai_side, ai_level, x_id, result, finished_at in games.iterator():
        score = _score(result, "X" if x_id == user_id else "O")
        player.records[(variant, ai_level if ai_side else "human")][_SLOT[score]] += 1
        _count_game(player, score, finished_at)
    PlayerRecord.objects.filter(user_id=user_id).delete()
    PlayerRecord.objects.bulk_create(
        PlayerRecord(user_id=user_id, variant=variant, opponent=kind, wins=wins, draws=draws, losses=losses)
        for (variant, kind), (wins, draws, losses) in player.records.items()
    )
    stats, _ = PlayerStats.objects.select_for_update().get_or_create(user_id=user_id)
    stats.games = player.games
    stats.current_streak = player.current_streak
    stats.best_streak = player.best_streak
    stats.last_finished_at = player.last_finished_at
    stats.save()
