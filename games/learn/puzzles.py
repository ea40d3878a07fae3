"""The puzzle pages: the themes and boards, a board's puzzles (of one theme or
all), and solving one move by move.

Solving changes nothing stored, so every page is a GET: the board is a form
whose buttons add a cell to the moves in the address (``?played=2,8``), and
the page replays those moves with the engine each time (``games.learn.solving``):
the address is never trusted, and a shared one shows the same attempt. With
JavaScript, puzzles.js fetches the same page with an ``X-Partial`` header and
swaps in the puzzle panel, so a move and its reply appear without a reload.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import engine
from games.learn import puzzle_selectors, solving
from games.learn.engine_pages import answers_for_the_engine
from games.learn.models import Puzzle, Theme
from games.play.models import Variant

#: Puzzles on a page of a board's list.
PUZZLES_PER_PAGE = 24


@require_GET
def puzzles(request):
    """Today's puzzle (templates/learn/_daily_puzzle.html finds it), the
    themes with their puzzles on each board, and how many each board has."""
    boards = puzzle_selectors.puzzles_by_board()
    return render(
        request,
        "learn/puzzles.html",
        {"boards": boards, "themes": puzzle_selectors.puzzles_by_theme(), "any": any(b["count"] for b in boards)},
    )


@require_GET
def puzzle_board(request, variant: str):
    """A board's puzzles, theme by theme, easiest first; ``?theme=`` shows one theme's."""
    if variant not in Variant.values:
        raise Http404("No such board")
    theme = request.GET.get("theme", "")
    error = ""
    if theme and theme not in Theme.values:
        names = ", ".join(f'"{value}" ({label.lower()})' for value, label in Theme.choices)
        error = f"There is no puzzle theme {theme[:30]!r}: the themes are {names}. Here are all the board's puzzles."
        theme = ""
    puzzles = puzzle_selectors.puzzles_on(variant, theme or None)
    page = Paginator(puzzles, PUZZLES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "learn/puzzle_board.html",
        {
            "variant": Variant(variant),
            "theme": Theme(theme) if theme else None,
            "page": page,
            "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
            "boards": puzzle_selectors.puzzles_by_board(),
            "themes": puzzle_selectors.puzzles_by_theme(variant),
            "error": error,
        },
        status=400 if error else 200,
    )


@require_GET
@answers_for_the_engine
def puzzle(request, pk: int):
    """One puzzle: ``?played=`` holds the learner's moves so far, ``cell`` adds
    one (the board's buttons), ``solution=1`` gives up and shows the line."""
    try:
        found = puzzle_selectors.puzzle_detail(pk)
    except Puzzle.DoesNotExist:
        raise Http404("No such puzzle") from None
    error = ""
    try:
        played = _cells(request.GET.get("played", "")) + _cells(request.GET.get("cell", ""))
        attempt = solving.attempt(found.position, found.win_in, played, request=request)
    except (ValueError, solving.InvalidAttempt) as refusal:
        error = f"Those moves are not an answer to this puzzle: {refusal}. Here it is from the start."
        attempt = solving.attempt(found.position, found.win_in, [], request=request)
    gave_up = request.GET.get("solution") == "1" and not attempt.is_over
    context = puzzle_context(found, attempt, gave_up=gave_up, error=error)
    partial = request.headers.get("X-Partial") == "1"
    template = "learn/_puzzle.html" if partial else "learn/puzzle.html"
    return render(request, template, context, status=400 if error else 200)


def _cells(text: str) -> list[int]:
    """ "2,8" -> [2, 8]; anything but whole numbers is refused, saying what."""
    cells = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not (part.isascii() and part.isdigit()) or len(part) > 2:
            raise ValueError(f"{part[:10]!r} is not a cell")
        cells.append(int(part))
    if len(cells) > 13:  # the learner's moves on a full 5x5 board
        raise ValueError("there are more moves than the board has room for")
    return cells


def puzzle_context(found: Puzzle, attempt: solving.Attempt, *, gave_up: bool = False, error: str = "") -> dict:
    """Everything the puzzle panel shows, for the full page and the partial alike."""
    size = found.size
    board = attempt.board
    over = attempt.is_over or gave_up
    moves = attempt.moves
    last = moves[-1][0] if moves else None
    winning_line = set(board.winning_line or ())
    # Once it is over, the cells that would have won where the learner missed are marked.
    missed = attempt.steps[-1].winning_cells if attempt.status == solving.FAILED else ()
    if gave_up and not attempt.steps:
        missed = (found.cell,)
    # And the learner's own move that missed, with what it did instead.
    miss = attempt.steps[-1] if attempt.status == solving.FAILED else None
    played = ",".join(str(cell) for cell in attempt.played)
    cells = []
    for index, mark in enumerate(str(board)):
        cells.append(
            {
                "index": index,
                "mark": "" if mark == "." else mark,
                "playable": not over and mark == ".",
                "win": index in winning_line,
                "last": index == last,
                "answer": index in missed and mark == ".",
                "miss": miss is not None and index == miss.cell,
                "label": _cell_label(
                    index, size, mark, answer=index in missed and mark == ".", miss=miss, goal=found.goal
                ),
            }
        )
    here = found.get_absolute_url()
    return {
        "puzzle": found,
        "variant": Variant(found.variant),
        "attempt": attempt,
        "status": "gave_up" if gave_up else attempt.status,
        "over": over,
        "cells": cells,
        "side": found.side,
        "opponent": engine.other_side(found.side),
        "steps": attempt.steps,
        "solution": _solution(found) if over else [],
        "played": played,
        "here": here,
        "current_url": here + _query(played, gave_up),
        "error": error,
        "next_puzzle": puzzle_selectors.next_puzzle(found) if over else None,
        "board_url": reverse("games:puzzle_board", args=[found.variant]),
    }


def _query(played: str, gave_up: bool) -> str:
    """The address's query for this attempt: the moves, and whether the learner gave up."""
    parts = ([f"played={played}"] if played else []) + (["solution=1"] if gave_up else [])
    return "?" + "&".join(parts) if parts else ""


def _solution(found: Puzzle) -> list[dict]:
    """The stored line of best play, the learner's side first."""
    sides = (found.side, engine.other_side(found.side))
    return [
        _move(number, cell, sides[(number - 1) % 2], number % 2 == 1, found.size)
        for number, cell in enumerate(found.solution_cells, start=1)
    ]


def _move(number: int, cell: int, side: str, own: bool | None, size: int) -> dict:
    return {"number": number, "cell": cell, "side": side, "own": own, "row": cell // size + 1, "col": cell % size + 1}


#: What a move that missed did instead, as a cell's label ends.
_MISSED = {"slower": "which wins too slowly", "draws": "which lets {them} draw", "loses": "which loses"}


def _cell_label(index: int, size: int, mark: str, *, answer: bool, miss: solving.Step | None, goal: str) -> str:
    row, col = divmod(index, size)
    text = f"Cell {index}, row {row + 1}, column {col + 1}, {mark if mark != '.' else 'empty'}"
    if answer:
        return text + (": the winning move" if goal == "win" else ": the move that does not lose")
    if miss is not None and miss.cell == index:
        return text + ": your move, " + _MISSED[miss.verdict].format(them=engine.other_side(miss.side))
    return text
