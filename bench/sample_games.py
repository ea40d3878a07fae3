"""Fill a database with realistic games, fast: ``python -m bench sample_games``.

Realistic means the rows could have come from the site itself:

* Every game is a real game. Before writing anything we play a pool of games per
  (variant, X's play, O's play) with ``games.engine`` (a person is modelled as
  one of the AI's levels, from an "easy" beginner to the odd "perfect" player),
  keeping repeats so that common games stay common. Each stored game is drawn
  from the pool for its kind, so lengths and results follow from real play.
* Most games are against the AI, at every level and on every variant (mostly
  3x3); about a quarter are between two people. Most end on the board (a line or
  a full board); some are resigned, some lost on time, some aborted before the
  second move and some still in progress; a few are played by guests.
* Activity is uneven: a player's share of the games follows a Pareto law, so a
  few players are very active and most play a little. Games are spread over
  ``days`` with more of them recently, and ids follow the time they started.

Speed comes from sampling the pool rather than searching per game, and from
writing rows the fastest way each database has: PostgreSQL's COPY, and on
SQLite ``executemany`` in one transaction per batch with ``synchronous=OFF``.
The statistics and ratings are then rebuilt by ``games.stats.counters.recount``.
"""

from __future__ import annotations

import io
import multiprocessing
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from typing import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import Max

from games.engine import LEVELS, Board, best_move, side_to_move
from games.play.models import Game, Move, Result, Status, Termination
from games.stats import counters

PASSWORD = "player-password"

#: Variants and their share of games, against the AI and between people.
AI_VARIANTS = {"3x3": 0.80, "4x4": 0.12, "5x5": 0.08}
HUMAN_VARIANTS = {"3x3": 0.85, "4x4": 0.10, "5x5": 0.05}
#: How strong a person plays, as an engine level.
HUMAN_SKILL = {"easy": 0.25, "medium": 0.40, "hard": 0.30, "perfect": 0.05}
AI_LEVELS = {"easy": 0.25, "medium": 0.30, "hard": 0.25, "perfect": 0.20}
SHARE_AGAINST_AI = 0.75
SHARE_GUESTS = 0.05  # of the games against the AI
#: Games per pool entry (variant, X's level, O's level): the bigger boards are dearer.
POOL_SIZE = {"3x3": 2000, "4x4": 120, "5x5": 40}
#: Seconds a weaker level looks for the perfect move on 4x4 and 5x5 before it
#: settles for less: sample games are wanted many and quickly, and a person at that
#: level plays no better. The perfect level has no budget.
SEEDED_LEVEL_BUDGET = 0.005
MOVE_TIME_LIMITS = {None: 0.55, 30: 0.10, 60: 0.15, 300: 0.15, 86400: 0.05}

GAME_COLUMNS = [
    "id", "variant", "x_player_id", "o_player_id", "ai_side", "ai_level", "start_mode", "guest_key", "seed",
    "status", "result", "termination", "move_count", "move_time_limit", "turn_started_at", "deadline",
    "created_at", "updated_at", "finished_at", "stats_counted",
]  # fmt: skip
MOVE_COLUMNS = ["game_id", "ply", "cell", "created_at"]


# --------------------------------------------------------------------------
# The pool of real games.


def play_game(variant: str, x_level: str, o_level: str, rng: random.Random) -> tuple[int, ...]:
    """The cells of one whole game, each side playing ``best_move`` at its level."""
    board = Board.empty(int(variant[0]))
    cells = []
    while not board.is_game_over():
        level = x_level if board.ply % 2 == 0 else o_level
        cell = best_move(board, level, seed=rng.getrandbits(32), budget=SEEDED_LEVEL_BUDGET)
        cells.append(cell)
        board = board.play(cell)
    return tuple(cells)


def _play_pool_entry(args) -> tuple[tuple[str, str, str], list[tuple[int, ...]]]:
    key, size, seed = args
    rng = random.Random(f"{seed}-{'-'.join(key)}")
    return key, [play_game(*key, rng) for _ in range(size)]


def build_pool(seed: int, scale: float = 1.0, processes: int | None = None) -> dict:
    """{(variant, x_level, o_level): [cells, ...]}, every pairing of levels.

    ``scale`` shrinks the pool (for a few hundred games there is no need for
    thousands). The pairings are played in parallel, one process per core.
    """
    jobs = [
        ((variant, x, o), max(5, int(POOL_SIZE[variant] * scale)), seed)
        for variant in POOL_SIZE
        for x in LEVELS
        for o in LEVELS
    ]
    jobs.sort(key=lambda job: job[0][0], reverse=True)  # the slow 5x5 ones first
    if processes == 1:
        return dict(map(_play_pool_entry, jobs))
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return dict(pool.imap_unordered(_play_pool_entry, jobs))


# --------------------------------------------------------------------------
# Deciding each game.


@dataclass
class SampleReport:
    users: int = 0
    games: int = 0
    moves: int = 0
    by_status: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)


def _picker(rng: random.Random, weights: dict) -> Callable[[], object]:
    keys = list(weights)
    cum, total = [], 0.0
    for key in keys:
        total += weights[key]
        cum.append(total)
    return lambda: rng.choices(keys, cum_weights=cum)[0]


def _outcome(cells: tuple[int, ...], size: int) -> tuple[str, str]:
    board = Board.from_moves(cells, size=size)
    return board.result(), board.termination()


class _Planner:
    """Turns a random draw into one game row and its moves."""

    def __init__(self, *, rng, pool, user_ids, user_cum, now, days, outcomes):
        self.rng, self.pool, self.now, self.days = rng, pool, now, days
        self.user_ids, self.user_cum = user_ids, user_cum
        self.outcomes = outcomes  # cells -> (result, termination), cached per pool game
        self.ai_variant = _picker(rng, AI_VARIANTS)
        self.human_variant = _picker(rng, HUMAN_VARIANTS)
        self.skill = _picker(rng, HUMAN_SKILL)
        self.ai_level = _picker(rng, AI_LEVELS)
        self.time_limit = _picker(rng, MOVE_TIME_LIMITS)

    def player(self) -> int:
        return self.rng.choices(self.user_ids, cum_weights=self.user_cum)[0]

    def started(self) -> datetime:
        # The density of age falls linearly to nothing at ``days`` ago: recent days are busier.
        age = self.days * (1 - self.rng.random() ** 0.5)
        return self.now - timedelta(days=age)

    def game(self) -> dict:
        rng = self.rng
        against_ai = rng.random() < SHARE_AGAINST_AI
        row = {"x_player_id": None, "o_player_id": None, "ai_side": "", "ai_level": "", "start_mode": "",
               "guest_key": "", "move_time_limit": None}  # fmt: skip
        if against_ai:
            variant = self.ai_variant()
            ai_side = "O" if rng.random() < 0.6 else "X"
            level, skill = self.ai_level(), self.skill()
            row.update(ai_side=ai_side, ai_level=level, start_mode="minimax")
            human = "X" if ai_side == "O" else "O"
            if rng.random() < SHARE_GUESTS:
                row["guest_key"] = f"{rng.getrandbits(128):032x}"
            else:
                row[f"{human.lower()}_player_id"] = self.player()
            key = (variant, skill, level) if human == "X" else (variant, level, skill)
        else:
            variant = self.human_variant()
            x_id = self.player()
            o_id = self.player()
            while o_id == x_id:
                o_id = self.player()
            row.update(x_player_id=x_id, o_player_id=o_id, move_time_limit=self.time_limit())
            human = None
            key = (variant, self.skill(), self.skill())
        cells = rng.choice(self.pool[key])
        if cells not in self.outcomes:
            self.outcomes[cells] = _outcome(cells, int(variant[0]))
        result, termination = self.outcomes[cells]
        status = Status.FINISHED
        roll = rng.random()
        # How the game ends. Against the AI only the person resigns, leaves or
        # aborts, always on their own turn (the AI answers at once).
        if roll < 0.02 and (cut := self._cut(cells, human, low=0)) is not None:
            status, cells = Status.IN_PROGRESS, cells[:cut]
        elif roll < 0.035 and (cut := self._cut(cells, human, low=0, high=1)) is not None:
            status, cells = Status.ABORTED, cells[:cut]
        elif roll < (0.085 if against_ai else 0.11):
            cut = self._cut(cells, human, low=2)  # before both sides moved, it would be aborted
            if cut is not None:
                cells = cells[:cut]
                loser = side_to_move(cut)
                result = Result.O_WON if loser == "X" else Result.X_WON
                termination = Termination.RESIGNED
        elif not against_ai and roll < 0.14 and row["move_time_limit"]:
            cut = self._cut(cells, None, low=2)
            if cut is not None:
                cells = cells[:cut]
                result = Result.O_WON if cut % 2 == 0 else Result.X_WON
                termination = Termination.TIMEOUT
        if status != Status.FINISHED:
            result = termination = ""
        if status == Status.IN_PROGRESS:
            started = self.now - timedelta(seconds=rng.uniform(10, 3 * 86400 if not row["move_time_limit"] else 3600))
        else:
            started = self.started()
        step = rng.uniform(2, 12)  # seconds between moves
        row.update(variant=variant, status=status, result=result, termination=termination,
                   move_count=len(cells), seed=rng.getrandbits(31), created_at=started)  # fmt: skip
        return row, cells, step

    def _cut(self, cells, human, *, low, high=None) -> int | None:
        """A ply before the end at which ``human`` (or anyone, for None) is to move."""
        high = len(cells) - 1 if high is None else min(high, len(cells) - 1)
        plies = [p for p in range(low, high + 1) if human is None or (p % 2 == 0) == (human == "X")]
        return rng_choice(self.rng, plies)


def rng_choice(rng: random.Random, items: list):
    """One of ``items`` at random, or None when there are none."""
    return rng.choice(items) if items else None


# --------------------------------------------------------------------------
# Writing.


def _users(count: int, rng: random.Random, now: datetime, days: int) -> tuple[list[int], list[float]]:
    User = get_user_model()
    password = make_password(PASSWORD)
    start = (User.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
    users = [
        User(
            username=f"player{start + i}",
            email=f"player{start + i}@example.com",
            password=password,
            date_joined=now - timedelta(days=days + rng.uniform(0, 30)),
        )
        for i in range(count)
    ]
    User.objects.bulk_create(users, batch_size=2000)
    ids = list(
        User.objects.filter(username__in=[u.username for u in users]).order_by("pk").values_list("pk", flat=True)
    )
    cum, total = [], 0.0
    for _ in ids:
        total += rng.paretovariate(1.5)  # a few very active players (about 2% of the games), most occasional
        cum.append(total)
    return ids, cum


def _pg_value(value) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    return str(value)


def _write_batch(games: list[tuple], moves: list[tuple]) -> None:
    game_table, move_table = Game._meta.db_table, Move._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table, columns, rows in ((game_table, GAME_COLUMNS, games), (move_table, MOVE_COLUMNS, moves)):
                buffer = io.StringIO()
                buffer.writelines("\t".join(map(_pg_value, row)) + "\n" for row in rows)
                with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    copy.write(buffer.getvalue())
        else:
            for table, columns, rows in ((game_table, GAME_COLUMNS, games), (move_table, MOVE_COLUMNS, moves)):
                sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                cursor.connection.executemany(sql, rows)


def _sqlite_time(value: datetime | None):
    return None if value is None else value.strftime("%Y-%m-%d %H:%M:%S.%f")


def make_sample_games(
    *,
    games: int,
    users: int,
    days: int = 365,
    seed: int = 0,
    batch: int = 20000,
    recount: bool = True,
    log: Callable[[str], None] = lambda message: None,
) -> SampleReport:
    """Create ``users`` players and ``games`` games with their moves, then recount the statistics."""
    report = SampleReport()
    rng = random.Random(seed)
    now = datetime.now(dt_timezone.utc).replace(microsecond=0)
    clock = time.perf_counter()

    # A small run plays its small pool in this process: no fork for a few seconds' work.
    pool = build_pool(seed, scale=min(1.0, max(0.01, games / 200_000)), processes=1 if games < 50_000 else None)
    report.timings["pool"] = time.perf_counter() - clock
    log(f"pool: {sum(len(v) for v in pool.values()):,} games played in {report.timings['pool']:.1f} s")

    clock = time.perf_counter()
    user_ids, user_cum = _users(users, rng, now, days)
    report.users = len(user_ids)
    report.timings["users"] = time.perf_counter() - clock
    log(f"users: {report.users:,} in {report.timings['users']:.1f} s")

    clock = time.perf_counter()
    planner = _Planner(rng=rng, pool=pool, user_ids=user_ids, user_cum=user_cum, now=now, days=days, outcomes={})
    planned = [planner.game() for _ in range(games)]
    planned.sort(key=lambda item: item[0]["created_at"])  # ids in the order games started
    log(f"planned {games:,} games in {time.perf_counter() - clock:.1f} s")

    postgres = connection.vendor == "postgresql"
    stamp = (lambda value: value) if postgres else _sqlite_time
    # Nothing is lost to a crash that a second run would not redo; SQLite refuses
    # the change inside a transaction (a test's), where it is left as it is.
    tune_sqlite = not postgres and not connection.in_atomic_block
    if tune_sqlite:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=OFF")
    next_id = (Game.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
    try:
        for start in range(0, games, batch):
            game_rows, move_rows = [], []
            for row, cells, step in planned[start : start + batch]:
                game_id = next_id
                next_id += 1
                created = row["created_at"]
                times = [created + timedelta(seconds=step * (ply + 1)) for ply in range(len(cells))]
                last = times[-1] if times else created
                finished = None
                if row["status"] != Status.IN_PROGRESS:
                    finished = last + timedelta(seconds=step)
                    if row["termination"] == Termination.TIMEOUT:
                        finished = last + timedelta(seconds=row["move_time_limit"] + step)
                row["id"] = game_id
                row["turn_started_at"] = stamp(last)
                # A game in progress with a limit per move runs out of time at
                # its deadline, for the clock worker to end.
                limited = row["status"] == Status.IN_PROGRESS and row["move_time_limit"]
                row["deadline"] = stamp(last + timedelta(seconds=row["move_time_limit"])) if limited else None
                row["updated_at"] = stamp(finished or last)
                row["finished_at"] = stamp(finished)
                row["created_at"] = stamp(created)
                row["stats_counted"] = False
                game_rows.append(tuple(row[column] for column in GAME_COLUMNS))
                move_rows.extend((game_id, ply, cell, stamp(times[ply])) for ply, cell in enumerate(cells))
                report.by_status[row["status"]] = report.by_status.get(row["status"], 0) + 1
            _write_batch(game_rows, move_rows)
            report.games += len(game_rows)
            report.moves += len(move_rows)
            elapsed = time.perf_counter() - clock
            log(f"games: {report.games:,}/{games:,}, moves: {report.moves:,} ({elapsed:.1f} s)")
    finally:
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{Game._meta.db_table}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 1) FROM {Game._meta.db_table}))"
                )
                cursor.execute(f"ANALYZE {Game._meta.db_table}")
                cursor.execute(f"ANALYZE {Move._meta.db_table}")
        else:
            with connection.cursor() as cursor:
                if tune_sqlite:
                    cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("ANALYZE")
    report.timings["games"] = time.perf_counter() - clock
    del planned

    if recount:
        clock = time.perf_counter()
        counters.recount()
        report.timings["recount"] = time.perf_counter() - clock
        log(f"statistics recounted in {report.timings['recount']:.1f} s")
    return report
