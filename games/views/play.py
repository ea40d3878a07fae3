"""Playing: the new-game form against the AI, the game page and its actions,
for games against the AI and between people alike.

Every action is a plain form POST that redirects back to the game page, so the
site works without JavaScript. With JavaScript, game.js sends the same POSTs
and GETs with an ``X-Partial`` header and swaps in the game panel it gets back
(the same template), so a move and the AI's answer appear without a reload.
In a game between people it also listens on ws/games/<pk>/ and fetches the
panel again whenever the game has moved on.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import engine, selectors, services
from games.forms import NewGameForm
from games.models import ChallengeStatus, Game
from games.services import GameError, Player
from games.signals import GUEST_SESSION_KEY

NUMPAD_KEYS = ("7", "8", "9", "4", "5", "6", "1", "2", "3")  # key for cells 0..8 on 3x3


def current_player(request, *, create_guest: bool = False) -> Player:
    """The person behind a request: the signed-in user, or a guest by session key."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    guest_key = request.session.get(GUEST_SESSION_KEY, "")
    if not guest_key and create_guest:
        guest_key = request.session[GUEST_SESSION_KEY] = services.new_guest_key()
    return Player(guest_key=guest_key)


def _is_partial(request) -> bool:
    return request.headers.get("X-Partial") == "1"


def _game_or_404(pk: int) -> Game:
    try:
        return selectors.game_detail(pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None


@require_http_methods(["GET", "POST"])
def new_game(request):
    """Choose variant, side, level and opening; then play."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = current_player(request, create_guest=True)
        try:
            game = services.game_create_against_ai(player=player, **form.cleaned_data)
        except GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect(game)
    return render(request, "games/new.html", {"form": form}, status=400 if form.errors else 200)


def _cell_label(index: int, size: int, mark: str, evaluation: engine.Evaluation | None) -> str:
    row, col = divmod(index, size)
    text = f"Row {row + 1}, column {col + 1}, {mark if mark != '.' else 'empty'}"
    if evaluation is not None:
        text += f": {evaluation}"
    return text


def game_context(request, game: Game, *, ply=None, hint=False, thinking=False, error: str = "") -> dict:
    """Everything the game panel shows, for the full page and the partial alike."""
    player = current_player(request)
    side = game.side_of(player.user, player.guest_key)
    try:
        shown_ply = game.move_count if ply in (None, "") else max(0, min(int(ply), game.move_count))
    except ValueError:
        shown_ply = game.move_count
    replaying = shown_ply != game.move_count
    board = game.board_at(shown_ply)
    your_turn = bool(side) and game.is_in_progress and not replaying and board.to_move == side
    analysis = None
    if (hint or thinking) and not board.is_game_over() and not replaying:
        analysis = engine.analyse(board)
    recommended = None
    if hint and analysis and analysis.exact:
        # The analysis is remembered by the engine: this costs no second search.
        # An analysis with cells not solved in time recommends nothing rather than guess.
        recommended = engine.best_move(board, "perfect", seed=game.seed + shown_ply)
    winning = set(board.winning_line or ())
    last = game.cells[shown_ply - 1] if shown_ply else None
    size = game.size
    cells = []
    for index, mark in enumerate(str(board)):
        evaluation = analysis.get(index) if (analysis and thinking) else None
        cells.append(
            {
                "index": index,
                "mark": "" if mark == "." else mark,
                "playable": your_turn and mark == ".",
                "win": index in winning,
                "last": index == last,
                "recommended": index == recommended,
                "evaluation": evaluation,
                "label": _cell_label(index, size, mark, evaluation),
                "key": NUMPAD_KEYS[index] if size == 3 else "",
            }
        )
    review = selectors.game_review(game)
    labels = {m.ply: m for m in review.moves} if review else {}
    moves = [
        {
            "ply": i,
            "number": i + 1,
            "mark": "X" if i % 2 == 0 else "O",
            "cell": cell,
            "row": cell // size + 1,
            "col": cell % size + 1,
            "review": labels.get(i),
            "decisive": review is not None and review.decisive_ply == i,
        }
        for i, cell in enumerate(game.cells)
    ]
    return {
        **_between_people(request, game, side),
        "game": game,
        "board": board,
        "cells": cells,
        "side": side,
        "your_turn": your_turn,
        "outcome": game.outcome_for(side),
        "shown_ply": shown_ply,
        "replaying": replaying,
        "plies": range(game.move_count + 1),
        "moves": moves,
        "review": review,
        "analysis": analysis,
        "thinking": thinking,
        "hint": hint,
        "recommended": recommended,
        "error": error,
        "x_name": game.player_name("X"),
        "o_name": game.player_name("O"),
    }


def _between_people(request, game: Game, side: str | None) -> dict:
    """What the panel adds for a game between people: whose turn by name, the
    clock, the buttons to claim a win on time or abort, rematch offers, and
    whether the page follows the game live (signed-in viewers only)."""
    if game.ai_side:
        return {"between_people": False, "live": False}
    to_move = game.board.to_move
    in_progress = game.is_in_progress
    out_of_time = game.is_out_of_time()
    offer = None if in_progress else selectors.rematch_offer(game)
    offer_open = offer is not None and offer.status == ChallengeStatus.OPEN
    return {
        "between_people": True,
        "live": request.user.is_authenticated,
        "to_move": to_move,
        "to_move_name": game.player_name(to_move),
        "deadline": game.turn_deadline,
        "out_of_time": out_of_time,
        "can_claim": bool(side) and in_progress and to_move != side and out_of_time,
        "can_abort": bool(side) and in_progress and game.move_count < 2,
        "rematch": offer,
        "rematch_by_you": bool(side) and offer_open and offer.challenger_id == request.user.pk,
        "rematch_for_you": bool(side) and offer_open and offer.challenger_id != request.user.pk,
        "opponent_deleted": bool(side) and game.player_kind("O" if side == "X" else "X") == "deleted",
    }


def _render_game(request, game: Game, *, status: int = 200, error: str = "", **options):
    context = game_context(request, game, error=error, **options)
    template = "games/_game.html" if _is_partial(request) else "games/game.html"
    return render(request, template, context, status=status)


@require_GET
def game_page(request, pk: int):
    """A game: play it if it is yours and your turn, replay it with ?ply=N,
    ask for a hint with ?hint=1, see the AI's evaluation with ?thinking=1."""
    game = _game_or_404(pk)
    if game.awaits_ai:
        # The AI's move was interrupted (a restart between the two writes):
        # it is still owed, so make it now rather than leave the game stuck.
        game = services.game_play_ai_move(game_id=game.pk)
    return _render_game(
        request,
        game,
        ply=request.GET.get("ply"),
        hint=request.GET.get("hint") == "1",
        thinking=request.GET.get("thinking") == "1",
    )


@require_POST
def play_move(request, pk: int):
    """Play a cell (form fields ``cell`` and ``ply``); the AI answers at once."""
    player = current_player(request)
    thinking = request.POST.get("thinking") == "1"
    try:
        result = services.game_play_move(
            game_id=pk, player=player, cell=request.POST.get("cell"), ply=request.POST.get("ply")
        )
        game = services.game_play_ai_move(game_id=pk) if result.game.awaits_ai else result.game
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        game = error.game or _game_or_404(pk)
        if _is_partial(request):
            return _render_game(request, game, status=error.status, error=error.message, thinking=thinking)
        messages.error(request, f"Move refused: {error.message}.")
        return redirect(_game_url(game, thinking))
    if _is_partial(request):
        return _render_game(request, game, thinking=thinking)
    return redirect(_game_url(game, thinking))


def _game_url(game: Game, thinking: bool = False) -> str:
    url = reverse("games:game", args=[game.pk])
    return f"{url}?thinking=1" if thinking else url


@require_POST
def resign(request, pk: int):
    try:
        game = services.game_resign(game_id=pk, player=current_player(request))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        messages.error(request, f"Could not resign: {error.message}.")
        return redirect("games:game", pk=pk)
    messages.info(request, "You resigned.")
    return redirect(game)


@require_POST
def rematch(request, pk: int):
    """A new game against the AI with the same settings and the sides swapped."""
    try:
        game = services.game_rematch(game_id=pk, player=current_player(request))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        messages.error(request, f"No rematch: {error.message}.")
        return redirect("games:game", pk=pk)
    return redirect(game)


# -- games between people -----------------------------------------------------------


def _game_action(request, pk: int, action, refused: str):
    """Call a service ``action`` on game ``pk`` for the person asking; its result,
    or None with the refusal as a message."""
    try:
        return action(game_id=pk, player=current_player(request))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        messages.error(request, f"{refused}: {error.message}.")
        return None


@require_POST
def claim_timeout(request, pk: int):
    """The waiting player takes the win: the opponent's time to move is up."""
    if _game_action(request, pk, services.game_claim_timeout, "No win on time"):
        messages.success(request, "You won on time.")
    return redirect("games:game", pk=pk)


@require_POST
def abort(request, pk: int):
    """Call a game between people off before its second move; nobody's record changes."""
    if _game_action(request, pk, services.game_abort_by_player, "Could not abort"):
        messages.info(request, "The game was aborted.")
    return redirect("games:game", pk=pk)


@require_POST
def rematch_offer(request, pk: int):
    """Offer the opponent another game with the sides swapped."""
    if _game_action(request, pk, services.game_offer_rematch, "No rematch"):
        messages.info(request, "Rematch offered. The new game starts when your opponent accepts.")
    return redirect("games:game", pk=pk)


def _open_rematch_offer(request, pk: int):
    game = _game_or_404(pk)
    offer = selectors.rematch_offer(game)
    if offer is None or offer.status != ChallengeStatus.OPEN:
        messages.error(request, "There is no rematch offer waiting.")
        return None
    return offer


@require_POST
def rematch_accept(request, pk: int):
    """Accept the opponent's rematch offer: the new game starts at once."""
    offer = _open_rematch_offer(request, pk)
    if offer is not None:
        try:
            return redirect(services.challenge_accept(user=request.user, challenge_id=offer.pk))
        except GameError as error:
            messages.error(request, f"No rematch: {error.message}.")
    return redirect("games:game", pk=pk)


@require_POST
def rematch_decline(request, pk: int):
    """Say no to the opponent's rematch offer."""
    offer = _open_rematch_offer(request, pk)
    if offer is not None:
        try:
            services.challenge_decline(user=request.user, challenge_id=offer.pk)
        except GameError as error:
            messages.error(request, f"Could not decline: {error.message}.")
        else:
            messages.info(request, "Rematch declined.")
    return redirect("games:game", pk=pk)


@require_POST
def rematch_cancel(request, pk: int):
    """Take back your own rematch offer before it is answered."""
    offer = _open_rematch_offer(request, pk)
    if offer is not None:
        try:
            services.challenge_cancel(user=request.user, challenge_id=offer.pk)
        except GameError as error:
            messages.error(request, f"Could not cancel: {error.message}.")
        else:
            messages.info(request, "Rematch offer withdrawn.")
    return redirect("games:game", pk=pk)
