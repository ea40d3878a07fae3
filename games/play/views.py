"""Playing: the new-game form against the AI, the game page and its actions,
for games against the AI and between people alike.

Every action is a plain form POST that redirects back to the game page, so the
site works without JavaScript. With JavaScript, game.js sends the same POSTs
and GETs with an ``X-Partial`` header and swaps in the game panel it gets back
(the same template), so a move and the AI's answer appear without a reload.
In a game between people, and for whoever watches a game against the AI, it
also listens on ws/games/<pk>/ and fetches the panel again whenever the game
has moved on.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import engine
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs
from games.errors import EngineRefused, EngineWorking, GameError
from games.play import chances, chat_selectors, offers, review_selectors, reviews, selectors, services
from games.play.actions import game_action
from games.play.forms import NewGameForm
from games.play.models import ENGINE_HELP_OFF, Game, Status
from games.play.players import current_player
from games.serving.action_limits import limit_posts
from games.serving.first_visit import for_first_visits
from games.serving.http import status_of

NUMPAD_KEYS = ("7", "8", "9", "4", "5", "6", "1", "2", "3")  # key for cells 0..8 on 3x3


def _is_partial(request) -> bool:
    return request.headers.get("X-Partial") == "1"


def _game_or_404(pk: int) -> Game:
    try:
        return selectors.game_detail(pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None


@require_GET
@for_first_visits(seconds=10)
def home(request):
    """The front page: an invitation to play, and your games in progress."""
    player = current_player(request)
    in_progress = selectors.games_in_progress(player.user, player.guest_key)
    recent = selectors.recent_results(request.user) if request.user.is_authenticated else []
    return render(
        request,
        "games/home.html",
        {"in_progress": in_progress, "recent": recent, "form": NewGameForm()},
    )


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


def _cell_classes(cell: dict) -> str:
    """The cell button's class list. Built here rather than by seven ``{% if %}``
    in the template: the board is the panel's busiest part, sent back with
    every move."""
    classes = ["cell"]
    if cell["mark"]:
        classes.append(f"cell--{cell['mark'].lower()}")
    for flag, name in (("win", "win"), ("last", "last"), ("recommended", "hint")):
        if cell[flag]:
            classes.append(f"cell--{name}")
    if cell["evaluation"]:
        classes += ["cell--eval", f"cell--eval-{cell['evaluation'].outcome}"]
    if cell["better"]:
        classes.append("cell--better")
    return " ".join(classes)


def game_context(request, game: Game, *, ply=None, hint=False, thinking=False, error: str = "") -> dict:
    """Everything the game panel shows, for the full page and the partial alike."""
    player = current_player(request)
    side = game.side_of(player.user, player.guest_key)
    asked = engine.whole_number(ply)
    shown_ply = game.move_count if asked is None else max(0, min(asked, game.move_count))
    replaying = shown_ply != game.move_count
    board = game.board_at(shown_ply)
    your_turn = bool(side) and game.is_in_progress and not replaying and board.to_move == side
    analysis = recommended = None
    engine_refused = engine_off = ""
    engine_working = False
    if (hint or thinking) and not game.engine_help_allowed:
        # Asked by hand (the panel offers neither): the page, without a search, saying why.
        hint = thinking = False
        engine_off = ENGINE_HELP_OFF
    if (hint or thinking) and not board.is_game_over() and not replaying:
        try:
            analysis, recommended = _engine_view(request, board, hint, seed=game.seed + shown_ply)
        except EngineWorking:
            # The page renders now, says the engine is working, and asks again (game.js, or a reload).
            engine_working = True
        except EngineRefused as refusal:
            # The page still renders, without the engine's view, saying why.
            engine_refused = refusal.message
    winning = set(board.winning_line or ())
    last = game.cells[shown_ply - 1] if shown_ply else None
    size = game.size
    # A finished game teaches the move that led to the shown position: its
    # label, the better move (marked on the board) and the lines after both,
    # as the background worker stored them a moment after the game ended.
    reviewed = review_selectors.game_review(game)
    review = reviewed.review if reviewed else None
    review_pending = reviewed is None and game.status == Status.FINISHED
    lesson = reviews.move_lesson(game, reviewed, shown_ply - 1) if shown_ply else None
    better = set(lesson.better_cells) if lesson else set()
    # Where every cell has the same outcome, the AI's view tells them apart by their traps.
    traps = analysis.traps if thinking and analysis and chances.traps_shown(analysis) else {}
    cells = []
    for index, mark in enumerate(str(board)):
        evaluation = analysis.get(index) if (analysis and thinking) else None
        label = _cell_label(index, size, mark, evaluation)
        if index in traps:
            label += f", leaves {engine.other_side(board.to_move)} {chances.ways_to_go_wrong(traps[index], evaluation.outcome)}"
        if index in better:
            label += f": {lesson.better_note}"
        if index == recommended:
            label += ", the hint: the engine recommends this move"
        cell = {
            "index": index,
            "mark": "" if mark == "." else mark,
            "playable": your_turn and mark == ".",
            "win": index in winning,
            "last": index == last,
            "recommended": index == recommended,
            "evaluation": evaluation,
            "traps": chances.short_traps(traps[index]) if index in traps else "",
            "label": label,
            "key": NUMPAD_KEYS[index] if size == 3 else "",
            "better": index in better,
        }
        cell["classes"] = _cell_classes(cell)
        cells.append(cell)
    labels = {m.ply: m for m in review.moves} if review else {}
    moves = [
        {
            "ply": i,
            "number": i + 1,
            "mark": engine.side_to_move(i),
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
        "ai_move_owed": bool(side) and not replaying and game.awaits_ai,
        "ai_thinking": not replaying and game.awaits_ai,
        "outcome": game.outcome_for(side),
        "shown_ply": shown_ply,
        "replaying": replaying,
        "plies": range(game.move_count + 1),
        "moves": moves,
        "review": review,
        "review_pending": review_pending,
        # Where the panel asks again while it waits for the engine or the review (game.js, or a reload).
        "ask_again": _game_url(game, thinking, hint=hint, ply=shown_ply if replaying else None)
        if engine_working or review_pending
        else "",
        "lesson": lesson,
        "decided": reviews.decisive_summary(review, size),
        "analysis": analysis,
        "thinking": thinking,
        "hint": hint,
        "recommended": recommended,
        "hint_reason": chances.hint_reason(board, analysis, recommended) if hint and recommended is not None else "",
        "traps_legend": chances.traps_legend(board, analysis) if traps else "",
        "engine_refused": engine_refused,
        "engine_working": engine_working,
        "engine_off": engine_off,
        "error": error,
        "x_name": game.player_name("X"),
        "o_name": game.player_name("O"),
        "clock": game.clock_state(),
        "offers": offers.offers_for(game, side),
        "opponent_name": game.opponent_name(side) if side else "",
    }


#: Seconds the engine may search for a hint or its thinking on a game page; a
#: cell not solved by then is "not solved in time", and the hint then says nothing.
HINT_BUDGET = 3.0


def _engine_view(request, board: engine.Board, hint: bool, seed: int) -> tuple[engine.Analysis, int | None]:
    """(the analysis of ``board``, the hint's cell or None) through the engine's
    queue (games/engine_work/): EngineWorking while it searches."""
    if hint:
        return asking.ask(
            request,
            engine_jobs.hint,
            str(board),
            HINT_BUDGET,
            seed,
            budget=HINT_BUDGET,
            complete=lambda found: found[0].exact and found[0].traps is not None,
        )
    return asking.analysis(request, board, HINT_BUDGET), None


def _between_people(request, game: Game, side: str | None) -> dict:
    """What the panel adds for a game between people: whose turn by name, the
    clock, the buttons to claim a win on time or abort, and ``follows_live``:
    whether the page follows the game over its WebSocket (signed-in viewers
    only; others reload). The rematch offered after it is the lobby's, read
    by the panel's template (games/templatetags/rematch_tags.py).

    A game against the AI in progress is followed by whoever waits for moves
    they did not ask for: anyone watching it (signed in or not: its page and
    its socket tell the same), and its player when the page is loaded while
    the AI's move is on its way. A player's own moves bring the AI's reply
    with them, so their page needs no socket otherwise."""
    if game.ai_side:
        follows = game.is_in_progress and (side is None or game.awaits_ai)
        return {"between_people": False, "follows_live": follows}
    to_move = game.board.to_move
    in_progress = game.is_in_progress
    out_of_time = game.is_out_of_time()
    return {
        "between_people": True,
        "follows_live": request.user.is_authenticated,
        "to_move": to_move,
        "to_move_name": game.player_name(to_move),
        "out_of_time": out_of_time,
        "can_claim": bool(side) and in_progress and to_move != side and out_of_time,
        "can_abort": bool(side) and in_progress and not services.both_have_moved(game.move_count),
        "opponent_deleted": bool(side) and game.player_kind(engine.other_side(side)) == "deleted",
    }


#: The game panel, the one template every move sends back.
PANEL = "games/_game.html"


def _render_game(request, game: Game, *, status: int = 200, error: str = "", refused: str = "Move refused", **options):
    context = {**game_context(request, game, error=error, **options), "refused": refused}
    if _is_partial(request):
        return render(request, PANEL, context, status=status)
    context["panel"] = mark_safe(render_to_string(PANEL, context, request))
    if chat_selectors.has_chat(game):
        # Beside the panel, not in it: swapping the panel never touches a message being typed.
        context["chat"] = chat_selectors.game_chat(game, current_player(request))
    return render(request, "games/game.html", context, status=status)


@require_GET
def game_page(request, pk: int):
    """A game: play it if it is yours and your turn, replay it with ?ply=N,
    ask for a hint with ?hint=1, see the AI's evaluation with ?thinking=1
    (not in a game between people in progress: Game.engine_help_allowed).
    Reading changes nothing: a move the AI still owes is shown as owed."""
    return _render_game(
        request,
        _game_or_404(pk),
        ply=request.GET.get("ply"),
        hint=request.GET.get("hint") == "1",
        thinking=request.GET.get("thinking") == "1",
    )


@require_GET
def game_notation(request, pk: int):
    """The game as a text file in the site's notation (docs/notation.md), finished or not."""
    response = HttpResponse(selectors.game_notation(_game_or_404(pk)), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tttsite-game-{pk}.txt"'
    return response


@require_POST
def play_move(request, pk: int):
    """Play a cell (form fields ``cell`` and ``ply``); against the AI its reply comes with it."""
    thinking = request.POST.get("thinking") == "1"
    try:
        result = services.game_play_move(
            game_id=pk, player=current_player(request), cell=request.POST.get("cell"), ply=request.POST.get("ply")
        )
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        game = error.game or _game_or_404(pk)
        if _is_partial(request):
            return _render_game(request, game, status=status_of(error), error=error.message, thinking=thinking)
        messages.error(request, f"Move refused: {error.message}.")
        return redirect(_game_url(game, thinking))
    if _is_partial(request):
        return _render_game(request, result.game, thinking=thinking)
    return redirect(_game_url(result.game, thinking))


def _game_url(game: Game, thinking: bool = False, *, hint: bool = False, ply: int | None = None) -> str:
    """The game page's address, with the engine's view, the hint or a replayed ply asked for."""
    query = {"hint": "1" if hint else "", "thinking": "1" if thinking else "", "ply": "" if ply is None else ply}
    query = urlencode({name: value for name, value in query.items() if value != ""})
    url = reverse("games:game", args=[game.pk])
    return f"{url}?{query}" if query else url


@require_POST
def ai_move(request, pk: int):
    """Let the AI make a move it still owes (a stopped server left it unmade)."""
    game_action(request, pk, services.game_play_owed_ai_move, "The AI did not move")
    return redirect("games:game", pk=pk)


@require_POST
def resign(request, pk: int):
    game = game_action(request, pk, services.game_resign, "Could not resign")
    if game is not None and game.status == Status.ABORTED:
        messages.info(request, "The game was aborted: it ends unrated before both sides have moved.")
    elif game is not None:
        messages.info(request, "You resigned.")
    return redirect("games:game", pk=pk)


@require_POST
def rematch(request, pk: int):
    """A new game against the AI with the same settings and the sides swapped."""
    game = game_action(request, pk, services.game_rematch, "No rematch")
    return redirect(game or reverse("games:game", args=[pk]))


# -- games between people -----------------------------------------------------------


@require_POST
def claim_timeout(request, pk: int):
    """The waiting player ends the game: the opponent's time to move is up."""
    game = game_action(request, pk, services.game_claim_timeout, "No win on time")
    if game is not None:
        messages.success(
            request,
            {
                "won": "You won on time.",
                "drawn": "Drawn on time: your opponent ran out of time, but you could no longer win.",
                None: "The game is aborted: your opponent never made a first move. It counts for neither of you.",
            }[game.outcome_for(game.side_of(request.user))],
        )
    return redirect("games:game", pk=pk)


@require_POST
def abort(request, pk: int):
    """Call a game between people off before its second move; nobody's record changes."""
    if game_action(request, pk, services.game_abort_by_player, "Could not abort"):
        messages.info(request, "The game was aborted.")
    return redirect("games:game", pk=pk)


# -- offers: draws and takebacks (games/play/offers.py) -------------------------------


def _offer_action(request, pk: int, action, refused: str, done: str = "", **answer):
    """Make or answer an offer on game ``pk``: back to the game page with a
    message, or with JavaScript (``X-Partial``) the game panel itself, which
    shows a refusal in its own words."""
    try:
        game = action(game_id=pk, player=current_player(request), **answer)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        if _is_partial(request):
            game = error.game or _game_or_404(pk)
            return _render_game(request, game, status=status_of(error), error=error.message, refused=refused)
        messages.error(request, f"{refused}: {error.message}.")
        return redirect("games:game", pk=pk)
    if _is_partial(request):
        return _render_game(request, game)
    if done:
        messages.info(request, done)
    return redirect("games:game", pk=pk)


@require_POST
@limit_posts("offer")
def draw_offer(request, pk: int):
    """Offer the opponent a draw (accepts theirs, if they offered first)."""
    return _offer_action(request, pk, offers.game_offer_draw, "No draw offer")


@require_POST
def draw_accept(request, pk: int):
    return _offer_action(request, pk, offers.game_answer_draw, "Could not accept the draw", accept=True)


@require_POST
def draw_decline(request, pk: int):
    return _offer_action(request, pk, offers.game_answer_draw, "Could not decline", "Draw declined.", accept=False)


@require_POST
@limit_posts("offer")
def takeback(request, pk: int):
    """Ask to take your last move back; against the AI, take it back at once."""
    return _offer_action(request, pk, offers.game_request_takeback, "No takeback")


@require_POST
def takeback_accept(request, pk: int):
    """Let the opponent take their last move back (``ply``: the game's ply as the page showed it)."""
    return _offer_action(
        request, pk, offers.game_answer_takeback, "No takeback", "Move taken back.", accept=True, ply=_ply(request)
    )


@require_POST
def takeback_decline(request, pk: int):
    return _offer_action(
        request,
        pk,
        offers.game_answer_takeback,
        "Could not decline",
        "Takeback declined.",
        accept=False,
        ply=_ply(request),
    )


def _ply(request) -> str | None:
    return request.POST.get("ply") or None
