"""Playing other people: the lobby, new challenges, and answering them.

Like the game page, every action is a plain form POST that redirects, so the
lobby works without JavaScript by reloading. With JavaScript, lobby.js listens
on ws/lobby/ and fetches the lists again (``X-Partial``) whenever something
changes, and takes the challenger to the game as soon as someone accepts.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import GameError, InvalidInput
from games.lobby import selectors, services
from games.lobby.forms import ChallengeForm
from games.lobby.models import Challenge, ChallengeKind, ChallengeStatus
from games.play import selectors as play_selectors
from games.play.models import Game
from games.play.views import game_action

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
        "live_games": selectors.live_games_between_people(),
    }


@login_required
@require_GET
def lobby(request):
    """Challenges to accept, your own, and games between people to watch.
    With ``X-Partial: 1`` only the lists, for lobby.js to swap in."""
    context = _lobby_lists(request.user)
    if request.headers.get("X-Partial") == "1":
        return render(request, "games/_lobby_lists.html", context)
    return render(request, "games/lobby.html", {**context, "form": ChallengeForm()})


@login_required
@require_http_methods(["GET", "POST"])
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
    if _answered(request, services.challenge_decline, pk, "Could not decline"):
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
