"""Reads on moderation: why an account may not sign in, a player's own
reports, and the moderators' waiting queue."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import formats, timezone

from games.moderation.models import Report, Sanction, SanctionKind
from games.play.chat_models import ChatMessage

#: The largest id the database stores.
MAX_ID = 2**63 - 1


def when(moment) -> str:
    """A moment as the site writes it to a player: "30 Nov 2026, 14:00 UTC"."""
    return formats.date_format(timezone.localtime(moment), "j M Y, H:i T")


def message_to_report(pk: int) -> ChatMessage | None:
    """The chat message ``pk``, with its author and game; None when there is
    none (an id no row can have included)."""
    if not 0 < pk <= MAX_ID:
        return None
    return ChatMessage.objects.select_related("author", "game").filter(pk=pk).first()


def player_to_report(username: str):
    """The account called ``username``, closed or not; None when there is none
    (a name no account can have, such as one with a NUL, included)."""
    if not username or "\x00" in username:
        return None
    return get_user_model().objects.filter(username=username).first()


def standing_sanction(user, now=None) -> Sanction | None:
    """What keeps ``user`` from signing in: their closing, else the suspension
    that ends last, if one is in force; None otherwise."""
    now = now or timezone.now()
    keeping = (
        Sanction.objects.filter(player=user, lifted_at=None, kind__in=[SanctionKind.SUSPEND, SanctionKind.CLOSE])
        .filter(Q(ends_at=None) | Q(ends_at__gt=now))
        .order_by("kind", "-ends_at")  # "close" sorts before "suspend": a closing first
    )
    return keeping.first()


def ended_suspensions(now=None, user=None) -> QuerySet[Sanction]:
    """Suspensions past their end whose end has not been applied yet."""
    found = Sanction.objects.filter(
        kind=SanctionKind.SUSPEND, lifted_at=None, ends_at__lte=now or timezone.now()
    ).select_related("player")
    return found.filter(player=user) if user is not None else found


def reports_of(user, limit: int = 20) -> QuerySet[Report]:
    """The reports ``user`` made, newest first, with whom they were about."""
    return Report.objects.filter(reporter=user).select_related("player")[:limit]


def decisions_about(user, limit: int = 10) -> QuerySet[Sanction]:
    """The moderators' decisions about ``user``, newest first."""
    return Sanction.objects.filter(player=user)[:limit]


def waiting_count() -> int:
    return Report.objects.waiting().count()
