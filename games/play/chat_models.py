"""The chat of a game between two people: its messages, and who muted whom.

Only the two players write; anyone who can see the game reads. A player may
mute the opponent for one game: the opponent's messages are then hidden from
them, and the opponent's new ones are refused (games.play.chat_services).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine import other_side
from games.play.models import Game, Side

#: The longest message, in characters, once the whitespace around it is stripped.
MESSAGE_MAX_LENGTH = 200


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    # Kept as the game keeps its players: the side tells who wrote it once an account is deleted.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    side = models.CharField(max_length=1, choices=Side, help_text="The side its author plays in the game.")
    text = models.CharField(max_length=MESSAGE_MAX_LENGTH, help_text="Plain text, shown escaped.")
    created_at = models.DateTimeField("sent", default=timezone.now)

    class Meta:
        verbose_name = "chat message"
        ordering = ["created_at", "id"]
        indexes = [
            # A game's chat in order, and one side's latest messages (the rate limit).
            models.Index(fields=["game", "side", "created_at"], name="chat_message_by_side"),
        ]

    def __str__(self) -> str:
        return f"{self.side} in game {self.game_id}: {self.text[:40]}"

    @property
    def author_name(self) -> str:
        """The name the game shows for its author's side ("Deleted player" once the account is gone)."""
        return self.game.player_name(self.side)


class ChatMute(models.Model):
    """``muted_by`` no longer hears the other side of ``game``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_mutes")
    muted_by = models.CharField(
        "muted by", max_length=1, choices=Side, help_text="The side that muted its opponent's chat."
    )
    created_at = models.DateTimeField("muted", default=timezone.now)

    class Meta:
        verbose_name = "chat mute"
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["game", "muted_by"], name="chat_mute_once_per_side")]

    def __str__(self) -> str:
        return f"{self.muted_by} muted {self.muted_side} in game {self.game_id}"

    @property
    def muted_side(self) -> str:
        return other_side(self.muted_by)


class ChatBan(models.Model):
    """``user`` writes in no chat until ``until``: a moderator's decision
    (games.moderation records who decided it and why)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="chat_ban"
    )
    until = models.DateTimeField(help_text="When the player may write in chats again.")
    reason = models.CharField(max_length=200, help_text="Why, as the player is told.")

    class Meta:
        verbose_name = "chat ban"

    def __str__(self) -> str:
        return f"{self.user_id} muted in chat until {self.until:%Y-%m-%d %H:%M}"
