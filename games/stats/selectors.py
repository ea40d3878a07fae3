"""Reads for the statistics: from the counter tables only (:mod:`games.stats.counters`
keeps them), so every page costs a few queries with ten games or a million."""

from __future__ import annotations

from django.db.models import Count, Q, Sum
from django.utils import timezone

from games.play.models import UNFINISHED, Game, Status, Termination, Variant
from games.stats import charts
from games.stats.models import (
    OPPONENT_KINDS,
    BoardRating,
    DailyStats,
    FirstMoveStats,
    HeadToHead,
    PlayerRecord,
    PlayerStats,
    RatingChange,
)


def player_record(user) -> dict[str, int]:
    """How many games a player has: ``games`` in all, ``won``, ``drawn``,
    ``lost``, ``in_progress`` and ``aborted``, whatever their number, in three
    queries: the results from the counters kept as games end (PlayerRecord), the
    unfinished games counted one side at a time over the (player, status) indexes."""
    results = PlayerRecord.objects.filter(user=user).aggregate(won=Sum("wins"), lost=Sum("losses"), drawn=Sum("draws"))
    record = {name: count or 0 for name, count in results.items()}
    record["in_progress"] = record["aborted"] = 0
    for side in ("x_player", "o_player"):
        unfinished = (
            Game.objects.filter(**{side: user}, status__in=UNFINISHED)
            .order_by()
            .aggregate(
                in_progress=Count("pk", filter=Q(status=Status.IN_PROGRESS)),
                aborted=Count("pk", filter=Q(status=Status.ABORTED)),
            )
        )
        record["in_progress"] += unfinished["in_progress"]
        record["aborted"] += unfinished["aborted"]
    record["games"] = sum(record.values())
    return record


HEAD_TO_HEAD_LIMIT = 20


def head_to_head(user, limit: int = HEAD_TO_HEAD_LIMIT) -> list[dict]:
    """``user``'s record against the ``limit`` people they have played most, from
    the counters kept as games end, in one query.

    One row per opponent, most games first: ``opponent`` (a username), ``bot``
    (whether the opponent is a bot), ``games``, ``won``, ``drawn`` and ``lost``
    from ``user``'s side. Games against the AI, and games whose opponent
    deleted their account, are left out.
    """
    rows = (
        HeadToHead.objects.filter(user=user)
        .order_by("-games", "opponent__username")
        .values("opponent__username", "opponent__bot", "games", "wins", "losses", "draws")[:limit]
    )
    return [
        {
            "opponent": r["opponent__username"],
            "bot": r["opponent__bot"] is not None,
            "games": r["games"],
            "won": r["wins"],
            "drawn": r["draws"],
            "lost": r["losses"],
        }
        for r in rows
    ]


#: How many days of the games-per-day chart the stats page shows.
STATS_DAYS = 90
#: How many rating changes a player's chart and the API show.
RATING_HISTORY = 100
LEADERBOARD_PAGE = 50


#: DailyStats rows of games the AI lost: the side it played lost.
AI_LOST = Q(ai_side="X", result="o_won") | Q(ai_side="O", result="x_won")


def _ai_lost(row: dict) -> bool:
    return (row["ai_side"], row["result"]) in (("X", "o_won"), ("O", "x_won"))


def site_stats() -> dict:
    """Every figure of the stats page, in three queries whatever the number of games.

    Games by variant and opponent, results by opponent, how games end and their
    average length come from DailyStats summed by kind; the games per day from
    DailyStats by day (the last ``STATS_DAYS`` days with games); the perfect
    AI's losses from the same rows (the games where the side it played lost).
    """
    rows = list(
        DailyStats.objects.values("variant", "opponent", "ai_side", "result", "termination")
        .annotate(n=Sum("games"), m=Sum("moves"))
        .order_by()
    )
    days = list(DailyStats.objects.values("day").annotate(n=Sum("games")).order_by("-day")[:STATS_DAYS])

    kinds = OPPONENT_KINDS
    total = sum(r["n"] for r in rows)
    moves = sum(r["m"] for r in rows)
    by_variant = {v: {k: 0 for k in kinds} for v in Variant.values}
    results = {k: {"x_won": 0, "o_won": 0, "draw": 0} for k in kinds}
    endings = {t: 0 for t in Termination.values}
    for r in rows:
        if r["variant"] in by_variant and r["opponent"] in results:
            by_variant[r["variant"]][r["opponent"]] += r["n"]
            results[r["opponent"]][r["result"]] += r["n"]
        endings[r["termination"]] = endings.get(r["termination"], 0) + r["n"]
    perfect_games = sum(by_variant[v]["perfect"] for v in by_variant)
    return {
        "total": total,
        "average_moves": round(moves / total, 1) if total else 0,
        "by_variant": [
            {
                "variant": v,
                "label": Variant(v).label,
                "counts": [by_variant[v][k] for k in kinds],
                "total": sum(by_variant[v].values()),
            }
            for v in Variant.values
        ],
        "kinds": kinds,
        "results": [{"opponent": k, **results[k], "total": sum(results[k].values())} for k in kinds],
        "endings": [{"termination": t, "label": Termination(t).label, "games": endings[t]} for t in Termination.values],
        "perfect_ai": {
            "games": perfect_games,
            "losses": sum(r["n"] for r in rows if r["opponent"] == "perfect" and _ai_lost(r)),
        },
        "days": [{"day": d["day"], "games": d["n"]} for d in reversed(days)],
    }


def first_move_heatmap(variant: str) -> list[dict]:
    """Each cell of ``variant``'s board as a first move: ``games`` opened there,
    ``share`` of all first moves (percent) and the percent of X wins, draws and
    O wins, plus ``heat`` (0..1, by popularity). One query."""
    size = Variant(variant).size
    cells = [
        {"cell": c, "row": c // size + 1, "column": c % size + 1, "x_won": 0, "draw": 0, "o_won": 0}
        for c in range(size * size)
    ]
    for row in FirstMoveStats.objects.filter(variant=variant).values("cell", "result", "games"):
        if row["cell"] < len(cells):
            cells[row["cell"]][row["result"]] += row["games"]
    total = 0
    for cell in cells:
        cell["games"] = cell["x_won"] + cell["draw"] + cell["o_won"]
        total += cell["games"]
    most = max(cell["games"] for cell in cells)
    for cell in cells:
        cell["share"] = charts.percent(cell["games"], total)
        cell["heat"] = charts.heat(cell["games"], most)
        for name in ("x_won", "draw", "o_won"):
            cell[f"{name}_pct"] = charts.percent(cell[name], cell["games"])
    return cells


def player_stats(user):
    """A player's PlayerStats, or an unsaved one before their first game."""
    stats = PlayerStats.objects.filter(user=user).first() or PlayerStats()
    stats.user = user  # the one we have: no query to fetch it again
    return stats


def player_records(user) -> list[dict]:
    """A player's record per variant and opponent ("human" or an AI level), in the
    order variant, then human, easy ... perfect; one query."""
    order = {kind: i for i, kind in enumerate(OPPONENT_KINDS)}
    variants = {v: i for i, v in enumerate(Variant.values)}
    records = PlayerRecord.objects.filter(user=user).values("variant", "opponent", "wins", "losses", "draws")
    rows = sorted(records, key=lambda r: (variants.get(r["variant"], 9), order.get(r["opponent"], 9)))
    for row in rows:
        row["games"] = row["wins"] + row["losses"] + row["draws"]
    return rows


def board_ratings(user) -> list[BoardRating]:
    """A player's rating on each board, 3x3 first: unsaved, at the starting
    rating, on a board they have not played a rated game on; one query."""
    kept = {row.variant: row for row in BoardRating.objects.filter(user=user)}
    return [kept.get(variant) or BoardRating(user=user, variant=variant) for variant in Variant.values]


def board_rating(user, variant: str) -> BoardRating:
    """A player's rating on ``variant`` (unsaved, at the start, before a rated game there)."""
    return BoardRating.objects.filter(user=user, variant=variant).first() or BoardRating(user=user, variant=variant)


def rating_history(user, variant: str | None = None, limit: int = RATING_HISTORY) -> list:
    """A player's last ``limit`` RatingChanges (on ``variant``, or on every
    board), oldest first; one query."""
    changes = RatingChange.objects.filter(user=user)
    if variant is not None:
        changes = changes.filter(game__variant=variant)
    latest = changes.select_related("game").order_by("-created_at", "-id")[:limit]
    return list(reversed(latest))


def leaderboard(*, variant: str = Variant.THREE, bots: bool = False):
    """Players with at least one rated game on ``variant``, best rating there
    first (a tie: the older account first). Provisional players are ranked
    with the others; pages mark them. People and bots have a leaderboard
    each: ``bots`` picks the bots'."""
    return (
        BoardRating.objects.filter(variant=variant, rated_games__gt=0, user__is_active=True, user__bot__isnull=not bots)
        .select_related("user", "user__bot")
        .order_by("-rating", "user_id")
    )


def admin_summary() -> dict:
    """The admin index's figures: games today and in all, the perfect AI's
    losses, the top three players on each board. Five queries."""
    today = timezone.localdate()
    totals = DailyStats.objects.aggregate(total=Sum("games"), today=Sum("games", filter=Q(day=today)))
    losses = DailyStats.objects.filter(opponent="perfect").filter(AI_LOST).aggregate(n=Sum("games"))["n"] or 0
    return {
        "games_today": totals["today"] or 0,
        "games_total": totals["total"] or 0,
        "perfect_losses": losses,
        "top_players": [(variant, list(leaderboard(variant=variant)[:3])) for variant in Variant.values],
    }
