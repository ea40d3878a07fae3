"""Games between people: challenges, invite links and rematch offers.

Each function is one transaction. Accepting a challenge creates the game,
which from then on is played through :mod:`games.play.services`.
"""

from __future__ import annotations

import random
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.engine import other_side
from games.errors import ChallengeRefused, InvalidInput, MoveRefused, NotAPlayer, require_choice
from games.lobby.models import Challenge, ChallengeKind, ChallengeSide, ChallengeStatus, DeclineReason
from games.lobby.signals import challenge_sent
from games.play import clocks, live
from games.play.clocks import TimeControl
from games.play.models import Game, Status, Variant, is_bot
from games.play.players import Player
from games.play.selectors import game_detail
from games.play.services import parse_time_control


def _signed_in(user) -> None:
    if user is None or not user.is_authenticated:
        raise NotAPlayer("sign in to play other people", code="not_signed_in")


def _bot_plays(challenger, opponent) -> None:
    """Refused when one of the two is a bot that plays only other bots and the
    other is a person: a bot says so with ``accepts_people`` off."""
    for bot, other in ((opponent, challenger), (challenger, opponent)):
        if is_bot(bot) and not bot.bot.accepts_people and not is_bot(other):
            raise ChallengeRefused(
                f"{bot.get_username()} is a bot that plays only other bots, not people",
                code="bot_declines_people",
            )


def rated_between(first, second, rated: bool = True) -> bool:
    """Whether a game between two accounts is rated: as they chose, but never
    between a bot and a person, so that bots never move people's ratings."""
    return bool(rated) and is_bot(first) == is_bot(second)


def challenge_create(
    *,
    challenger,
    kind: str = ChallengeKind.OPEN,
    variant: str = Variant.THREE,
    side: str = ChallengeSide.RANDOM,
    time_control: TimeControl | str | None = None,
    move_time_limit: int | None = None,
    takebacks_allowed: bool = False,
    rated: bool = True,
    opponent_username: str = "",
    rematch_of: Game | None = None,
) -> Challenge:
    """Offer a game: open in the lobby, sent to a named player, or as an invite
    link. ``time_control`` is a key such as "3+2", "3d" or "none";
    ``move_time_limit`` (seconds per move) is the older way to ask for one.
    Whoever accepts agrees to the time control, to takebacks if allowed, and
    to a rated or a casual game (a bot and a person always play casual ones).
    A bot that plays only bots refuses a person's challenge."""
    _signed_in(challenger)
    require_choice(kind, ChallengeKind, "kind")
    require_choice(variant, Variant, "variant")
    require_choice(side, ChallengeSide, "side")
    if move_time_limit is not None:
        if time_control is not None:
            raise InvalidInput("give a time control or a time per move, not both", code="invalid_time_control")
        if not isinstance(move_time_limit, int) or isinstance(move_time_limit, bool):
            raise InvalidInput(f"a time limit of {move_time_limit!r} s is not offered", code="invalid_time_limit")
        time_control = TimeControl(per_move=move_time_limit).key
    control = parse_time_control(time_control)
    opponent = None
    if kind == ChallengeKind.DIRECT:
        opponent = get_user_model().objects.filter(username=opponent_username, is_active=True).first()
        if opponent is None:
            raise InvalidInput(f"there is no player called {opponent_username!r}", code="unknown_player")
        if opponent == challenger:
            raise InvalidInput("you cannot challenge yourself", code="self_challenge")
        _bot_plays(challenger, opponent)
        rated = rated_between(challenger, opponent, rated)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            kind=kind,
            challenger=challenger,
            opponent=opponent,
            variant=variant,
            challenger_side=side,
            **control.fields(),
            takebacks_allowed=bool(takebacks_allowed),
            rated=bool(rated),
            token=secrets.token_urlsafe(16),
            rematch_of=rematch_of,
        )
        if kind == ChallengeKind.OPEN:
            live.publish_lobby("challenge_created", challenge=challenge_told(challenge))
        if opponent is not None:
            live.publish_user(opponent.pk, "challenge_received", challenge=challenge_told(challenge))
            challenge_sent.send(sender=Challenge, challenge=challenge)
    return challenge


def challenge_told(challenge: Challenge) -> dict:
    """A challenge as the lobby's socket tells it: what GET
    /api/challenges/{id}/ answers, field for field, but the invite's secret
    (tests/api/test_challenge_events.py holds the two together)."""
    return {
        "id": challenge.pk,
        "kind": challenge.kind,
        "status": challenge.status,
        "variant": challenge.variant,
        "challenger": challenge.challenger.username,
        "opponent": challenge.opponent.username if challenge.opponent_id else None,
        "side": challenge.challenger_side,
        "move_time_limit": challenge.move_time_limit,
        "time_control": challenge.time_control.key,
        "takebacks_allowed": challenge.takebacks_allowed,
        "rated": challenge.rated,
        "game": challenge.game_id,
        "rematch_of": challenge.rematch_of_id,
        "decline_reason": challenge.decline_reason or None,
        "created_at": challenge.created_at.isoformat(),
        "resolved_at": challenge.resolved_at.isoformat() if challenge.resolved_at else None,
    }


def _locked_challenge(*, challenge_id=None, token=None) -> Challenge:
    query = Challenge.objects.select_for_update()
    if token is not None:
        return query.get(token=token)
    return query.get(pk=challenge_id)


def challenge_accept(*, user, challenge_id: int | None = None, token: str | None = None) -> Game:
    """Accept a challenge: the game starts at once. Only once, and never by its creator."""
    _signed_in(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id, token=token)
        if challenge.kind == ChallengeKind.LINK and token is None:
            # An invite link's token is its only key: a guessed id must not open it.
            raise NotAPlayer("this challenge is accepted through its invite link", code="needs_invite_link")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        if challenge.challenger_id == user.pk:
            raise ChallengeRefused("you cannot accept your own challenge", code="own_challenge")
        if challenge.kind == ChallengeKind.DIRECT and challenge.opponent_id != user.pk:
            raise NotAPlayer("this challenge was sent to someone else")
        _bot_plays(challenge.challenger, user)
        side = challenge.challenger_side
        if side == ChallengeSide.RANDOM:
            side = random.choice("XO")
        x_player, o_player = (challenge.challenger, user) if side == "X" else (user, challenge.challenger)
        now = timezone.now()
        game = Game.objects.create(
            variant=challenge.variant,
            x_player=x_player,
            o_player=o_player,
            **clocks.starting_fields(challenge.time_control, now),
            takebacks_allowed=challenge.takebacks_allowed,
            rated=rated_between(challenge.challenger, user, challenge.rated),
            rematch_of=challenge.rematch_of,
            seed=random.randrange(2**31),
        )
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.game = game
        challenge.opponent = challenge.opponent or user
        challenge.resolved_at = now
        challenge.save(update_fields=["status", "game", "opponent", "resolved_at"])
        live.publish_user(
            challenge.challenger_id,
            "challenge_accepted",
            challenge=challenge_told(challenge),
            game=game.pk,
            url=game.get_absolute_url(),
        )
        if challenge.rematch_of_id:
            live.publish_game(challenge.rematch_of, "rematch_started", changed=False, url=game.get_absolute_url())
        live.publish_lobby("game_started", game=game.pk)
    return game_detail(game.pk)


def _close_challenge(challenge: Challenge, status: str) -> Challenge:
    challenge.status = status
    challenge.resolved_at = timezone.now()
    challenge.save(update_fields=["status", "resolved_at"])
    if challenge.kind == ChallengeKind.OPEN:
        live.publish_lobby("challenge_closed", challenge=challenge_told(challenge))
    if challenge.rematch_of_id:
        live.publish_game(challenge.rematch_of, "rematch_" + status, changed=False)
    return challenge


def challenge_decline(*, user, challenge_id: int, reason: str = DeclineReason.GENERIC) -> Challenge:
    """The player a challenge was sent to says no, with a reason from :class:`DeclineReason`."""
    _signed_in(user)
    require_choice(reason, DeclineReason, "reason")
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id)
        if challenge.opponent_id != user.pk or challenge.kind == ChallengeKind.OPEN:
            raise NotAPlayer("only the player a challenge was sent to can decline it")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        challenge.decline_reason = reason
        challenge.save(update_fields=["decline_reason"])
        _close_challenge(challenge, ChallengeStatus.DECLINED)
        live.publish_user(challenge.challenger_id, "challenge_declined", challenge=challenge_told(challenge))
    return challenge


def challenge_cancel(*, user, challenge_id: int) -> Challenge:
    """The challenger withdraws a challenge nobody has accepted yet."""
    _signed_in(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id)
        if challenge.challenger_id != user.pk:
            raise NotAPlayer("only the challenger can cancel a challenge")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        _close_challenge(challenge, ChallengeStatus.CANCELLED)
        if challenge.opponent_id:
            live.publish_user(challenge.opponent_id, "challenge_cancelled", challenge=challenge_told(challenge))
    return challenge


def game_offer_rematch(*, game_id: int, player: Player) -> Challenge:
    """After a game between people, offer the opponent another with the sides
    swapped, rated or casual as that one was. One offer and one rematch a game, however many are sent at once:
    the game's row is locked while the offers are read, so offering again
    returns the same offer."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("x_player", "o_player").get(pk=game_id)
        side = game.side_of(player.user, player.guest_key)
        if side is None:
            raise NotAPlayer("only a player can offer a rematch", game=game_detail(game_id))
        if game.ai_side:
            raise MoveRefused("against the AI a rematch starts at once", code="ai_rematch", game=game_detail(game_id))
        if game.status == Status.IN_PROGRESS:
            raise MoveRefused("finish this game first", code="game_in_progress", game=game_detail(game_id))
        opponent = game.player(other_side(side))
        if opponent is None:
            raise MoveRefused("your opponent's account no longer exists", code="no_opponent", game=game_detail(game_id))
        standing = game.rematch_offers.filter(status__in=[ChallengeStatus.OPEN, ChallengeStatus.ACCEPTED]).first()
        if standing is not None and standing.status == ChallengeStatus.ACCEPTED:
            raise MoveRefused("the rematch has started already", code="rematch_started", game=game_detail(game_id))
        if standing is not None:
            if standing.challenger_id == player.user.pk:
                return standing  # offered already: a second click changes nothing
            raise MoveRefused(
                "your opponent has offered a rematch already: accept it",
                code="rematch_offered",
                game=game_detail(game_id),
            )
        challenge = challenge_create(
            challenger=player.user,
            kind=ChallengeKind.DIRECT,
            variant=game.variant,
            side=other_side(side),
            time_control=game.time_control,
            takebacks_allowed=game.takebacks_allowed,
            rated=game.rated,
            opponent_username=opponent.get_username(),
            rematch_of=game,
        )
        live.publish_game(game, "rematch_offered", changed=False, by=side)
    return challenge
