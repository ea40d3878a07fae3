"""Reads: the querysets behind pages, the API and the terminal."""

from __future__ import annotations

from django.db.models import Count, F, Func, IntegerField, OuterRef, Q, Subquery, prefetch_related_objects

from games.models import UNFINISHED, Challenge, ChallengeKind, Game, Result, Status

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
            .select_related("x_player", "o_player")
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


def player_record(user) -> dict[str, int]:
    """How many games a player has: ``games`` in all, ``won``, ``lost``,
    ``drawn``, ``in_progress`` and ``aborted``, whatever their number, in three
    queries: the results from the counters kept as games end (PlayerRecord), the
    unfinished games counted one side at a time over the (player, status) indexes."""
    from django.db.models import Sum

    from games.models import PlayerRecord

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


def player_recent_games(user, limit: int = 10) -> list[Game]:
    """A player's latest games, finished or not, newest first."""
    return PlayerGamesNewestFirst(user)[0:limit]


#: How many games an export reads at a time (with one query for their moves).
EXPORT_CHUNK = 500


def player_games_for_export(user, chunk_size: int = EXPORT_CHUNK):
    """Every game ``user`` played, on either side and in any state, oldest first,
    with both players and ``cells`` (the moves) filled in: a generator reading
    ``chunk_size`` games at a time and their moves in one query per chunk, never
    a query per game, so 50,000 games take about a hundred queries and little memory."""
    from games.models import Move

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


# -- games between people: the lobby, rematch offers, head to head ---------------

LOBBY_LIMIT = 50


def lobby_open_challenges(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """Challenges anyone may accept, from players other than ``user``, newest first."""
    return list(Challenge.objects.in_lobby().exclude(challenger=user).select_related("challenger")[:limit])


def lobby_challenges_sent_by(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """``user``'s own challenges nobody has accepted yet, of every kind."""
    return list(Challenge.objects.waiting().filter(challenger=user).select_related("opponent")[:limit])


def lobby_challenges_sent_to(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """Challenges (and rematch offers) sent to ``user`` by name, still waiting."""
    return list(
        Challenge.objects.waiting()
        .filter(kind=ChallengeKind.DIRECT, opponent=user)
        .select_related("challenger")[:limit]
    )


def live_games_between_people(limit: int = LOBBY_LIMIT) -> list[Game]:
    """Games between people in progress, newest first, for anyone to watch."""
    return list(Game.objects.against_humans().in_progress().with_players_and_moves()[:limit])


def challenge_by_token(token: str) -> Challenge:
    """The challenge behind an invite link; raises Challenge.DoesNotExist."""
    return Challenge.objects.select_related("challenger", "opponent", "game").get(token=token)


def rematch_offer(game: Game) -> Challenge | None:
    """The latest rematch offered after ``game``, whatever became of it, or None."""
    return game.rematch_offers.select_related("challenger", "game").order_by("-created_at", "-id").first()


HEAD_TO_HEAD_LIMIT = 20


def head_to_head(user, limit: int = HEAD_TO_HEAD_LIMIT) -> list[dict]:
    """``user``'s record against the ``limit`` people they have played most, from
    the counters kept as games end, in one query.

    One row per opponent, most games first: ``opponent`` (a username), ``games``,
    ``won``, ``lost`` and ``drawn`` from ``user``'s side. Games against the AI, and
    games whose opponent deleted their account, are left out.
    """
    from games.models import HeadToHead

    rows = (
        HeadToHead.objects.filter(user=user)
        .order_by("-games", "opponent__username")
        .values("opponent__username", "games", "wins", "losses", "draws")[:limit]
    )
    return [
        {
            "opponent": r["opponent__username"],
            "games": r["games"],
            "won": r["wins"],
            "lost": r["losses"],
            "drawn": r["draws"],
        }
        for r in rows
    ]


# -- for the API: a finished game's review, a player's challenges -----------------


def game_review(game: Game):
    """The engine's review of a finished game (an ``engine.Review``), or None
    while it is not finished. Kept in the cache under the game page's key:
    a finished game never changes."""
    from contextlib import suppress

    from django.core.cache import cache

    from games import engine, outages

    if game.status != Status.FINISHED:
        return None
    # "exact": reviews cached before every board was solved exactly carry old labels.
    key = f"review:exact:{game.pk}:{game.move_count}"
    # The cache only saves work: while Redis is down the review is worked out afresh.
    with suppress(*outages.REDIS_DOWN):
        review = cache.get(key)
        if review is not None:
            return review
    review = engine.review(game.cells, size=game.size)
    # A review with a position not solved in time is kept ten minutes only: a
    # later try may solve it.
    with suppress(*outages.REDIS_DOWN):
        cache.set(key, review, 24 * 3600 if review.exact else 600)
    return review


def challenges_for(user):
    """The challenges waiting in the lobby, and every challenge ``user`` sent
    or received (or accepted from the lobby), newest first."""
    from games.models import Challenge, ChallengeKind, ChallengeStatus

    return Challenge.objects.filter(
        Q(kind=ChallengeKind.OPEN, status=ChallengeStatus.OPEN) | Q(challenger=user) | Q(opponent=user)
    ).select_related("challenger", "opponent")


# -- statistics: read from the counter tables only (games.stats keeps them) ---------

#: How many days of the games-per-day chart the stats page shows.
STATS_DAYS = 90
#: How many rating changes a player's chart and the API show.
RATING_HISTORY = 100
LEADERBOARD_PAGE = 50


def _opponent_kinds() -> list[str]:
    from games.models import OPPONENT_KINDS

    return OPPONENT_KINDS


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
    from django.db.models import Sum

    from games.models import DailyStats, Termination, Variant

    rows = list(
        DailyStats.objects.values("variant", "opponent", "ai_side", "result", "termination")
        .annotate(n=Sum("games"), m=Sum("moves"))
        .order_by()
    )
    days = list(DailyStats.objects.values("day").annotate(n=Sum("games")).order_by("-day")[:STATS_DAYS])

    kinds = _opponent_kinds()
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
    from games import charts
    from games.models import FirstMoveStats, Variant

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


def active_player(username: str):
    """The active account called ``username``; raises User.DoesNotExist (also for a
    name no account can have, such as one with a NUL, which PostgreSQL refuses)."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    if "\x00" in username:
        raise User.DoesNotExist
    return User.objects.get(username=username, is_active=True)


def is_last_superuser(user) -> bool:
    """Whether ``user`` is the site's only active superuser: the account that
    must stay, or nobody could manage the site (give the role to another first)."""
    from django.contrib.auth import get_user_model

    if not user.is_superuser:
        return False
    return not get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(pk=user.pk).exists()


def player_stats(user):
    """A player's PlayerStats, or an unsaved one at the starting rating before their first game."""
    from games.models import PlayerStats

    stats = PlayerStats.objects.filter(user=user).first() or PlayerStats()
    stats.user = user  # the one we have: no query to fetch it again
    return stats


def player_records(user) -> list[dict]:
    """A player's record per variant and opponent ("human" or an AI level), in the
    order variant, then human, easy ... perfect; one query."""
    from games.models import PlayerRecord, Variant

    order = {kind: i for i, kind in enumerate(_opponent_kinds())}
    variants = {v: i for i, v in enumerate(Variant.values)}
    records = PlayerRecord.objects.filter(user=user).values("variant", "opponent", "wins", "losses", "draws")
    rows = sorted(records, key=lambda r: (variants.get(r["variant"], 9), order.get(r["opponent"], 9)))
    for row in rows:
        row["games"] = row["wins"] + row["losses"] + row["draws"]
    return rows


def rating_history(user, limit: int = RATING_HISTORY) -> list:
    """A player's last ``limit`` RatingChanges, oldest first; one query."""
    from games.models import RatingChange

    latest = RatingChange.objects.filter(user=user).order_by("-created_at", "-id")[:limit]
    return list(reversed(latest))


def leaderboard():
    """Players with at least one rated game, best rating first (a tie: the older
    account first). Provisional players are ranked with the others; pages mark them."""
    from games.models import PlayerStats

    return (
        PlayerStats.objects.filter(rated_games__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "user_id")
    )


def admin_summary() -> dict:
    """The admin index's figures: games today and in all, the perfect AI's
    losses, the top five players. Four queries."""
    from django.db.models import Sum
    from django.utils import timezone

    from games.models import DailyStats

    today = timezone.localdate()
    totals = DailyStats.objects.aggregate(total=Sum("games"), today=Sum("games", filter=Q(day=today)))
    losses = DailyStats.objects.filter(opponent="perfect").filter(AI_LOST).aggregate(n=Sum("games"))["n"] or 0
    return {
        "games_today": totals["today"] or 0,
        "games_total": totals["total"] or 0,
        "perfect_losses": losses,
        "top_players": list(leaderboard()[:5]),
    }
