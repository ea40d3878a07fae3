"""Games and their moves.

The moves are the source of truth: a game's board is what replaying its moves
gives. The game row keeps only what lists and queries need (status, result,
how it ended, how many moves), written by the services in the same
transaction as the move that changed them.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.engine import Board


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
    Level.PERFECT: "plays every position perfectly: the only level that never loses, on any board",
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


#: Statuses of a game that has no result (yet).
UNFINISHED = ["in_progress", "aborted"]


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

    def with_players_and_moves(self) -> GameQuerySet:
        """Everything a list of games shows, in a fixed number of queries."""
        return self.select_related("x_player", "o_player").prefetch_related("moves")


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
    move_time_limit = models.PositiveIntegerField(
        "time per move (s)", null=True, blank=True, help_text="Empty: no limit, the game waits as long as needed."
    )
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player to move got the turn; their time runs from here."
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
    def awaits_ai(self) -> bool:
        """The AI is owed a move: its turn in a game in progress (on 4x4 and 5x5
        it thinks after the person's move is stored; on any board a restart
        between the two writes can leave it owed)."""
        return self.is_in_progress and bool(self.ai_side) and self.board.to_move == self.ai_side

    @property
    def human_side(self) -> str | None:
        """In a game against the AI, the side the person plays."""
        if not self.ai_side:
            return None
        return "O" if self.ai_side == "X" else "X"

    def player(self, side: str):
        return self.x_player if side == "X" else self.o_player

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
        return self.player_name("O" if side == "X" else "X")

    # -- the clock -----------------------------------------------------------------

    @property
    def turn_deadline(self):
        """When the player to move runs out of time, or None without a limit."""
        if not self.move_time_limit or not self.turn_started_at or self.status != Status.IN_PROGRESS:
            return None
        return self.turn_started_at + timedelta(seconds=self.move_time_limit)

    def is_out_of_time(self, now=None) -> bool:
        deadline = self.turn_deadline
        return deadline is not None and (now or timezone.now()) >= deadline

    # -- how it went ---------------------------------------------------------------

    @property
    def is_in_progress(self) -> bool:
        return self.status == Status.IN_PROGRESS

    @property
    def winner(self) -> str | None:
        return {"x_won": "X", "o_won": "O"}.get(self.result)

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
        return "X" if self.ply % 2 == 0 else "O"


class ChallengeKind(models.TextChoices):
    OPEN = "open", "Open to anyone (listed in the lobby)"
    DIRECT = "direct", "Sent to a player"
    LINK = "link", "An invite link to share"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", "Waiting"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"


class ChallengeSide(models.TextChoices):
    X = "X", "X"
    O = "O", "O"  # noqa: E741 - the mark's own name
    RANDOM = "random", "Random"


#: Time limits a challenge may set, in seconds (None: no limit).
MOVE_TIME_LIMITS = [(None, "No limit"), (30, "30 seconds"), (60, "1 minute"), (300, "5 minutes"), (86400, "1 day")]


class ChallengeQuerySet(models.QuerySet):
    def waiting(self) -> ChallengeQuerySet:
        return self.filter(status=ChallengeStatus.OPEN)

    def in_lobby(self) -> ChallengeQuerySet:
        return self.waiting().filter(kind=ChallengeKind.OPEN)


class Challenge(models.Model):
    """An offer to play a game between two people, until someone accepts it."""

    kind = models.CharField(max_length=6, choices=ChallengeKind, default=ChallengeKind.OPEN)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
        help_text="The player a direct challenge is sent to.",
    )
    variant = models.CharField(max_length=3, choices=Variant, default=Variant.THREE)
    challenger_side = models.CharField(max_length=6, choices=ChallengeSide, default=ChallengeSide.RANDOM)
    move_time_limit = models.PositiveIntegerField("time per move (s)", null=True, blank=True)
    token = models.CharField(max_length=32, unique=True, help_text="The secret in an invite link.")
    status = models.CharField(max_length=9, choices=ChallengeStatus, default=ChallengeStatus.OPEN, db_index=True)
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge")
    rematch_of = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="rematch_offers")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = ChallengeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="direct") | Q(opponent__isnull=False), name="challenge_direct_has_opponent"
            ),
            models.CheckConstraint(
                condition=Q(status="accepted", game__isnull=False) | (~Q(status="accepted") & Q(game__isnull=True)),
                name="challenge_game_only_when_accepted",
            ),
        ]

    def __str__(self) -> str:
        target = self.opponent.get_username() if self.opponent_id else "anyone"
        return f"{self.challenger.get_username()} challenges {target} ({self.variant})"

    def get_absolute_url(self) -> str:
        return reverse("games:challenge", args=[self.token])

    @property
    def time_limit_label(self) -> str:
        return dict(MOVE_TIME_LIMITS).get(self.move_time_limit, f"{self.move_time_limit} s")


# --------------------------------------------------------------------------
# Statistics: counters kept in the transaction that ends a game, so the pages
# read a few small rows instead of counting a million games. The recount
# (services.stats_recount) rebuilds every one of them from the games.

#: An opponent as the statistics see it: "human", or the AI's level.
OPPONENT_KINDS = ["human", *Level.values]

INITIAL_RATING = 1200
PROVISIONAL_GAMES = 10


class PlayerStats(models.Model):
    """One player's rating (Elo, from games between people) and streaks."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="stats"
    )
    rating = models.IntegerField(default=INITIAL_RATING)
    rated_games = models.PositiveIntegerField(default=0, help_text="Finished games between people.")
    rated_wins = models.PositiveIntegerField(default=0)
    rated_losses = models.PositiveIntegerField(default=0)
    rated_draws = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0, help_text="Finished games of every kind.")
    current_streak = models.IntegerField(default=0, help_text="Wins in a row (positive) or losses (negative).")
    best_streak = models.PositiveIntegerField(default=0, help_text="The most wins in a row.")
    last_finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "player's statistics"
        verbose_name_plural = "players' statistics"
        indexes = [models.Index(fields=["-rating", "user"], name="playerstats_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} ({self.rating})"

    @property
    def is_provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES


class PlayerRecord(models.Model):
    """A player's won/lost/drawn against one kind of opponent on one variant."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records")
    variant = models.CharField(max_length=3, choices=Variant)
    opponent = models.CharField(max_length=7, help_text='"human" or the AI\'s level.')
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["user", "variant", "opponent"]
        constraints = [
            models.UniqueConstraint(fields=["user", "variant", "opponent"], name="playerrecord_one_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user} vs {self.opponent} on {self.variant}: +{self.wins} ={self.draws} -{self.losses}"


class DailyStats(models.Model):
    """How many games ended on a day, by variant, opponent, result and ending."""

    day = models.DateField()
    variant = models.CharField(max_length=3, choices=Variant)
    opponent = models.CharField(max_length=7)
    ai_side = models.CharField(
        max_length=1, choices=Side, blank=True, help_text="The AI's side (empty between people): its wins and losses."
    )
    result = models.CharField(max_length=5, choices=Result)
    termination = models.CharField(max_length=10, choices=Termination)
    games = models.PositiveIntegerField(default=0)
    moves = models.PositiveBigIntegerField(default=0, help_text="Moves of those games, for average lengths.")

    class Meta:
        verbose_name_plural = "daily statistics"
        ordering = ["day"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "variant", "opponent", "ai_side", "result", "termination"],
                name="dailystats_one_per_kind",
            )
        ]


class FirstMoveStats(models.Model):
    """How games that opened on a cell ended, per variant."""

    variant = models.CharField(max_length=3, choices=Variant)
    cell = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=5, choices=Result)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "first move statistics"
        constraints = [
            models.UniqueConstraint(fields=["variant", "cell", "result"], name="firstmovestats_one_per_kind")
        ]


class RatingChange(models.Model):
    """What one finished game between people did to one player's rating."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # One change per player per game: a game is never rated twice.
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_once_per_game"),
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="ratingchange_history")]

    def __str__(self) -> str:
        return f"{self.user}: {self.before} -> {self.after} (game {self.game_id})"


class HeadToHead(models.Model):
    """A player's record against one other person, kept like the other counters."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="head_to_head")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "head to head"
        constraints = [models.UniqueConstraint(fields=["user", "opponent"], name="headtohead_one_per_pair")]
        indexes = [models.Index(fields=["user", "-games"], name="headtohead_most_played")]

    def __str__(self) -> str:
        return f"{self.user} vs {self.opponent}: +{self.wins} ={self.draws} -{self.losses}"
