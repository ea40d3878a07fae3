"""Playing other people: the lobby, new challenges, answering them, and quick games.

Like the game page, every action is a plain form POST that redirects, so the
lobby works without JavaScript by reloading. With JavaScript, lobby.js listens
on ws/lobby/ and fetches the lists again (``X-Partial``) whenever something
changes, and takes the challenger to the game as soon as someone accepts.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import GameError, InvalidInput, PairingRefused
from games.lobby import pairing_services, selectors, services
from games.lobby.forms import ChallengeForm, QuickGameForm
from games.lobby.models import (
    Challenge,
    ChallengeKind,
    ChallengeStatus,
    DeclineReason,
    PairingRequest,
    PairingStatus,
)
from games.play import selectors as play_selectors
from games.play.actions import game_action
from games.play.models import Game
from games.serving.action_limits import limit_posts

# Refusals of the opponent's name belong next to the username field.
USERNAME_ERRORS = {"unknown_player", "self_challenge"}


def _sentence(message: str) -> str:
    """A service's message ("you cannot challenge yourself") as a sentence."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


def _lobby_lists(user) -> dict:
    return {
        "challenges_for_you": selectors.lobby_challenges_sent_to(user),
        "open_challenges": selectors.lobby_open_challenges(user),
        "your_challenges": selectors.lobby_challenges_sent_by(user),
        "declined_lately": selectors.lobby_challenges_declined_lately(user),
        "live_games": selectors.live_games_between_people(),
        "decline_reasons": DeclineReason.choices,
    }


@login_required
@require_GET
def lobby(request):
    """Challenges to accept, your own, and games between people to watch.
    With ``X-Partial: 1`` only the lists, for lobby.js to swap in."""
    context = _lobby_lists(request.user)
    if request.headers.get("X-Partial") == "1":
        return render(request, "games/_lobby_lists.html", context)
    return render(
        request,
        "games/lobby.html",
        {
            **context,
            "form": ChallengeForm(),
            "quick_form": QuickGameForm(),
            "pairing_waiting": selectors.pairing_waiting(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@limit_posts("challenge")
def challenge_new(request):
    """Offer a game: in the lobby, to a named player, or as an invite link."""
    form = ChallengeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            challenge = services.challenge_create(challenger=request.user, **form.cleaned_data)
        except InvalidInput as error:
            form.add_error("opponent_username" if error.code in USERNAME_ERRORS else None, _sentence(error.message))
        except GameError as error:
            form.add_error(None, _sentence(error.message))
        else:
            if challenge.kind == ChallengeKind.LINK:
                messages.success(request, "Your invite link is ready: send it to the person you want to play.")
                return redirect(challenge)
            if challenge.kind == ChallengeKind.DIRECT:
                messages.success(request, f"Challenge sent to {challenge.opponent.get_username()}.")
            else:
                messages.success(request, "Your challenge is in the lobby. The game starts when someone accepts.")
            return redirect("games:lobby")
    return render(request, "games/challenge_new.html", {"form": form}, status=400 if form.errors else 200)


def _answered(request, action, pk: int, refused: str):
    """Call ``action`` (a challenge service) for the signed-in user on challenge
    ``pk``; None and a message when it is refused."""
    try:
        return action(user=request.user, challenge_id=pk)
    except Challenge.DoesNotExist:
        raise Http404("No such challenge") from None
    except GameError as error:
        messages.error(request, f"{refused}: {error.message}.")
        return None


@login_required
@require_POST
def challenge_accept(request, pk: int):
    """Accept a challenge from the lobby or sent to you; the game starts at once."""
    game = _answered(request, services.challenge_accept, pk, "Could not accept")
    return redirect(game or "games:lobby")


@login_required
@require_POST
def challenge_decline(request, pk: int):
    """Say no, with one of the reasons the challenger is told (the form's select)."""
    reason = request.POST.get("reason") or DeclineReason.GENERIC
    decline = partial(services.challenge_decline, reason=reason)
    if _answered(request, decline, pk, "Could not decline"):
        messages.info(request, "Challenge declined.")
    return redirect("games:lobby")


@login_required
@require_POST
def challenge_cancel(request, pk: int):
    if _answered(request, services.challenge_cancel, pk, "Could not cancel"):
        messages.info(request, "Challenge cancelled.")
    return redirect("games:lobby")


@require_http_methods(["GET", "POST"])
def challenge_page(request, token: str):
    """An invite link: who challenges, on what terms, and a button to accept (POST)."""
    try:
        challenge = selectors.challenge_by_token(token)
    except Challenge.DoesNotExist:
        raise Http404("No such challenge") from None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(challenge.get_absolute_url())
        try:
            game = services.challenge_accept(user=request.user, token=token)
        except GameError as error:
            messages.error(request, f"Could not accept: {error.message}.")
            return redirect(challenge)
        return redirect(game)
    return render(
        request,
        "games/challenge.html",
        {
            "challenge": challenge,
            "is_challenger": request.user.is_authenticated and challenge.challenger_id == request.user.pk,
            "invite_url": request.build_absolute_uri(challenge.get_absolute_url()),
        },
    )


# -- rematch offers after a game between people ---------------------------------------
# An offer is a challenge sent to the opponent: answering it is answering a
# challenge, found from the game rather than by its id.


@require_POST
@limit_posts("challenge")
def rematch_offer(request, pk: int):
    """Offer the opponent another game with the sides swapped."""
    if game_action(request, pk, services.game_offer_rematch, "No rematch"):
        messages.info(request, "Rematch offered. The new game starts when your opponent accepts.")
    return redirect("games:game", pk=pk)


def _answer_rematch(request, pk: int, action, refused: str):
    """Answer the open rematch offer after game ``pk`` with ``action`` (a
    challenge service); its result, or None with a message saying why not."""
    try:
        offer = selectors.rematch_offer(play_selectors.game_detail(pk))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if offer is None or offer.status != ChallengeStatus.OPEN:
        messages.error(request, "There is no rematch offer waiting.")
        return None
    return _answered(request, action, offer.pk, refused)


@require_POST
def rematch_accept(request, pk: int):
    """Accept the opponent's rematch offer: the new game starts at once."""
    game = _answer_rematch(request, pk, services.challenge_accept, "No rematch")
    return redirect(game or reverse("games:game", args=[pk]))


@require_POST
def rematch_decline(request, pk: int):
    """Say no to the opponent's rematch offer."""
    if _answer_rematch(request, pk, services.challenge_decline, "Could not decline"):
        messages.info(request, "Rematch declined.")
    return redirect("games:game", pk=pk)


@require_POST
def rematch_cancel(request, pk: int):
    """Take back your own rematch offer before it is answered."""
    if _answer_rematch(request, pk, services.challenge_cancel, "Could not cancel"):
        messages.info(request, "Rematch offer withdrawn.")
    return redirect("games:game", pk=pk)


# -- quick games: pick a board and a time control, play the next person who does ---------
# Without JavaScript the waiting page reloads itself every few seconds (a GET,
# which only reads) and goes to the game once paired. With quick.js it checks in
# (a POST) every few seconds, which keeps the request alive and pairs it as the
# rating range widens, and the socket's "paired" takes it to the game at once.

#: Seconds between the waiting page's reloads (without JavaScript) and check-ins (with it).
WAIT_REFRESH_SECONDS = 4


def _is_partial(request) -> bool:
    return request.headers.get("X-Partial") == "1"


@login_required
@require_http_methods(["GET", "POST"])
@limit_posts("pairing")
def quick_game(request):
    """A board, a time control and Play: paired with the next person who asks for
    the same, or a page to wait on. While you wait, this takes you to that page."""
    waiting = selectors.pairing_waiting(request.user)
    if request.method == "GET" and waiting is not None:
        return redirect(waiting)
    form = QuickGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pairing, _ = pairing_services.pairing_request(
                player=request.user,
                variant=form.cleaned_data["board"],
                time_control=form.cleaned_data["time_control"],
                rated=form.cleaned_data["rated"] != "casual",
            )
        except PairingRefused as error:
            messages.error(request, _sentence(error.message))
            return redirect(waiting or "games:quick")
        except GameError as error:
            form.add_error(None, _sentence(error.message))
        else:
            if pairing.status == PairingStatus.MATCHED:
                messages.success(request, "Paired: your game has started.")
                return redirect(pairing.game)
            return redirect(pairing)
    return render(request, "games/quick.html", {"form": form}, status=400 if form.errors else 200)


def _wait_context(pairing: PairingRequest) -> dict:
    now = timezone.now()
    waited = pairing.waited_seconds(now)
    allowed = pairing_services.rating_range(waited)
    return {
        "pairing": pairing,
        "waited": waited,
        "waited_clock": f"{waited // 60}:{waited % 60:02d}",
        "rating_low": None if allowed is None else pairing.rating - allowed,
        "rating_high": None if allowed is None else pairing.rating + allowed,
        "refresh_seconds": WAIT_REFRESH_SECONDS,
        "stale_minutes": int(pairing_services.STALE_AFTER.total_seconds() // 60),
        "form": QuickGameForm(
            initial={
                "board": pairing.variant,
                "time_control": pairing.time_control.key,
                "rated": "rated" if pairing.rated else "casual",
            }
        ),
    }


@login_required
@require_http_methods(["GET", "POST"])
def quick_wait(request, pk: int):
    """Your request as it stands: waiting (how long, for whom), or off to the
    game once paired. A POST checks in: you are still here, and anyone who now
    fits is paired with you. With ``X-Partial: 1`` only the panel, for quick.js."""
    try:
        if request.method == "POST":
            pairing = pairing_services.pairing_check_in(player=request.user, request_id=pk)
        else:
            pairing = selectors.pairing_of(request.user, pk)
    except PairingRequest.DoesNotExist:
        raise Http404("No such request") from None
    context = _wait_context(pairing)
    if _is_partial(request):
        return render(request, "games/_quick_wait.html", context)
    if pairing.status == PairingStatus.MATCHED:
        return redirect(pairing.game)
    if request.method == "POST":
        return redirect(pairing)
    return render(request, "games/quick_wait.html", context)


@login_required
@require_POST
@limit_posts("pairing")
def quick_cancel(request, pk: int):
    """Stop waiting. Paired already? Then the game is where you go."""
    try:
        pairing_services.pairing_cancel(player=request.user, request_id=pk)
    except PairingRequest.DoesNotExist:
        raise Http404("No such request") from None
    except PairingRefused as error:
        if error.game is not None:
            messages.info(request, "You were paired before you cancelled: this is your game.")
            return redirect(error.game)
        messages.error(request, f"Could not cancel: {error.message}.")
        return redirect("games:quick_wait", pk=pk)
    messages.info(request, "You are no longer waiting for a game.")
    return redirect("games:quick")
