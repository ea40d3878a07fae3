"""The header's bell (the signed-in player's unread notifications, counted
in one query), and the challenges for you on the home page."""

from django import template
from django.conf import settings

from games.lobby import selectors as lobby_selectors
from games.lobby.models import DeclineReason
from games.notifications import selectors

register = template.Library()


@register.inclusion_tag("notifications/_bell.html", takes_context=True)
def notification_bell(context) -> dict:
    user = context["request"].user
    return {"unread": selectors.unread_count(user), "live": settings.NOTIFICATIONS_SOCKET}


@register.simple_tag(takes_context=True)
def plays_sounds(context) -> bool:
    """Whether the game page plays its sounds for the signed-in player (their choice on the account page)."""
    return selectors.plays_sounds(context["request"].user)


@register.inclusion_tag("games/_challenges_for_you.html", takes_context=True)
def challenges_for_you(context) -> dict:
    """The open challenges sent to the signed-in player, as the lobby shows them (the home page)."""
    user = context["request"].user
    return {
        "challenges_for_you": lobby_selectors.lobby_challenges_sent_to(user) if user.is_authenticated else [],
        "decline_reasons": DeclineReason.choices,
        "csrf_token": context.get("csrf_token"),
    }
