"""Challenges: an offer to play a game between two people, until someone accepts it.

A challenge is open in the lobby, sent to a named player, or an invite link to
share; a rematch offer after a game between people is a challenge sent to the
opponent. Accepting one creates the game (:mod:`games.lobby.services`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.play.clocks import TimeControl
from games.play.models import Game, Variant


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


def time_limit_label(seconds: int | None) -> str:
    """A move time limit as the challenge form offers it: "30 seconds", "1 day"."""
    return dict(MOVE_TIME_LIMITS).get(seconds, f"{seconds} s")


class DeclineReason(models.TextChoices):
    """Why a challenge was declined, from a fixed list a bot can answer with."""

    GENERIC = "generic", "Not accepting challenges now"
    LATER = "later", "Not now, maybe later"
    TOO_FAST = "too_fast", "Too fast a time control"
    TOO_SLOW = "too_slow", "Too slow a time control"
    TIME_CONTROL = "time_control", "Not this time control"
    RATED = "rated", "Rather a rated game"
    CASUAL = "casual", "Rather a casual game"
    VARIANT = "variant", "Not this board"
    NO_BOT = "no_bot", "No games against bots"
    ONLY_BOT = "only_bot", "Only games against bots"


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
    clock_initial = models.PositiveIntegerField("clock (s)", null=True, blank=True)
    clock_increment = models.PositiveIntegerField("increment (s)", default=0)
    takebacks_allowed = models.BooleanField(
        default=False, help_text="The challenger allows takebacks; accepting agrees to them."
    )
    rated = models.BooleanField(
        default=True, help_text="A rated game (it moves both ratings) or a casual one; accepting agrees to it."
    )
    token = models.CharField(max_length=32, unique=True, help_text="The secret in an invite link.")
    status = models.CharField(max_length=9, choices=ChallengeStatus, default=ChallengeStatus.OPEN, db_index=True)
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge")
    rematch_of = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="rematch_offers")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    decline_reason = models.CharField(
        max_length=12, choices=DeclineReason, blank=True, default="", help_text="Why it was declined, if it was."
    )

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
            # One rematch offer waiting per game (games.lobby.services.game_offer_rematch).
            models.UniqueConstraint(
                fields=["rematch_of"], condition=Q(status="open"), name="challenge_one_open_rematch_per_game"
            ),
        ]

    def __str__(self) -> str:
        target = self.opponent.get_username() if self.opponent_id else "anyone"
        return f"{self.challenger.get_username()} challenges {target} ({self.variant})"

    def get_absolute_url(self) -> str:
        return reverse("games:challenge", args=[self.token])

    @property
    def time_control(self) -> TimeControl:
        return TimeControl.of(self)

    @property
    def time_limit_label(self) -> str:
        return self.time_control.label


# -- quick pairing -------------------------------------------------------------------------
# A player asks for a board and a time control and is paired with the next
# person who asked for the same (games.lobby.pairing_services).


class PairingStatus(models.TextChoices):
    WAITING = "waiting", "Waiting"
    MATCHED = "matched", "Matched"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"


class PairingPool(models.Model):
    """Everyone waiting for one board and one time control. Its row is locked
    while anyone in it is matched, so that two players who ask at the same
    moment are paired with each other once, on any database."""

    variant = models.CharField(max_length=3, choices=Variant)
    time_control = models.CharField(max_length=16, help_text='The time control\'s key: "3+2", "1d", "none".')

    class Meta:
        constraints = [models.UniqueConstraint(fields=["variant", "time_control"], name="pairingpool_once")]

    def __str__(self) -> str:
        return f"{self.variant} {self.time_control}"


class PairingRequestQuerySet(models.QuerySet):
    def waiting(self) -> PairingRequestQuerySet:
        return self.filter(status=PairingStatus.WAITING)


class PairingRequest(models.Model):
    """A player asking for a game on one board at one time control, with anyone
    of about their rating, until paired, cancelled or expired."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pairing_requests")
    pool = models.ForeignKey(PairingPool, on_delete=models.PROTECT, related_name="requests")
    variant = models.CharField(max_length=3, choices=Variant, default=Variant.THREE)
    move_time_limit = models.PositiveIntegerField("time per move (s)", null=True, blank=True)
    clock_initial = models.PositiveIntegerField("clock (s)", null=True, blank=True)
    clock_increment = models.PositiveIntegerField("increment (s)", default=0)
    rating = models.IntegerField(help_text="The player's rating when they asked.")
    rated = models.BooleanField(default=True, help_text="A rated game or a casual one: paired only with the same.")
    status = models.CharField(max_length=9, choices=PairingStatus, default=PairingStatus.WAITING, db_index=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="pairing_requests")
    created_at = models.DateTimeField(db_index=True)
    checked_at = models.DateTimeField(help_text="When the waiting player's page last checked in.")
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = PairingRequestQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One waiting request per player: pressing Play again keeps it.
            models.UniqueConstraint(
                fields=["player"], condition=Q(status="waiting"), name="pairingrequest_one_waiting_per_player"
            ),
            models.CheckConstraint(
                condition=Q(status="matched", game__isnull=False) | ~Q(status="matched"),
                name="pairingrequest_matched_has_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.get_username()} asks for {self.variant} {self.time_control.key} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("games:quick_wait", args=[self.pk])

    @property
    def time_control(self) -> TimeControl:
        return TimeControl.of(self)

    def waited_seconds(self, now) -> int:
        """Whole seconds waited by ``now``, or until paired, cancelled or expired."""
        until = self.resolved_at or now
        return max(0, int((until - self.created_at).total_seconds()))
