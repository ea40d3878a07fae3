"""Writes on notifications: telling a player, marking what they saw as read,
mailing turns in correspondence games, and forgetting old notifications.

Each notification is pushed, as it is made, to the player's lobby socket
(``notification`` events, which the header's bell and bots hear).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.errors import InvalidInput
from games.notifications import selectors
from games.notifications.models import KEEP_DAYS, Kind, Notification, NotificationSettings
from games.play import live

logger = logging.getLogger(__name__)

#: A player is mailed about their turn only when not seen on the site for this long.
AWAY = timedelta(minutes=10)
#: What signs an unsubscribe link, so that it works without signing in.
UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"


def notify(*, user, kind: str, text: str, url: str, game=None, challenge=None, ply=None) -> Notification | None:
    """Tell ``user``: a stored notification, pushed to their sockets once the
    transaction commits. Nobody to tell (no account, a closed one): None."""
    if user is None or not user.is_active:
        return None
    notification = Notification.objects.create(
        user=user, kind=kind, text=text[:200], url=url, game=game, challenge=challenge, ply=ply
    )
    live.publish_user(
        user.pk, "notification", notification=selectors.told(notification), unread=selectors.unread_count(user)
    )
    return notification


def notify_turn(*, user, game, text: str) -> Notification | None:
    """Your turn in a correspondence game: one notification per game and turn."""
    if user is None or not user.is_active:
        return None
    if Notification.objects.filter(user=user, game=game, ply=game.move_count, kind=Kind.YOUR_TURN).exists():
        return None
    return notify(
        user=user, kind=Kind.YOUR_TURN, text=text, url=game.get_absolute_url(), game=game, ply=game.move_count
    )


def notifications_read(*, user, ids: list[int] | None = None, game=None) -> int:
    """Mark ``user``'s unread notifications read: all of them, those in
    ``ids``, or those about ``game``; how many. The bell hears the new count."""
    unread = Notification.objects.filter(user=user, read_at=None)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    if game is not None:
        unread = unread.filter(game=game)
    marked = unread.update(read_at=timezone.now())
    if marked:
        live.publish_user(user.pk, "notifications_read", unread=selectors.unread_count(user))
    return marked


def notifications_forget(*, now=None) -> int:
    """Delete the notifications older than :data:`KEEP_DAYS` days; how many."""
    before = (now or timezone.now()) - timedelta(days=KEEP_DAYS)
    deleted, _ = Notification.objects.filter(created_at__lt=before).delete()
    return deleted


def player_seen(*, user, now=None) -> None:
    """``user`` is on the site at ``now`` (a page of theirs opened or closed
    its notifications socket)."""
    now = now or timezone.now()
    if not NotificationSettings.objects.filter(user=user).update(last_seen_at=now):
        NotificationSettings.objects.get_or_create(user=user, defaults={"last_seen_at": now})


def notification_settings_set(*, user, mail_turns: bool | None = None, sounds: bool | None = None):
    """Change the player's choices given (None leaves one as it is)."""
    preferences, _ = NotificationSettings.objects.get_or_create(user=user)
    changed = {
        name: bool(value) for name, value in (("mail_turns", mail_turns), ("sounds", sounds)) if value is not None
    }
    for name, value in changed.items():
        setattr(preferences, name, value)
    preferences.save(update_fields=list(changed))
    return preferences


def unsubscribe_token(user) -> str:
    """The part of an unsubscribe link that names ``user``, signed."""
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(*, token: str):
    """Turn off the turn mails of the account an unsubscribe link names; the user."""
    from django.contrib.auth import get_user_model

    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user = get_user_model().objects.get(pk=user_id)
    except (signing.BadSignature, get_user_model().DoesNotExist):
        raise InvalidInput("This unsubscribe link is not valid: it may have been cut short.") from None
    notification_settings_set(user=user, mail_turns=False)
    return user


def turn_mails_send(*, now=None) -> int:
    """Mail each player whose turn it has been for :data:`AWAY` in a
    correspondence game and who has not been on the site since: once per game
    and turn, never again for the same turn (even with several workers), and
    only while it is still their turn. How many were sent."""
    now = now or timezone.now()
    sent = 0
    for notification in selectors.turns_to_mail(now - AWAY, now - timedelta(days=1)):
        with transaction.atomic():
            # Claimed first: a second worker finds it mailed and leaves it.
            if not Notification.objects.filter(pk=notification.pk, mailed_at=None).update(mailed_at=now):
                continue
        _mail_turn(notification)
        sent += 1
    return sent


def _mail_turn(notification: Notification) -> None:
    user = notification.user
    site = settings.SITE_URL.rstrip("/")
    unsubscribe_url = site + reverse("games:unsubscribe", args=[unsubscribe_token(user)])
    body = (
        f"Hello {user.get_username()},\n\n"
        f"{notification.text}\n\n"
        f"Play your move: {site}{notification.url}\n\n"
        "You get this mail because it is your turn in a correspondence game and you have not been on "
        "the site for a while. One mail per move at most.\n"
        f"No more of these mails: {unsubscribe_url}\n"
    )
    message = EmailMessage(
        subject=f"{notification.text} (tttsite)",
        body=body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>"},
    )
    try:
        message.send()
    except OSError:
        logger.exception("could not mail notification %s", notification.pk)
