"""Reads on notifications: a player's latest, the unread count, and the turns to mail."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.lobby.models import ChallengeStatus
from games.notifications.models import KEEP_DAYS, Kind, Notification, NotificationSettings
from games.play.models import Status

#: How many notifications the bell's list and the page show.
LATEST = 30


def recent(user) -> QuerySet[Notification]:
    """``user``'s notifications of the last :data:`KEEP_DAYS` days, newest first."""
    since = timezone.now() - timedelta(days=KEEP_DAYS)
    return Notification.objects.filter(user=user, created_at__gte=since).order_by("-created_at", "-id")


def latest(user, limit: int = LATEST) -> QuerySet[Notification]:
    """The page's: the newest :data:`LATEST`, with the challenges they are
    about (to offer accept and decline)."""
    return recent(user).select_related("challenge")[:limit]


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


def can_answer(notification: Notification) -> bool:
    """A challenge or rematch still open: it can be accepted or declined from the notification."""
    return (
        notification.kind in (Kind.CHALLENGE, Kind.REMATCH)
        and notification.challenge is not None
        and notification.challenge.status == ChallengeStatus.OPEN
    )


def told(notification: Notification) -> dict:
    """A notification as the API and the lobby socket give it."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "text": notification.text,
        "url": notification.url,
        "game": notification.game_id,
        "challenge": notification.challenge_id,
        "read": notification.read_at is not None,
        "created_at": notification.created_at.isoformat(),
    }


def turns_to_mail(made_before, made_after) -> QuerySet[Notification]:
    """Unread, unmailed "your turn" notifications made between the two
    moments, whose turn it still is (the game in progress at that ply), for
    players with an e-mail address who have not turned the mails off and
    have not been seen since ``made_before``."""
    return (
        Notification.objects.filter(
            kind=Kind.YOUR_TURN,
            read_at=None,
            mailed_at=None,
            created_at__lte=made_before,
            created_at__gte=made_after,
            game__status=Status.IN_PROGRESS,
            game__move_count=F("ply"),
        )
        .filter(
            Q(user__notification_settings__last_seen_at=None)
            | Q(user__notification_settings__last_seen_at__lte=made_before)
        )
        .exclude(user__email="")
        .exclude(user__notification_settings__mail_turns=False)
        .select_related("user")
        .order_by("created_at")
    )


def settings_of(user) -> NotificationSettings:
    """The player's choices, as stored or as they are until changed."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


def plays_sounds(user) -> bool:
    """Whether the game page plays sounds for ``user`` (off unless they said so; never for a guest)."""
    return user.is_authenticated and NotificationSettings.objects.filter(user=user, sounds=True).exists()
