"""The statistics' writes: counters and ratings kept as games end, and the recount.

``count_as_it_finishes`` runs inside the transaction that finishes a game
(games.play.services calls it), so a counter can never disagree with the game that
moved it: both are stored or neither. ``recount`` rebuilds every counter
and rating from the games themselves; the tests compare the two.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import models, transaction
from django.db.models import Case, Count, F, Q, Sum, Value, When
from django.db.models.functions import Greatest, Mod, TruncDate
from django.utils import timezone

from games.play.models import Game, Move, Result, Status
from games.stats.models import (
    COUNTER_SHARDS,
    INITIAL_RATING,
    PROVISIONAL_GAMES,
    BoardRating,
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


def _count_rated(player, score: float) -> None:
    """One more rated game for a player's PlayerStats or BoardRating (or their recount twins)."""
    player.rated_games += 1
    if score == 1.0:
        player.rated_wins += 1
    elif score == 0.0:
        player.rated_losses += 1
    else:
        player.rated_draws += 1


def _day(moment):
    return timezone.localdate(moment) if timezone.is_aware(moment) else moment.date()


def _bump(model, keys: dict, **increments) -> None:
    """Add ``increments`` to the counter row at ``keys``, in one UPDATE; the
    row is made first for its first count."""
    added = {name: F(name) + value for name, value in increments.items()}
    if not model.objects.filter(**keys).update(**added):
        row, _ = model.objects.get_or_create(**keys)
        model.objects.filter(pk=row.pk).update(**added)


def _streak(current: int, score: float) -> int:
    if score == 1.0:
        return current + 1 if current > 0 else 1
    if score == 0.0:
        return current - 1 if current < 0 else -1
    return 0


def count_as_it_finishes(game: Game) -> None:
    """Count ``game`` in the transaction that has just finished it: the caller
    locked its row, found it in progress and wrote ``stats_counted`` with the
    rest of its end. Once only: a game in progress is finished once, and a
    finished one is refused by every service that would end it
    (``stats_counted`` also tells the recount which games it has counted)."""
    if game.status != Status.FINISHED or not game.stats_counted:
        raise ValueError(f"game {game.pk} is not one finished and marked counted in this transaction")
    _count(game)


def _count(game: Game) -> None:
    kind = opponent_kind(game)
    sides = [(side, user_id) for side, user_id in (("X", game.x_player_id), ("O", game.o_player_id)) if user_id]
    between_people = kind == "human" and len(sides) == 2
    rated = between_people and game.rated
    # A rated game reads both players' rows (locked) for their ratings; any
    # other game changes its player's row in one statement (_count_unrated),
    # unless the player has counted a game stamped as ending later.
    locked = _locked_player_stats([user_id for _, user_id in sides]) if rated else {}
    if rated:
        _ends_after_what_was_counted(game, locked.values())
    columns = ("wins", "draws", "losses")
    for index, (side, user_id) in enumerate(sides):
        score = _score(game.result, side)
        column = columns[_SLOT[score]]
        if rated:
            _count_game(locked[user_id], score, game.finished_at)
        else:
            _count_unrated_in_order(game, user_id, score, counted=[other for _, other in sides[:index]])
        _bump(PlayerRecord, {"user_id": user_id, "variant": game.variant, "opponent": kind}, **{column: 1})
    if rated:
        _rate(game, locked[game.x_player_id], locked[game.o_player_id])
    if between_people:
        for side, user_id, other_id in (
            ("X", game.x_player_id, game.o_player_id),
            ("O", game.o_player_id, game.x_player_id),
        ):
            column = columns[_SLOT[_score(game.result, side)]]
            _bump(HeadToHead, {"user_id": user_id, "opponent_id": other_id}, games=1, **{column: 1})
    for stats in locked.values():
        stats.save()
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
        games=1,
        moves=game.move_count,
    )
    if game.cells:
        keys = {"variant": game.variant, "cell": game.cells[0], "result": game.result, "shard": shard}
        _bump(FirstMoveStats, keys, games=1)


def _streak_after(score: float):
    """A player's current streak after a game that scored ``score``, as an
    expression of the streak as it stands, as ``_streak`` works it out in
    Python (the recount's; the tests compare the two)."""
    streak = F("current_streak")
    if score == 1.0:
        return Case(When(current_streak__gt=0, then=streak + 1), default=Value(1))
    if score == 0.0:
        return Case(When(current_streak__lt=0, then=streak - 1), default=Value(-1))
    return Value(0)


def _count_unrated(user_id: int, score: float, finished_at):
    """One more finished game that moves no rating (one against the AI, or a casual one) in a
    player's PlayerStats, in one UPDATE: the row is not read and locked first,
    as a rated game's are (every expression of it reads the row as it was).
    Made first for the player's first game.

    Counted only after the games the player has counted already: when one of
    them is stamped as ending at or after ``finished_at`` (two games ending
    at once), nothing changes and that stamp is returned, the player's row
    locked, for the game to be stamped after it."""
    after = _streak_after(score)
    changes = {
        "games": F("games") + 1,
        "current_streak": after,
        "best_streak": Greatest(F("best_streak"), after),
        "last_finished_at": finished_at,
    }
    counted_before = Q(last_finished_at__isnull=True) | Q(last_finished_at__lt=finished_at)
    if PlayerStats.objects.filter(counted_before, user_id=user_id).update(**changes):
        return None
    PlayerStats.objects.bulk_create([PlayerStats(user_id=user_id)], ignore_conflicts=True)
    if PlayerStats.objects.filter(counted_before, user_id=user_id).update(**changes):
        return None
    return PlayerStats.objects.select_for_update().get(user_id=user_id).last_finished_at


def _count_unrated_in_order(game: Game, user_id: int, score: float, counted: list[int]) -> None:
    """:func:`_count_unrated` for ``game``, first stamped after the game the
    player counted last when that one is stamped as ending later (two games
    ending at once; see :func:`_ends_after_what_was_counted`). The players
    ``counted`` already for it keep its new end as their last."""
    latest = _count_unrated(user_id, score, game.finished_at)
    if latest is None:
        return
    _stamp_after(game, latest)  # the player's row is locked: the count below applies
    PlayerStats.objects.filter(user_id__in=counted).update(last_finished_at=game.finished_at)
    _count_unrated(user_id, score, game.finished_at)


def _locked_player_stats(user_ids: list[int]) -> dict[int, PlayerStats]:
    """The players' PlayerStats rows, locked, made first for a player's first
    game. Locked in one order, so two games ending at once cannot deadlock."""

    if not user_ids:  # a guest's game against the AI: no one's record
        return {}

    def lock():
        rows = PlayerStats.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
        return {row.user_id: row for row in rows}

    locked = lock()
    if len(locked) < len(user_ids):
        PlayerStats.objects.bulk_create(
            [PlayerStats(user_id=user_id) for user_id in user_ids if user_id not in locked], ignore_conflicts=True
        )
        locked = lock()
    return locked


def _ends_after_what_was_counted(game: Game, players) -> None:
    """Two games of one player ending at once are counted in the order they
    take the player's row lock. The recount counts games in the order they
    ended: a game stamped as ending before a game its players already counted
    is stamped just after that one, so both orders agree."""
    latest = max((p.last_finished_at for p in players if p.last_finished_at), default=None)
    if latest is not None and game.finished_at <= latest:
        _stamp_after(game, latest)


def _stamp_after(game: Game, moment) -> None:
    """Stamp ``game`` as ending just after ``moment``."""
    game.finished_at = moment + timedelta(microseconds=1)
    Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at)


def _locked_board_ratings(user_ids: list[int], variant: str) -> dict[int, BoardRating]:
    """The players' ratings on ``variant``, locked (made first at the starting
    rating), in one order like their PlayerStats."""

    def lock():
        rows = BoardRating.objects.select_for_update().filter(user_id__in=user_ids, variant=variant)
        return {row.user_id: row for row in rows.order_by("user_id")}

    locked = lock()
    if len(locked) < len(user_ids):
        BoardRating.objects.bulk_create(
            [BoardRating(user_id=user_id, variant=variant) for user_id in user_ids if user_id not in locked],
            ignore_conflicts=True,
        )
        locked = lock()
    return locked


def _rate(game: Game, x: PlayerStats, o: PlayerStats) -> None:
    """Update both players' ratings on the game's board for one game between
    people, once (RatingChange is unique)."""
    if RatingChange.objects.filter(game=game).exists():
        return
    boards = _locked_board_ratings([x.user_id, o.user_id], game.variant)
    x_board, o_board = boards[x.user_id], boards[o.user_id]
    x_score = _score(game.result, "X")
    x_after = rating_after(x_board.rating, o_board.rating, x_score, x_board.rated_games)
    o_after = rating_after(o_board.rating, x_board.rating, 1 - x_score, o_board.rated_games)
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                game=game, user_id=x.user_id, before=x_board.rating, after=x_after, created_at=game.finished_at
            ),
            RatingChange(
                game=game, user_id=o.user_id, before=o_board.rating, after=o_after, created_at=game.finished_at
            ),
        ]
    )
    for board, after, score in ((x_board, x_after, x_score), (o_board, o_after, 1 - x_score)):
        board.rating = after
        _count_rated(board, score)
        board.save(update_fields=["rating", "rated_games", "rated_wins", "rated_draws", "rated_losses"])
    _count_rated(x, x_score)
    _count_rated(o, 1 - x_score)


# --------------------------------------------------------------------------
# The recount.


@dataclass
class _Board:
    rating: int = INITIAL_RATING
    rated_games: int = 0
    rated_wins: int = 0
    rated_losses: int = 0
    rated_draws: int = 0


@dataclass
class _Player:
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
        for model in (DailyStats, FirstMoveStats, PlayerRecord, RatingChange, PlayerStats, BoardRating, HeadToHead):
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
        boards: dict[tuple[int, str], _Board] = defaultdict(_Board)  # (player, variant)
        changes: list[RatingChange] = []
        pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
        games = finished.order_by("finished_at", "id").values_list(
            "id", "variant", "ai_side", "ai_level", "x_player_id", "o_player_id", "result", "finished_at", "rated"
        )
        for game_id, variant, ai_side, ai_level, x_id, o_id, result, finished_at, rated in games.iterator(
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
            if kind == "human" and x_id and o_id and rated:
                x, o = boards[x_id, variant], boards[o_id, variant]
                x_after = rating_after(x.rating, o.rating, scores["X"], x.rated_games)
                o_after = rating_after(o.rating, x.rating, scores["O"], o.rated_games)
                for user_id, board, after, side in ((x_id, x, x_after, "X"), (o_id, o, o_after, "O")):
                    changes.append(
                        RatingChange(
                            game_id=game_id, user_id=user_id, before=board.rating, after=after, created_at=finished_at
                        )
                    )
                    board.rating = after
                    _count_rated(board, scores[side])
                _count_rated(players[x_id], scores["X"])
                _count_rated(players[o_id], scores["O"])
            elif game_id in kept_changes:
                side, user_id = ("X", x_id) if x_id else ("O", o_id)
                board = boards[user_id, variant]
                after = board.rating + kept_changes[game_id]
                changes.append(
                    RatingChange(
                        game_id=game_id, user_id=user_id, before=board.rating, after=after, created_at=finished_at
                    )
                )
                board.rating = after
                _count_rated(board, scores[side])
                _count_rated(players[user_id], scores[side])
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
        BoardRating.objects.bulk_create(
            [
                BoardRating(
                    user_id=user_id,
                    variant=variant,
                    rating=b.rating,
                    rated_games=b.rated_games,
                    rated_wins=b.rated_wins,
                    rated_draws=b.rated_draws,
                    rated_losses=b.rated_losses,
                )
                for (user_id, variant), b in boards.items()
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
