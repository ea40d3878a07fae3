"""Time controls and the clocks they run.

A game has one of three time controls:

- **none**: it waits as long as needed;
- **per move** (correspondence): each move within a number of days (1, 3 or 7),
  or, in games from before clocks, seconds;
- **a clock**: each side has a total (minutes) and gains an increment
  (seconds) after each of its moves: "3+2" is three minutes and two seconds a
  move.

The server's clock is the truth. A side's time runs from the moment the server
stored the move that gave it the turn (``Game.turn_started_at``) to the moment
the server receives its move; a client never says how long it took. Network
lag is not charged up to :data:`LAG_ALLOWANCE_MS` a move, so a move that left
the player's browser in time is not lost on its way.

``Game.deadline`` is when the side to move has run out of time: the clock
worker (``manage.py run_worker``) ends every game whose deadline has passed,
and a move that reaches the server after it is refused. A side that has not
made its first move by its deadline aborts the game (no result, unrated),
rather than losing it: their clock has not started yet.

Everything here is arithmetic on values; the writes are in
:mod:`games.play.services`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

DAY = 86_400

#: Not charged to the side that moves, per move: the time a move may spend
#: travelling between the player's browser and the server.
LAG_ALLOWANCE_MS = 500

#: Limits of a custom clock.
MAX_MINUTES = 180
MAX_INCREMENT = 60
#: Days per move a correspondence game may give.
CORRESPONDENCE_DAYS = (1, 3, 7)
#: Per-move limits in seconds of games made before clocks (still honoured).
LEGACY_PER_MOVE = (30, 60, 300)


def first_move_seconds() -> int:
    """How long each side has for its first move in a game with a clock
    before the game is aborted (lichess gives about 30 seconds)."""
    return getattr(settings, "FIRST_MOVE_SECONDS", 30)


@dataclass(frozen=True)
class TimeControl:
    """How much time the players have: a clock, a limit per move, or none."""

    initial: int | None = None  # seconds on each side's clock
    increment: int = 0  # seconds added after each of a side's moves
    per_move: int | None = None  # seconds for each move (correspondence)

    @property
    def kind(self) -> str:
        """ "clock", "correspondence" or "none"."""
        if self.initial is not None:
            return "clock"
        if self.per_move is not None:
            return "correspondence"
        return "none"

    @property
    def key(self) -> str:
        """The short name forms and the API use: "3+2", "3d", "30s", "none"."""
        if self.initial is not None:
            return f"{_minutes(self.initial)}+{self.increment}"
        if self.per_move is not None:
            if self.per_move % DAY == 0:
                return f"{self.per_move // DAY}d"
            return f"{self.per_move}s"
        return "none"

    @property
    def label(self) -> str:
        """ "3+2 (3 minutes + 2 seconds a move)", "3 days per move", "No limit"."""
        if self.initial is not None:
            minutes = _minutes(self.initial)
            unit = "minute" if minutes == 1 else "minutes"
            if self.increment:
                return f"{self.key} ({minutes} {unit} + {self.increment} s a move)"
            return f"{self.key} ({minutes} {unit})"
        if self.per_move is not None:
            return f"{_duration(self.per_move)} per move"
        return "No limit"

    @property
    def short_label(self) -> str:
        """ "3+2", "3 days", "30 seconds", "No limit": a list's column."""
        if self.initial is not None:
            return self.key
        if self.per_move is not None:
            return f"{_duration(self.per_move)}"
        return "No limit"

    @classmethod
    def parse(cls, text: object) -> TimeControl:
        """A time control from its key; :class:`ValueError` with the reason otherwise."""
        key = str(text if text is not None else "none").strip().lower()
        if key in ("", "none", "unlimited"):
            return cls()
        if match := re.fullmatch(r"(\d{1,3})\s*\+\s*(\d{1,2})", key):
            minutes, increment = int(match[1]), int(match[2])
            if not 1 <= minutes <= MAX_MINUTES:
                raise ValueError(f"a clock has 1 to {MAX_MINUTES} minutes, not {minutes}")
            if not 0 <= increment <= MAX_INCREMENT:
                raise ValueError(f"an increment is 0 to {MAX_INCREMENT} seconds, not {increment}")
            return cls(initial=minutes * 60, increment=increment)
        if match := re.fullmatch(r"(\d{1,2})\s*d", key):
            days = int(match[1])
            if days not in CORRESPONDENCE_DAYS:
                raise ValueError(f"a correspondence game gives {_or(CORRESPONDENCE_DAYS)} days per move, not {days}")
            return cls(per_move=days * DAY)
        if match := re.fullmatch(r"(\d{1,3})\s*s", key):
            seconds = int(match[1])
            if seconds not in LEGACY_PER_MOVE:
                raise ValueError(f"a limit per move in seconds is {_or(LEGACY_PER_MOVE)}, not {seconds}")
            return cls(per_move=seconds)
        raise ValueError(
            f'{text!r} is not a time control: use "none", minutes+seconds such as "3+2", or days such as "3d"'
        )

    @classmethod
    def of(cls, row) -> TimeControl:
        """The time control of a stored game or challenge."""
        if row.clock_initial is not None:
            return cls(initial=row.clock_initial, increment=row.clock_increment or 0)
        return cls(per_move=row.move_time_limit)

    def fields(self) -> dict:
        """The model fields that store it (games and challenges share them)."""
        return {"clock_initial": self.initial, "clock_increment": self.increment, "move_time_limit": self.per_move}


#: The time controls offered in one click, in the order forms show them.
PRESETS = [
    TimeControl(initial=60),
    TimeControl(initial=180, increment=2),
    TimeControl(initial=300, increment=3),
    TimeControl(initial=600, increment=5),
    TimeControl(per_move=DAY),
    TimeControl(per_move=3 * DAY),
    TimeControl(per_move=7 * DAY),
    TimeControl(),
]


def _minutes(seconds: int) -> int:
    return seconds // 60


def _or(values) -> str:
    values = [str(v) for v in values]
    return ", ".join(values[:-1]) + " or " + values[-1]


def _duration(seconds: int) -> str:
    for unit, size in (("day", DAY), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} seconds"


def format_ms(ms: int | None) -> str:
    """A clock's reading: "4:59", "0:07.3" under ten seconds, "1:02:00" over an hour."""
    if ms is None:
        return ""
    ms = max(0, ms)
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def elapsed_ms(since: datetime | None, now: datetime) -> int:
    if since is None:
        return 0
    return max(0, int((now - since) / timedelta(milliseconds=1)))


def charged_ms(since: datetime | None, now: datetime) -> int:
    """The time a move received at ``now`` costs the side whose turn began at ``since``."""
    return max(0, elapsed_ms(since, now) - LAG_ALLOWANCE_MS)


def has_moved(move_count: int, side: str) -> bool:
    """Whether ``side`` has made its first move once ``move_count`` moves are made."""
    return move_count > (0 if side == "X" else 1)


def first_move_window(control: TimeControl) -> timedelta:
    """How long a side has for its first move: :func:`first_move_seconds` on a
    clock (whose time starts with the second move), the limit per move otherwise."""
    return timedelta(seconds=first_move_seconds() if control.kind == "clock" else control.per_move)


def deadline(game, side_to_move: str) -> datetime | None:
    """When ``side_to_move`` runs out of time in ``game``, its turn having begun
    at ``game.turn_started_at``; None when nothing can run out (no time
    control, the AI to move, the game over)."""
    control = TimeControl.of(game)
    if control.kind == "none" or game.turn_started_at is None or side_to_move == game.ai_side:
        return None
    if not has_moved(game.move_count, side_to_move):
        return game.turn_started_at + first_move_window(control)
    if control.kind == "clock":
        left = game.x_clock_ms if side_to_move == "X" else game.o_clock_ms
        return game.turn_started_at + timedelta(milliseconds=(left or 0) + LAG_ALLOWANCE_MS)
    return game.turn_started_at + timedelta(seconds=control.per_move)


def starting_fields(control: TimeControl, now: datetime, ai_side: str = "") -> dict:
    """The stored fields of a new game under ``control``, X to move at ``now``:
    full clocks (none for the AI) and X's first-move deadline."""
    full = control.initial * 1000 if control.initial is not None else None
    fields = {
        **control.fields(),
        "x_clock_ms": None if ai_side == "X" else full,
        "o_clock_ms": None if ai_side == "O" else full,
        "turn_started_at": now,
        "deadline": None,
    }
    if control.kind != "none" and ai_side != "X":
        fields["deadline"] = now + first_move_window(control)
    return fields
