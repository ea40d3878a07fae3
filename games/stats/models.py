"""Statistics: counters kept in the transaction that ends a game, so the pages
read a few small rows instead of counting a million games. The recount
(:func:`games.stats.counters.recount`) rebuilds every one of them from the games.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.play.models import Game, Level, Result, Side, Termination, Variant

#: An opponent as the statistics see it: "human", or the AI's level.
OPPONENT_KINDS = ["human", *Level.values]

#: The site-wide counters (DailyStats, FirstMoveStats) each keep a kind's
#: count in this many rows, a game counted in the row of its id modulo this
#: (``counter_shard``), and every reader sums them. Every game that ends
#: updates one of these rows, in the transaction that ends it, and the row
#: stays locked until that transaction commits: with one row a kind, games
#: ending at once would queue for it. The recount shares games out the same
#: way.
COUNTER_SHARDS = 16

INITIAL_RATING = 1200
PROVISIONAL_GAMES = 10


class PlayerStats(models.Model):
    """One player's counts of games and streaks, over every board (each board's
    rating is a BoardRating: one Elo across boards would mean nothing)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="stats"
    )
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

    def __str__(self) -> str:
        return f"{self.user}: {self.games} games"


class BoardRating(models.Model):
    """One player's rating on one board: Elo, from rated games between people on it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_ratings")
    variant = models.CharField(max_length=3, choices=Variant.choices)
    rating = models.IntegerField(default=INITIAL_RATING)
    rated_games = models.PositiveIntegerField(default=0, help_text="Rated games on this board.")
    rated_wins = models.PositiveIntegerField(default=0)
    rated_draws = models.PositiveIntegerField(default=0)
    rated_losses = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "rating on a board"
        constraints = [models.UniqueConstraint(fields=["user", "variant"], name="boardrating_one_per_board")]
        indexes = [models.Index(fields=["variant", "-rating", "user"], name="boardrating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} on {self.variant}: {self.rating}"

    @property
    def is_provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES


class PlayerRecord(models.Model):
    """A player's won/drawn/lost against one kind of opponent on one variant."""

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
    shard = models.PositiveSmallIntegerField(
        default=0, help_text="Which of the kind's rows (COUNTER_SHARDS): its games are the sum of them."
    )

    class Meta:
        verbose_name_plural = "daily statistics"
        ordering = ["day"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "variant", "opponent", "ai_side", "result", "termination", "shard"],
                name="dailystats_one_per_kind_and_shard",
            )
        ]


class FirstMoveStats(models.Model):
    """How games that opened on a cell ended, per variant."""

    variant = models.CharField(max_length=3, choices=Variant)
    cell = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=5, choices=Result)
    games = models.PositiveIntegerField(default=0)
    shard = models.PositiveSmallIntegerField(
        default=0, help_text="Which of the kind's rows (COUNTER_SHARDS): its games are the sum of them."
    )

    class Meta:
        verbose_name_plural = "first move statistics"
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "cell", "result", "shard"], name="firstmovestats_one_per_kind_and_shard"
            )
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


def counter_shard(game_id: int) -> int:
    """The row of its kind a game is counted in, in the site-wide counters."""
    return game_id % COUNTER_SHARDS
