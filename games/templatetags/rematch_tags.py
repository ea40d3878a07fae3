"""The rematch offered after a game between people, for the game panel: the
offer is the lobby's (a challenge sent to the opponent), the panel is play's."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from games.lobby import selectors
from games.lobby.models import Challenge, ChallengeStatus

register = template.Library()


@dataclass(frozen=True)
class RematchOffer:
    offer: Challenge | None
    by_you: bool  # open, made by the viewer: theirs to withdraw
    for_you: bool  # open, made by the viewer's opponent: theirs to accept or decline


@register.simple_tag(takes_context=True)
def rematch_offer(context, game, side) -> RematchOffer:
    """The latest rematch offered after ``game`` (a finished game between
    people), whatever became of it, as the viewer (playing ``side``, or
    watching) sees it."""
    offer = selectors.rematch_offer(game)
    waiting = bool(side) and offer is not None and offer.status == ChallengeStatus.OPEN
    yours = waiting and offer.challenger_id == context["user"].pk
    return RematchOffer(offer=offer, by_you=yours, for_you=waiting and not yours)
