"""A notification: one thing a player is told, with where to go about it.

Stored, marked read when the player sees it, and kept for
:data:`KEEP_DAYS` days (the worker deletes older ones). A notification's
words are written when it is made: it tells what happened then, as it was.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.lobby.models import Challenge
from games.play.models import Game

#: How long a notification is kept.
KEEP_DAYS = 30


class Kind(models.TextChoices):
    """What a notification is about; stored values never change."""

    CHALLENGE = "challenge", "A challenge for you"
    REMATCH = "rematch", "A rematch offered"
    YOUR_TURN = "your_turn", "Your turn in a correspondence game"
    DRAW_ACCEPTED = "draw_accepted", "Your draw offer accepted"
    DRAW_DECLINED = "draw_declined", "Your draw offer declined"
    TAKEBACK_ACCEPTED = "takeback_accepted", "Your takeback accepted"
    TAKEBACK_DECLINED = "takeback_declined", "Your takeback declined"
    REPORT_OUTCOME = "report_outcome", "Your report handled"
    SANCTION = "sanction", "A moderator's decision about you"


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.CharField(max_length=200, help_text="What happened, in one sentence.")
    url = models.CharField(max_length=200, help_text="Where to go about it: the game or the challenge.")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    ply = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Your turn: the game's ply then.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(null=True, blank=True, help_text="Your turn: when it was also e-mailed.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]
        constraints = [
            # At most one "your turn" per game and turn, so at most one mail.
            models.UniqueConstraint(
                fields=["user", "game", "ply"], condition=models.Q(kind="your_turn"), name="one_turn_notice_per_ply"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class NotificationSettings(models.Model):
    """A player's choices about being told, and when they were last seen on the site."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="notification_settings"
    )
    mail_turns = models.BooleanField(
        "E-mail me when it is my turn in a correspondence game",
        default=True,
        help_text="Only when you have not been on the site for 10 minutes, and once per move.",
    )
    sounds = models.BooleanField(
        "Play a sound for each move and the end of a game", default=False, help_text="On the game page."
    )
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "notification settings"
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"Notification settings of {self.user_id}"
