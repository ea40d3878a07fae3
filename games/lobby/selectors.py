"""Reads for games between people: the lobby's lists, invite links, rematch offers."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.lobby.models import Challenge, ChallengeKind, ChallengeStatus, PairingRequest
from games.play.models import Game

LOBBY_LIMIT = 50


def lobby_open_challenges(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """Challenges anyone may accept, from players other than ``user``, newest first."""
    return list(Challenge.objects.in_lobby().exclude(challenger=user).select_related("challenger__bot")[:limit])


def lobby_challenges_sent_by(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """``user``'s own challenges nobody has accepted yet, of every kind."""
    return list(Challenge.objects.waiting().filter(challenger=user).select_related("opponent__bot")[:limit])


#: How long a declined challenge stays on its challenger's lobby page.
DECLINED_SHOWN_FOR = timedelta(days=1)


def lobby_challenges_declined_lately(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """``user``'s challenges declined within :data:`DECLINED_SHOWN_FOR`, with why, newest first."""
    since = timezone.now() - DECLINED_SHOWN_FOR
    declined = Challenge.objects.filter(challenger=user, status=ChallengeStatus.DECLINED, resolved_at__gte=since)
    return list(
        declined.exclude(rematch_of__isnull=False).select_related("opponent__bot").order_by("-resolved_at")[:limit]
    )


def lobby_challenges_sent_to(user, limit: int = LOBBY_LIMIT) -> list[Challenge]:
    """Challenges (and rematch offers) sent to ``user`` by name, still waiting."""
    return list(
        Challenge.objects.waiting()
        .filter(kind=ChallengeKind.DIRECT, opponent=user)
        .select_related("challenger__bot")[:limit]
    )


def live_games_between_people(limit: int = LOBBY_LIMIT) -> list[Game]:
    """Games between people in progress, newest first, for anyone to watch."""
    return list(Game.objects.against_humans().in_progress().with_players_and_moves()[:limit])


def challenge_by_token(token: str) -> Challenge:
    """The challenge behind an invite link; raises Challenge.DoesNotExist."""
    return Challenge.objects.select_related("challenger__bot", "opponent__bot", "game").get(token=token)


def rematch_offer(game: Game) -> Challenge | None:
    """The latest rematch offered after ``game``, whatever became of it, or None."""
    return game.rematch_offers.select_related("challenger", "game").order_by("-created_at", "-id").first()


def challenges_for(user):
    """The challenges waiting in the lobby, and every challenge ``user`` sent
    or received (or accepted from the lobby), newest first."""
    return Challenge.objects.filter(
        Q(kind=ChallengeKind.OPEN, status=ChallengeStatus.OPEN) | Q(challenger=user) | Q(opponent=user)
    ).select_related("challenger", "opponent")


def pairing_waiting(user) -> PairingRequest | None:
    """``user``'s quick-pairing request still waiting for an opponent, or None."""
    if not user.is_authenticated:
        return None
    return PairingRequest.objects.waiting().filter(player=user).first()


def pairing_latest(user) -> PairingRequest | None:
    """``user``'s latest quick-pairing request, whatever became of it, or None."""
    return PairingRequest.objects.filter(player=user).select_related("game").order_by("-created_at", "-id").first()


def pairing_of(user, pk: int) -> PairingRequest:
    """``user``'s own request ``pk``; raises PairingRequest.DoesNotExist for anyone else's."""
    return PairingRequest.objects.select_related("game").get(pk=pk, player=user)


def challenge_seen_by(user, pk: int) -> Challenge:
    """A challenge ``user`` may see (one of :func:`challenges_for`), or
    Challenge.DoesNotExist, as if there were none."""
    return challenges_for(user).get(pk=pk)
