"""Learn from your mistakes: back to the position before each mistake and
blunder of a finished game, to find a move that keeps the outcome.

Each attempt is a plain GET form (the board's empty cells are its buttons),
so the page works without JavaScript and reading it never writes anything.
The answer is judged against the engine's exact analysis of the position,
made with the game's review by the background worker: the page never searches.

Who may use it: anyone who may see the game. Game pages, their replays and
their reviews are public already, and a lesson taken from someone else's
game is as good as one from your own. A player of the game starts on their
own side's mistakes; anyone may switch sides.

Only mistakes and blunders come back, the moves that changed the outcome.
An inaccuracy kept it, so the question "which move keeps the outcome?" would
be answered by the very move that was played.
"""

from __future__ import annotations

from django import forms
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import engine
from games.play import review_selectors, reviews, selectors
from games.play.models import Game, Status
from games.play.players import current_player

SIDES = ("X", "O", "both")


class AttemptForm(forms.Form):
    """The trainer's address: which side's mistakes, which of them, and the learner's move."""

    side = forms.ChoiceField(
        choices=[(side, side) for side in SIDES],
        required=False,
        error_messages={"invalid_choice": "“%(value)s” is not a side: choose X, O or both."},
    )
    mistake = forms.IntegerField(
        min_value=1,
        required=False,
        error_messages={
            "invalid": "The mistake to try again is a number: 1 for the first.",
            "min_value": "The mistakes are numbered from 1.",
        },
    )
    cell = forms.IntegerField(
        min_value=0,
        required=False,
        error_messages={
            "invalid": "A move is a cell of the board: choose one of its empty cells.",
            "min_value": "A move is a cell of the board: choose one of its empty cells.",
        },
    )
    show = forms.BooleanField(required=False)


def _cells(board: engine.Board, move: engine.MoveReview, answer, analysis) -> list[dict]:
    """The board before the mistake: empty cells to play, the cell played in the game,
    the learner's answer and, once the answer is shown, every cell that keeps the outcome."""
    keep = reviews.to_keep(move)
    cells = []
    for index, mark in enumerate(str(board)):
        notes = []
        if index == move.cell:
            notes.append("played in the game")
        if answer is not None and index == answer.cell:
            notes.append("your move, " + ("it keeps the " + keep if answer.keeps else "it does not keep the " + keep))
        keeps = analysis is not None and index in analysis and analysis[index].outcome == keep
        if keeps and not (answer is not None and index == answer.cell):
            notes.append(f"keeps the {keep}")
        name = reviews.cell_name(index, board.size)
        cells.append(
            {
                "index": index,
                "mark": "" if mark == "." else mark,
                "played": index == move.cell,
                "answer": answer is not None and index == answer.cell,
                "right": answer is not None and index == answer.cell and answer.keeps,
                "keeps": keeps,
                "label": f"{name[:1].upper()}{name[1:]}, {mark if mark != '.' else 'empty'}"
                + "".join(f", {note}" for note in notes),
            }
        )
    return cells


@require_GET
def mistakes_page(request, pk: int):
    """One mistake of a finished game at a time: its position, a form to try a
    move (``?cell=``), the verdict, and the answer with its line (``?show=1``)."""
    try:
        game = selectors.game_detail(pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    player = current_player(request)
    yours = game.side_of(player.user, player.guest_key)
    form = AttemptForm(request.GET)
    form.is_valid()  # a bad field is left out of cleaned_data and named below
    errors = [error for field in form.errors.values() for error in field]
    chosen = form.cleaned_data
    side = chosen.get("side") or yours or "both"
    context = {"game": game, "yours": yours, "side": side, "sides": SIDES, "errors": errors}
    context["x_name"], context["o_name"] = game.player_name("X"), game.player_name("O")
    if game.status != Status.FINISHED:
        return render(request, "learn/mistakes.html", context, status=400 if errors else 200)

    reviewed = review_selectors.game_review(game)
    if reviewed is None:
        # The background worker reviews a game a moment after it ends: nothing to try yet.
        context["review_pending"] = True
        return render(request, "learn/mistakes.html", context, status=400 if errors else 200)
    every = {s: reviews.mistakes_of(reviewed.review, None if s == "both" else s) for s in SIDES}
    if not chosen.get("side") and side == yours and not every[yours]:
        # Nothing of yours to try again: the game's other mistakes are still worth a look.
        side, context["none_of_yours"] = "both", True
        context["side"] = side
    mistakes = every[side]
    number = chosen.get("mistake") or 1
    if mistakes and number > len(mistakes):
        who = "both sides made" if side == "both" else f"{side} made"
        errors.append(f"There is no mistake {number} here: {who} {len(mistakes)}.")
        number = 1
    listed = [
        {"number": i, "move": move, "name": reviews.cell_name(move.cell, game.size)}
        for i, move in enumerate(mistakes, start=1)
    ]
    context.update(
        counts={s: len(found) for s, found in every.items()}, mistakes=mistakes, listed=listed, number=number
    )
    if not mistakes:
        return render(request, "learn/mistakes.html", context, status=400 if errors else 200)

    move = mistakes[number - 1]
    board = game.board_at(move.ply)
    answer = None
    # Each legal cell's outcome, stored with the review for every mistake and blunder.
    analysis = reviewed.analyses[move.ply]
    cell = chosen.get("cell")
    if cell is not None:
        if cell >= board.size * board.size:
            errors.append(f"Cell {cell} is off the board: choose one of its empty cells.")
        elif board.cell(cell) != ".":
            name = reviews.cell_name(cell, board.size)
            errors.append(f"{name[:1].upper()}{name[1:]} is taken already: choose an empty cell.")
        else:
            answer = reviews.judge_answer(board, move, cell, analysis)
    shown = bool(chosen.get("show"))
    solved = shown or (answer is not None and answer.keeps)
    context.update(
        move=move,
        board=board,
        task=reviews.the_task(move, game.size),
        answer=answer,
        shown=shown,
        cells=_cells(board, move, answer, analysis if shown else None),
        lesson=reviews.move_lesson(game, reviewed, move.ply) if solved else None,
        previous=number - 1 if number > 1 else None,
        next=number + 1 if number < len(mistakes) else None,
    )
    return render(request, "learn/mistakes.html", context, status=400 if errors else 200)
