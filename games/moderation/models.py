"""Reports and sanctions.

A player reports another player, or one of their chat messages, with a reason
from :class:`Reason` and a note. The reports wait in the admin's queue until a
moderator handles them: dismissed, or answered with a :class:`Sanction` on the
reported player. A sanction keeps who decided it, when and why; what it does
is kept where it acts: a chat mute as the player's ``ChatBan`` (play's chat
refuses them), a suspension or closing as the account's ``is_active`` (so
sessions, API tokens and sockets stop at once, as Django's auth does).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.play.chat_models import ChatMessage

#: The longest note a report carries.
NOTE_MAX_LENGTH = 500


class Reason(models.TextChoices):
    """Why a player is reported; stored values never change."""

    ABUSE = "abuse", "Insults or harassment"
    SPAM = "spam", "Spam or advertising"
    CHEATING = "cheating", "Playing with engine help"
    STALLING = "stalling", "Stalling or leaving games to run out"
    NAME = "name", "An offensive username"
    OTHER = "other", "Something else"


class Decision(models.TextChoices):
    """What a moderator decided: nothing, or a sanction of that kind."""

    DISMISS = "dismiss", "Dismissed"
    WARN = "warn", "Warned"
    MUTE = "mute", "Muted in chat"
    SUSPEND = "suspend", "Suspended"
    CLOSE = "close", "Account closed"


#: What became of a report, as its reporter reads it after the player's name.
OUTCOMES = {
    Decision.WARN: "was warned",
    Decision.MUTE: "was muted in chat",
    Decision.SUSPEND: "was suspended",
    Decision.CLOSE: "has had their account closed",
}


class SanctionKind(models.TextChoices):
    WARN = "warn", "Warning"
    MUTE = "mute", "Chat mute"
    SUSPEND = "suspend", "Suspension"
    CLOSE = "close", "Closing"


class ReportQuerySet(models.QuerySet):
    def waiting(self):
        return self.filter(handled_at=None)


class Report(models.Model):
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_about",
        help_text="The player reported (a message's author).",
    )
    message = models.ForeignKey(
        ChatMessage,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        help_text="The chat message reported, if it is one.",
    )
    message_text = models.CharField(
        "message", max_length=200, blank=True, help_text="The message's words when reported, kept if it goes."
    )
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=NOTE_MAX_LENGTH, blank=True, help_text="The reporter's own words.")
    created_at = models.DateTimeField("reported", default=timezone.now, db_index=True)
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports_handled"
    )
    handled_at = models.DateTimeField("handled", null=True, blank=True)
    sanction = models.ForeignKey("Sanction", on_delete=models.SET_NULL, null=True, blank=True, related_name="reports")

    objects = ReportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("handle_report", "Can handle reports: dismiss them or sanction the player")]
        indexes = [models.Index(fields=["handled_at", "created_at"], name="report_queue")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(handled_at=None, decision="")
                | (~models.Q(handled_at=None) & ~models.Q(decision="")),
                name="report_handled_with_a_decision",
            ),
            # One waiting report per reporter and message (or player, for a report of a player).
            models.UniqueConstraint(
                fields=["reporter", "message"],
                condition=models.Q(handled_at=None),
                name="one_waiting_report_per_message",
            ),
            models.UniqueConstraint(
                fields=["reporter", "player"],
                condition=models.Q(handled_at=None, message=None),
                name="one_waiting_report_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} reported by {self.reporter}: {self.get_reason_display().lower()}"

    @property
    def is_waiting(self) -> bool:
        return self.handled_at is None

    @property
    def decided(self) -> str | None:
        """The decision, or None while it waits."""
        return self.decision or None

    @property
    def outcome(self) -> str:
        """What became of it: "Waiting for a moderator", "No action taken", "bob was warned"."""
        if self.is_waiting:
            return "Waiting for a moderator"
        if self.decision == Decision.DISMISS:
            return "No action taken"
        return f"{self.player.get_username()} {OUTCOMES[self.decision]}"


class Sanction(models.Model):
    """A moderator's decision about a player: who, when, why, and until when."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=10, choices=SanctionKind.choices)
    reason = models.CharField(max_length=200, help_text="Why, as the player is told.")
    ends_at = models.DateTimeField("ends", null=True, blank=True, help_text="A mute's or suspension's end.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="sanctions_given"
    )
    created_at = models.DateTimeField("decided", default=timezone.now)
    lifted_at = models.DateTimeField(
        "lifted", null=True, blank=True, help_text="When a moderator ended it early, or a suspension's end was applied."
    )
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sanctions_lifted",
        help_text="The moderator who ended it early.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["kind", "lifted_at", "ends_at"], name="sanction_standing")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["mute", "suspend"], ends_at__isnull=False)
                | models.Q(kind__in=["warn", "close"], ends_at=None),
                name="sanction_ends_when_timed",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.player}"

    def in_force(self, now=None) -> bool:
        """Whether it still acts: not lifted, and not past its end."""
        now = now or timezone.now()
        return (
            self.kind != SanctionKind.WARN and self.lifted_at is None and (self.ends_at is None or self.ends_at > now)
        )
