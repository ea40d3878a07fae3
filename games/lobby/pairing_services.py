"""Quick pairing: ask for a board and a time control, and play the next person
who asks for the same.

A request waits in the pool of its board and time control until another fits
it: a different player who asked for the same, rated or casual (a person
never with a bot), whose rating is close enough to its own. How close
widens with the time waited (:func:`rating_range`); a pair fits when *both*
players' ranges allow the difference, so a newcomer is not thrown at a much
stronger player who has merely waited longer, and both ranges open to any
rating after :data:`ANY_RATING_AFTER` seconds. Among the requests that fit,
the one that has waited longest is paired first.

Matching runs when a player asks (:func:`pairing_request`), when a waiting
player's page checks in (:func:`pairing_check_in`, every few seconds from the
waiting page's script, or the API asked again), and in the background worker
(:func:`pairing_match_waiting`), so that ranges widening with time pair
people whose pages are quiet. A request whose page has not checked in for
:data:`STALE_AFTER` expires rather than be paired with someone who left.

Every change to a pool's requests (asking, matching, cancelling, expiring)
happens with the pool's row locked (``select_for_update``), so that two
players pressing Play at the same moment on PostgreSQL's READ COMMITTED see
each other: the second waits for the first to commit, then finds its
request. SQLite's IMMEDIATE transactions let one writer in at a time already.
Each function is one transaction; a refusal raises a GameError and stores
nothing.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.errors import InvalidInput, NotAPlayer, PairingRefused, require_choice
from games.lobby.models import PairingPool, PairingRequest, PairingStatus
from games.play import clocks, live
from games.play.clocks import PRESETS, TimeControl
from games.play.models import Bot, Game, Variant
from games.play.services import parse_time_control
from games.stats.selectors import board_rating

#: The rating difference allowed at first, and how it widens: by
#: RANGE_STEP every RANGE_EVERY seconds waited, any rating from ANY_RATING_AFTER.
FIRST_RANGE = 100
RANGE_STEP = 50
RANGE_EVERY = 5
ANY_RATING_AFTER = 30
#: A waiting request whose page has not checked in for this long expires.
STALE_AFTER = timedelta(minutes=10)


def rating_range(waited_seconds: float) -> int | None:
    """How far from their own rating a player who has waited ``waited_seconds``
    will be paired: ±100 at first, 50 more every 5 seconds, any rating (None)
    after 30 seconds."""
    if waited_seconds >= ANY_RATING_AFTER:
        return None
    return FIRST_RANGE + RANGE_STEP * int(waited_seconds // RANGE_EVERY)


def _allows(request: PairingRequest, difference: int, now: datetime) -> bool:
    allowed = rating_range((now - request.created_at).total_seconds())
    return allowed is None or difference <= allowed


def fits(a: PairingRequest, b: PairingRequest, now: datetime, bots: frozenset[int] = frozenset()) -> bool:
    """Whether ``a`` and ``b`` may be paired at ``now``: two players who both
    asked for a rated game or both for a casual one, two people or two bots
    (``bots``: the ids of the bots among them), and a rating difference both
    of their ranges allow."""
    if a.player_id == b.player_id or a.rated != b.rated:
        return False
    if (a.player_id in bots) != (b.player_id in bots):
        return False
    difference = abs(a.rating - b.rating)
    return _allows(a, difference, now) and _allows(b, difference, now)


def _signed_in(user) -> None:
    if user is None or not user.is_authenticated:
        raise NotAPlayer("sign in to be paired with another player", code="not_signed_in")


def quick_time_control(value: TimeControl | str | None) -> TimeControl:
    """One of the presets offered for quick games, from its key; refused otherwise."""
    control = parse_time_control(value)
    if control not in PRESETS:
        offered = ", ".join(preset.key for preset in PRESETS)
        raise InvalidInput(f"quick games are played at {offered}, not {control.key}", code="invalid_time_control")
    return control


def _pool(variant: str, control: TimeControl) -> PairingPool:
    """The pool of ``variant`` at ``control``, made the first time, locked until
    the transaction ends."""
    pool, _ = PairingPool.objects.get_or_create(variant=variant, time_control=control.key)
    return PairingPool.objects.select_for_update().get(pk=pool.pk)


def _locked_request(pk: int) -> PairingRequest:
    return PairingRequest.objects.select_for_update(of=("self",)).select_related("game").get(pk=pk)


def _start_game(first: PairingRequest, second: PairingRequest, now: datetime) -> Game:
    """The game between two matched requests: sides at random, the clocks of
    their time control, both players told where it is."""
    x, o = (first, second) if random.random() < 0.5 else (second, first)
    game = Game.objects.create(
        variant=first.variant,
        x_player_id=x.player_id,
        o_player_id=o.player_id,
        **clocks.starting_fields(first.time_control, now),
        rated=first.rated,
        seed=random.randrange(2**31),
    )
    for request in (first, second):
        request.status = PairingStatus.MATCHED
        request.game = game
        request.resolved_at = now
        request.save(update_fields=["status", "game", "resolved_at"])
        live.publish_user(request.player_id, "paired", request=request.pk, game=game.pk, url=game.get_absolute_url())
    live.publish_lobby("game_started", game=game.pk)
    return game


def _expire_stale(pool: PairingPool, now: datetime) -> int:
    """Expire the requests of a locked pool whose page has not checked in for STALE_AFTER."""
    return (
        pool.requests.waiting()
        .filter(checked_at__lt=now - STALE_AFTER)
        .update(status=PairingStatus.EXPIRED, resolved_at=now)
    )


def _match_pool(pool: PairingPool, now: datetime) -> list[Game]:
    """Pair whoever fits in a locked pool, longest waiting first; the games made."""
    _expire_stale(pool, now)
    waiting = list(pool.requests.waiting().select_for_update().order_by("created_at", "id"))
    bots = frozenset(Bot.objects.filter(user_id__in=[r.player_id for r in waiting]).values_list("user_id", flat=True))
    games = []
    while waiting:
        first = waiting.pop(0)
        partner = next((other for other in waiting if fits(first, other, now, bots)), None)
        if partner is not None:
            waiting.remove(partner)
            games.append(_start_game(first, partner, now))
    return games


def pairing_request(
    *, player, variant: str, time_control: TimeControl | str | None, rated: bool = True, now=None
) -> tuple[PairingRequest, bool]:
    """``player`` asks for a game on ``variant`` at ``time_control`` (a preset's
    key), ``rated`` or casual: paired at once with someone waiting who fits
    (who asked for the same, and a bot only with a bot), or waiting until
    someone does. Asking again while waiting for the same keeps the same
    request (and checks in); asking for something else while waiting is
    refused: cancel first. (the request, whether this asking made it)."""
    _signed_in(player)
    require_choice(variant, Variant, "board")
    control = quick_time_control(time_control)
    now = now or timezone.now()
    created = False
    with transaction.atomic():
        pool = _pool(variant, control)
        waiting = PairingRequest.objects.waiting().filter(player=player).select_for_update().first()
        if waiting is not None and (waiting.pool_id != pool.pk or waiting.rated != bool(rated)):
            raise PairingRefused(
                f"you are waiting for a {'' if waiting.rated else 'casual '}{waiting.variant} "
                f"{waiting.time_control.key} game already: cancel it first",
                code="already_waiting",
            )
        if waiting is None:
            try:
                with transaction.atomic():  # a savepoint: a refusal below leaves the transaction usable
                    waiting = PairingRequest.objects.create(
                        player=player,
                        pool=pool,
                        variant=variant,
                        **control.fields(),
                        rating=board_rating(player, variant).rating,
                        rated=bool(rated),
                        created_at=now,
                        checked_at=now,
                    )
                created = True
            except IntegrityError:
                # The same player asked at the same moment, and that request won:
                # the same game is the one request, another is refused.
                waiting = PairingRequest.objects.waiting().filter(player=player).select_for_update().first()
                if waiting is None or waiting.pool_id != pool.pk or waiting.rated != bool(rated):
                    raise PairingRefused(
                        "you are waiting for another game already: cancel it first", code="already_waiting"
                    ) from None
        if not created:
            waiting.checked_at = now
            waiting.save(update_fields=["checked_at"])
        _match_pool(pool, now)
    return PairingRequest.objects.select_related("game").get(pk=waiting.pk), created


def _own_request(player, request_id: int | None) -> PairingRequest:
    """``player``'s request ``request_id`` (their latest when None), unlocked;
    PairingRequest.DoesNotExist when there is none of theirs."""
    requests = PairingRequest.objects.filter(player=player)
    if request_id is None:
        request = requests.order_by("-created_at", "-id").first()
        if request is None:
            raise PairingRequest.DoesNotExist("you have not asked for a game")
        return request
    return requests.get(pk=request_id)


def pairing_check_in(*, player, request_id: int | None = None, now=None) -> PairingRequest:
    """The waiting page (or an API client) says the player is still there: the
    request stays alive, and is paired if anyone now fits. A request no longer
    waiting is returned as it is: the page then shows the game, or why not."""
    _signed_in(player)
    now = now or timezone.now()
    request = _own_request(player, request_id)
    with transaction.atomic():
        pool = PairingPool.objects.select_for_update().get(pk=request.pool_id)
        request = _locked_request(request.pk)
        if request.status == PairingStatus.WAITING:
            request.checked_at = now
            request.save(update_fields=["checked_at"])
            _match_pool(pool, now)
    return PairingRequest.objects.select_related("game").get(pk=request.pk)


def pairing_cancel(*, player, request_id: int | None = None, now=None) -> PairingRequest:
    """Stop waiting: the request is not paired after this. Refused when it was
    paired already (the refusal names the game) or is over."""
    _signed_in(player)
    now = now or timezone.now()
    request = _own_request(player, request_id)
    with transaction.atomic():
        PairingPool.objects.select_for_update().get(pk=request.pool_id)
        request = _locked_request(request.pk)
        if request.status == PairingStatus.MATCHED:
            raise PairingRefused(
                f"you were paired already: your game is at {request.game.get_absolute_url()}",
                code="already_paired",
                game=request.game,
            )
        if request.status != PairingStatus.WAITING:
            raise PairingRefused(f"this request is {request.get_status_display().lower()} already", code="not_waiting")
        request.status = PairingStatus.CANCELLED
        request.resolved_at = now
        request.save(update_fields=["status", "resolved_at"])
    return request


def pairing_match_waiting(now=None) -> int:
    """One pass over every pool with someone waiting: expire the stale requests
    and pair whoever now fits (ranges widen as people wait). The background
    worker runs it every few seconds; how many games it started."""
    now = now or timezone.now()
    started = 0
    pools = PairingPool.objects.filter(requests__status=PairingStatus.WAITING).distinct().values_list("pk", flat=True)
    for pool_id in list(pools):
        with transaction.atomic():
            pool = PairingPool.objects.select_for_update().get(pk=pool_id)
            started += len(_match_pool(pool, now))
    return started
