"""Games and their moves.

The moves are the source of truth: a game's board is what replaying its moves
gives. The game row keeps only what lists and queries need (status, result,
how it ended, how many moves), written by the services in the same
transaction as the move that changed them.
"""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.engine import Board, other_side, side_to_move
from games.play import clocks
from games.play.clocks import TimeControl


class Variant(models.TextChoices):
    THREE = "3x3", "3×3, three in a row"
    FOUR = "4x4", "4×4, four in a row"
    FIVE = "5x5", "5×5, four in a row"

    @property
    def size(self) -> int:
        return int(self.value[0])


class Level(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"
    PERFECT = "perfect", "Perfect"


#: What each level does, as the new-game form, the API and the terminal say it.
#: Only Perfect never loses (``engine.UNBEATABLE_LEVEL``); the others are
#: weaker on purpose.
LEVEL_DESCRIPTIONS = {
    Level.EASY: "plays at random",
    Level.MEDIUM: "takes a win in one move and blocks a loss in one, otherwise plays at random",
    Level.HARD: "plays the perfect move about 7 times in 10, otherwise like Medium",
    Level.PERFECT: "plays every position perfectly, choosing at random among equally good moves rather than "
    "the one that sets you the most traps: the only level that never loses, on any board",
}


def levels_described() -> str:
    """Every level and what it does, in one paragraph: "Easy plays at random. ..."."""
    return " ".join(f"{level.label} {LEVEL_DESCRIPTIONS[level]}." for level in Level)


class Side(models.TextChoices):
    X = "X", "X"
    O = "O", "O"  # noqa: E741 - the mark's own name


class StartMode(models.TextChoices):
    """How the AI opens when it moves first (the classroom seeds' start modes)."""

    CENTRE = "centre", "Centre"
    RANDOM = "random", "Random cell"
    MINIMAX = "minimax", "Minimax"


class Status(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class Result(models.TextChoices):
    X_WON = "x_won", "X won"
    O_WON = "o_won", "O won"
    DRAW = "draw", "Draw"


class Termination(models.TextChoices):
    LINE = "line", "Line"
    FULL_BOARD = "full_board", "Full board"
    RESIGNED = "resigned", "Resignation"
    TIMEOUT = "timeout", "Timeout"
    AGREED = "agreed", "Agreed draw"


#: Statuses of a game that has no result (yet).
UNFINISHED = ["in_progress", "aborted"]

#: What is said where the engine's help was asked for and
#: ``Game.engine_help_allowed`` says no.
ENGINE_HELP_OFF = "Hints and the engine's view are off while a game between people is in progress"


class GameQuerySet(models.QuerySet):
    def of_player(self, user) -> GameQuerySet:
        return self.filter(Q(x_player=user) | Q(o_player=user))

    def of_guest(self, guest_key: str) -> GameQuerySet:
        return self.filter(guest_key=guest_key) if guest_key else self.none()

    def in_progress(self) -> GameQuerySet:
        return self.filter(status=Status.IN_PROGRESS)

    def against_ai(self) -> GameQuerySet:
        return self.exclude(ai_side="")

    def against_humans(self) -> GameQuerySet:
        return self.filter(ai_side="")

    def with_players(self) -> GameQuerySet:
        """The players, and whether each is a bot (their BOT badge), in the same query."""
        return self.select_related(*PLAYERS_AND_BOTS)

    def with_players_and_moves(self) -> GameQuerySet:
        """Everything a list of games shows, in a fixed number of queries."""
        return self.with_players().prefetch_related("moves")


#: What ``select_related`` takes for a game's players and their BOT badges.
PLAYERS_AND_BOTS = ("x_player", "o_player", "x_player__bot", "o_player__bot")


class Bot(models.Model):
    """An account a program plays, marked BOT wherever its name shows.

    An account becomes a bot before its first game, for good
    (:func:`games.accounts.services.account_become_bot`). A bot plays through
    the API and the socket like anyone, has a leaderboard of its own, and its
    games against people are always casual, so bots never move people's ratings."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot"
    )
    accepts_people = models.BooleanField(
        default=True, help_text="People may challenge it; when off, only other bots may."
    )
    created_at = models.DateTimeField("a bot since", default=timezone.now, editable=False)

    class Meta:
        ordering = ["user"]

    def __str__(self) -> str:
        return f"{self.user} (bot)"


def is_bot(user) -> bool:
    """Whether ``user`` is a bot. Free when the user was read with its ``bot``
    (``select_related``); one query otherwise. False for no one (the AI, a guest)."""
    return user is not None and getattr(user, "is_authenticated", False) and hasattr(user, "bot")


class Game(models.Model):
    variant = models.CharField(max_length=3, choices=Variant, default=Variant.THREE)
    x_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_as_x",
        verbose_name="X player",
    )
    o_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_as_o",
        verbose_name="O player",
    )
    ai_side = models.CharField(
        "AI plays", max_length=1, choices=Side, blank=True, help_text="Empty for a game between two people."
    )
    ai_level = models.CharField("AI level", max_length=7, choices=Level, blank=True)
    start_mode = models.CharField("AI opening", max_length=7, choices=StartMode, blank=True)
    # A visitor who has not signed up plays as a guest; the key lives in their
    # session, and signing up hands the game to the new account.
    guest_key = models.CharField(max_length=32, blank=True, db_index=True)
    seed = models.BigIntegerField(default=0, help_text="Makes the AI's choices among equal moves repeatable.")
    status = models.CharField(max_length=11, choices=Status, default=Status.IN_PROGRESS, db_index=True)
    result = models.CharField(max_length=5, choices=Result, blank=True)
    termination = models.CharField(max_length=10, choices=Termination, blank=True)
    move_count = models.PositiveSmallIntegerField("moves", default=0)
    rematch_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches")
    # The time control (games.play.clocks.TimeControl): a clock (total and
    # increment), a limit per move (correspondence), or neither.
    move_time_limit = models.PositiveIntegerField(
        "time per move (s)", null=True, blank=True, help_text="Empty: no limit, the game waits as long as needed."
    )
    clock_initial = models.PositiveIntegerField(
        "clock (s)", null=True, blank=True, help_text="Each side's total time; empty for a game without a clock."
    )
    clock_increment = models.PositiveIntegerField(
        "increment (s)", default=0, db_default=0, help_text="Added to a side's clock after each of its moves."
    )
    x_clock_ms = models.BigIntegerField(
        "X's time left (ms)", null=True, blank=True, help_text="As of when X's turn started, if it is X's turn."
    )
    o_clock_ms = models.BigIntegerField(
        "O's time left (ms)", null=True, blank=True, help_text="As of when O's turn started, if it is O's turn."
    )
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player to move got the turn; their time runs from here."
    )
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="When the player to move runs out of time: the clock worker ends the game then.",
    )
    # Offers between the players, by the side that made them (empty: none).
    draw_offer = models.CharField(
        max_length=1,
        choices=Side,
        blank=True,
        db_default="",
        help_text="The side offering a draw; lapses when it moves.",
    )
    takeback_offer = models.CharField(
        max_length=1, choices=Side, blank=True, db_default="", help_text="The side asking to take its last move back."
    )
    takebacks_allowed = models.BooleanField(
        default=False, db_default=False, help_text="Both players agreed to takebacks before a rated game began."
    )
    rated = models.BooleanField(
        default=True,
        db_default=True,
        help_text="Its result moves the players' ratings: games between people (or between bots) that "
        "they chose to rate; never against the AI, nor between a bot and a person.",
    )
    created_at = models.DateTimeField("started", auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField("finished", null=True, blank=True)
    stats_counted = models.BooleanField(
        default=False, editable=False, help_text="Its result is in the statistics and ratings (once)."
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["x_player", "-created_at"], name="game_x_player_recent"),
            models.Index(fields=["o_player", "-created_at"], name="game_o_player_recent"),
            # A player's unfinished games, counted without reading the finished
            # ones. Partial, so a query for all of a player's games, newest
            # first, never takes them over the indexes above. (SQLite uses a
            # partial index only for literal values, not Django's parameters.)
            models.Index(
                fields=["x_player", "status"], name="game_x_player_unfinished", condition=Q(status__in=UNFINISHED)
            ),
            models.Index(
                fields=["o_player", "status"], name="game_o_player_unfinished", condition=Q(status__in=UNFINISHED)
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="finished", result__in=["x_won", "o_won", "draw"])
                | (~Q(status="finished") & Q(result="")),
                name="game_result_only_when_finished",
            ),
            models.CheckConstraint(
                condition=Q(ai_side="", ai_level="") | (Q(ai_side__in=["X", "O"]) & ~Q(ai_level="")),
                name="game_ai_side_has_level",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.player_name('X')} vs {self.player_name('O')} ({self.variant})"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.pk])

    def refresh_from_db(self, *args, **kwargs):
        """Reloaded, the position is read afresh too: the cached cells and
        board would otherwise still show the moves as they were."""
        for name in ("cells", "board"):
            self.__dict__.pop(name, None)
        super().refresh_from_db(*args, **kwargs)

    # -- the position, derived from the moves ----------------------------------

    @property
    def size(self) -> int:
        return Variant(self.variant).size

    @cached_property
    def cells(self) -> list[int]:
        """The cells played, in order (uses prefetched moves when there are some)."""
        return [move.cell for move in sorted(self.moves.all(), key=lambda m: m.ply)]

    def board_at(self, ply: int | None = None) -> Board:
        """The position after ``ply`` moves (all of them by default)."""
        cells = self.cells if ply is None else self.cells[:ply]
        return Board.from_moves(cells, size=self.size)

    @cached_property
    def board(self) -> Board:
        return self.board_at()

    # -- who plays ---------------------------------------------------------------

    @property
    def is_against_ai(self) -> bool:
        return bool(self.ai_side)

    @property
    def engine_help_allowed(self) -> bool:
        """Whether the engine may help with this game now: a hint, its thinking,
        a link to the analysis board. Always against the AI; between people
        only once the game is over, or one player could play the engine's moves."""
        return bool(self.ai_side) or not self.is_in_progress

    @property
    def awaits_ai(self) -> bool:
        """The AI is owed a move: its turn in a game in progress. The move
        service makes its reply before it returns, so this is seen only while
        it thinks (4x4 and 5x5) or after a server stopped meanwhile
        (``manage.py play_owed_moves``, or the page's "Let the AI move")."""
        return self.is_in_progress and bool(self.ai_side) and self.board.to_move == self.ai_side

    @property
    def human_side(self) -> str | None:
        """In a game against the AI, the side the person plays."""
        if not self.ai_side:
            return None
        return other_side(self.ai_side)

    def player(self, side: str):
        return self.x_player if side == "X" else self.o_player

    def player_is_bot(self, side: str) -> bool:
        """Whether ``side`` is played by a bot account (free with ``with_players``)."""
        return self.ai_side != side and is_bot(self.player(side))

    @property
    def rated_label(self) -> str:
        """ "Rated" or "Casual", as pages and the API say it."""
        return "Rated" if self.rated else "Casual"

    def player_kind(self, side: str) -> str:
        """Who plays ``side``: "ai", "human" (an account), "guest", or "deleted"
        (an account deleted since: its side of the game is kept, without it)."""
        if self.ai_side == side:
            return "ai"
        if self.player(side) is not None:
            return "human"
        if self.guest_key:
            return "guest"
        return "deleted"

    def player_name(self, side: str) -> str:
        """The name every page, the admin, the API and the exports show for ``side``."""
        kind = self.player_kind(side)
        if kind == "ai":
            return f"AI ({self.get_ai_level_display().lower()})"
        if kind == "human":
            return self.player(side).get_username()
        if kind == "guest":
            return "Guest"
        return "Deleted player" if self.pk else "Nobody"

    def side_of(self, user=None, guest_key: str = "") -> str | None:
        """The side that a signed-in user or a guest plays in this game, or None."""
        if user is not None and user.is_authenticated:
            if self.x_player_id == user.pk:
                return "X"
            if self.o_player_id == user.pk:
                return "O"
            return None
        if guest_key and self.guest_key == guest_key:
            return self.human_side
        return None

    def opponent_name(self, side: str) -> str:
        return self.player_name(other_side(side))

    # -- the clock -----------------------------------------------------------------

    @property
    def time_control(self) -> TimeControl:
        return TimeControl.of(self)

    @property
    def has_clock(self) -> bool:
        return self.clock_initial is not None

    def clock_ms(self, side: str, now=None) -> int | None:
        """``side``'s time left at ``now``, as the server counts it (None without a clock)."""
        stored = self.x_clock_ms if side == "X" else self.o_clock_ms
        if stored is None or self.clock_running_for != side:
            return stored
        return max(0, stored - clocks.elapsed_ms(self.turn_started_at, now or timezone.now()))

    @property
    def clock_running_for(self) -> str | None:
        """The side whose clock is running: the side to move once it has made its
        first move, in a game in progress with a clock; the AI has no clock."""
        if not self.has_clock or not self.is_in_progress:
            return None
        side = side_to_move(self.move_count)
        if side == self.ai_side or not clocks.has_moved(self.move_count, side):
            return None
        return side

    def clock_state(self, now=None) -> dict | None:
        """What the game page, the API and the terminal show of the time, read
        at ``now``; None for a game without a time control.

        ``x_ms``/``o_ms``: each side's time left (None without a clock, and for
        the AI); ``running``: the side whose clock runs; ``deadline``: when the
        side to move runs out of time; ``first_move``: whether that deadline
        is for a first move (missing it aborts the game)."""
        control = self.time_control
        if control.kind == "none":
            return None
        now = now or timezone.now()
        to_move = side_to_move(self.move_count) if self.is_in_progress else None
        return {
            "time_control": control,
            "x_ms": self.clock_ms("X", now),
            "o_ms": self.clock_ms("O", now),
            "running": self.clock_running_for,
            "to_move": to_move,
            "deadline": self.deadline if self.is_in_progress else None,
            "first_move": bool(to_move)
            and self.deadline is not None
            and not clocks.has_moved(self.move_count, to_move),
            "out_of_time": self.is_out_of_time(now),
        }

    def is_out_of_time(self, now=None) -> bool:
        return self.is_in_progress and self.deadline is not None and (now or timezone.now()) >= self.deadline

    # -- how it went ---------------------------------------------------------------

    @property
    def is_in_progress(self) -> bool:
        return self.status == Status.IN_PROGRESS

    @property
    def winner(self) -> str | None:
        return {"x_won": "X", "o_won": "O"}.get(self.result)

    @property
    def ending(self) -> str:
        """How the game ended, in a few words: "three in a row" ("four in a
        row" on 4x4 and 5x5), "board full", "resigned", "on time", "agreed draw",
        "aborted";
        empty while it is in progress."""
        if self.status == Status.ABORTED:
            return "aborted"
        if self.status != Status.FINISHED:
            return ""
        if self.termination == Termination.LINE:
            return f"{'three' if self.size == 3 else 'four'} in a row"
        return {
            Termination.FULL_BOARD: "board full",
            Termination.RESIGNED: "resigned",
            Termination.TIMEOUT: "on time",
            Termination.AGREED: "agreed draw",
        }[self.termination]

    def outcome_for(self, side: str | None) -> str | None:
        """ "won", "lost" or "drawn" from one side's point of view, None while unfinished."""
        if side is None or self.status != Status.FINISHED:
            return None
        if self.result == Result.DRAW:
            return "drawn"
        return "won" if self.winner == side else "lost"


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveSmallIntegerField(help_text="0 for the first move of the game.")
    cell = models.PositiveSmallIntegerField(help_text="0 is the top left cell, row by row.")
    created_at = models.DateTimeField("played", auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            # One move per ply and one per cell: a second move racing for the same
            # ply, or a cell played twice, cannot be stored whatever the code does.
            models.UniqueConstraint(fields=["game", "ply"], name="move_one_per_ply"),
            models.UniqueConstraint(fields=["game", "cell"], name="move_one_per_cell"),
        ]

    def __str__(self) -> str:
        return f"{self.mark} on {self.cell} (ply {self.ply})"

    @property
    def mark(self) -> str:
        return side_to_move(self.ply)


class TakenBack(models.Model):
    """Moves a game took back: they leave the game's moves, and are kept here,
    with whose they were, so the record says what happened."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takebacks")
    ply = models.PositiveSmallIntegerField(help_text="The ply of the first move taken back.")
    cells = models.JSONField(help_text="The cells taken back, in the order they were played.")
    side = models.CharField(
        max_length=1, choices=Side.choices, help_text="The side that took its move back (and moves again)."
    )
    agreed_by = models.CharField(
        max_length=1, choices=Side.choices, blank=True, help_text="The side that agreed; blank against the AI."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "id"]
        verbose_name = "takeback"

    def __str__(self) -> str:
        return f"{self.side} took back {len(self.cells)} move(s) from ply {self.ply}"
