"""The analysis board: any position on any board, every free cell's exact
outcome in words, and the line of best play to step through.

The whole state is in the address, so any position can be shared by its link
and the page works without JavaScript: every free cell is a link to the
position after that move, the arrows are links along the line, and pasting a
position is a GET form. The scheme (``board``, ``moves``, ``ply``) is
described in :mod:`games.learn.positions`:

    /analysis/                                   the empty 3x3 board
    /analysis/?board=X...O....                   that position
    /analysis/?moves=4,0,8&ply=2                 3x3 after 4 and 0, with 8 one step ahead
    /analysis/?board=................&moves=5    4x4 after its first move

A whole game is imported with ``game``: the site's notation (a game page's
download, docs/notation.md) or a plain list of moves, which opens the board
after its last move; text that is not a game is shown again with what is
wrong in it (status 400).

A link that cannot be read whole shows what it can with a message saying
what was wrong (status 400), never an error page. A 4x4 or 5x5 position not
analysed before sets the engine searching: the page says so and reloads
itself until the answer is ready (:mod:`games.learn.engine_pages`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import engine, notation
from games.learn import explain, positions
from games.learn.engine_pages import answers_for_the_engine
from games.learn.position_analysis import PositionAnalysis, position_analysis
from games.play import chances

#: The longest game text the import reads (a downloaded game is a few hundred characters).
LONGEST_IMPORT = 4000

#: The empty boards a learner can start from.
EMPTY_BOARDS = ((3, "3×3"), (4, "4×4"), (5, "5×5, four in a row"))


@require_GET
@answers_for_the_engine
def analysis(request):
    """The analysis board for the position the link carries, or for the game
    imported (see the module's docstring)."""
    imported = request.GET.get("game")
    if imported is not None:
        try:
            record = notation.parse(imported[:LONGEST_IMPORT])
        except notation.NotationError as error:
            return _show(request, positions.read_link(None, None, None), import_text=imported, import_problem=error)
        start = engine.Board.empty(record.size)
        return redirect(reverse("games:analysis") + positions.analysis_query(start, record.moves))
    link = positions.read_link(request.GET.get("board"), request.GET.get("moves"), request.GET.get("ply"))
    return _show(request, link)


def _show(request, link: positions.AnalysisLink, import_text: str = "", import_problem=None):
    found = position_analysis(request, link.board)
    context = analysis_context(link, found, base=reverse("games:analysis"))
    context["share_url"] = request.build_absolute_uri(context["here"])
    # A position that could not be read stays in the box, to be put right.
    context["position_text"] = (request.GET.get("board") or "")[:100] if context["board_problem"] else str(link.board)
    context["import_text"] = import_text[:LONGEST_IMPORT]
    context["import_problem"] = str(import_problem) if import_problem else ""
    bad = link.problems or import_problem
    return render(request, "learn/analysis.html", context, status=400 if bad else 200)


def analysis_context(link: positions.AnalysisLink, found: PositionAnalysis, base: str) -> dict:
    """Everything the page shows: the board's cells, the steps along the line,
    the line of best play, and the links out of here."""
    board, analysis = found.board, found.analysis
    shown, first, last = link.shown_ply, link.first_ply, link.last_ply
    problems = {problem.parameter: problem.message for problem in link.problems}
    return {
        "board": board,
        "variant": board.variant,
        "mover": board.to_move,
        "value": found.value,
        "analysis": analysis,
        "cells": _cells(link, found, base),
        "all_equal": _all_equal(analysis),
        "traps_legend": chances.traps_legend(board, analysis),
        "marks_best": bool(_best_marked(found)),
        "unsolved": any(e.outcome == "unsolved" for e in analysis.values()),
        "here": base + link.query(),
        "shown_ply": shown,
        "first_ply": first,
        "last_ply": last,
        "steps": {
            "first": base + link.at(first).query(),
            "prev": base + link.at(shown - 1).query(),
            "next": base + link.at(shown + 1).query(),
            "last": base + link.at(last).query(),
        },
        "moves": [
            {
                "ply": first + i + 1,
                "side": engine.side_to_move(first + i),
                "name": explain.cell_name(cell, board.size),
                "url": base + link.at(first + i + 1).query(),
                "ahead": first + i + 1 > shown,
            }
            for i, cell in enumerate(link.moves)
        ],
        "start_url": base + link.at(first).query(),
        "line": found.line,
        "line_moves": [
            {
                "move": move,
                "name": explain.cell_name(move.cell, board.size),
                "url": base + link.followed_by(found.line.cells, move.number).query(),
            }
            for move in explain.line_moves(board, found.line)
        ],
        "line_end": explain.line_end(board, found.line),
        "problems": link.problems,
        "board_problem": problems.get("board", ""),
        "empty_boards": [
            (label, base + positions.analysis_query(engine.Board.empty(size))) for size, label in EMPTY_BOARDS
        ],
        **_tree_link(board),
    }


def _tree_link(board: engine.Board) -> dict:
    """The tree explorer's link for this position (``tree_url``); for one too
    big to draw whole, the depth-limited search's (``depth_url``) and why
    (``tree_refused``); none once the game is over."""
    if board.is_game_over():
        return {"tree_url": "", "depth_url": "", "tree_refused": ""}
    try:
        engine.check_searchable(board)
    except ValueError as refusal:
        return {
            "tree_url": "",
            "depth_url": f"{reverse('games:tree_depth')}?{urlencode({'board': str(board)})}",
            "tree_refused": f"The whole tree is not drawn here: {refusal}.",
        }
    return {
        "tree_url": f"{reverse('games:tree')}?{urlencode({'board': str(board)})}",
        "depth_url": "",
        "tree_refused": "",
    }


def _cells(link: positions.AnalysisLink, found: PositionAnalysis, base: str) -> list[dict]:
    board, analysis = found.board, found.analysis
    best = _best_marked(found)
    winning = set(board.winning_line or ())
    last = link.played[-1] if link.played else None
    # Where every cell has the same outcome, each also says how many traps it leaves.
    traps = analysis.traps if chances.traps_shown(analysis) else {}
    cells = []
    for index, mark in enumerate(str(board)):
        name = explain.cell_name(index, board.size).capitalize()
        evaluation = analysis.get(index)
        cell = {
            "index": index,
            "mark": "" if mark == "." else mark,
            "win": index in winning,
            "last": index == last,
            "best": index in best,
            "evaluation": evaluation,
        }
        if evaluation is not None:
            words = explain.outcome_words(evaluation, board.to_move)
            cell["who"], cell["when"] = explain.winner_and_distance(evaluation, board.to_move)
            cell["url"] = base + link.after(index).query()
            cell["label"] = f"{name}: {words}{', a best move' if index in best else ''}"
            if index in traps:
                cell["traps"] = chances.short_traps(traps[index])
                going_wrong = chances.ways_to_go_wrong(traps[index], evaluation.outcome)
                cell["label"] += f", leaves {engine.other_side(board.to_move)} {going_wrong}"
        elif mark == ".":
            cell["label"] = f"{name}, empty"
        else:
            notes = (", the last move" if index == last else "") + (", in the winning line" if index in winning else "")
            cell["label"] = f"{name}, {mark}{notes}"
        cells.append(cell)
    return cells


def _all_equal(analysis) -> bool:
    """Every cell solved, and each as good as the next."""
    return bool(analysis) and analysis.exact and set(analysis.best_cells) == set(analysis)


def _best_marked(found: PositionAnalysis) -> set[int]:
    """The cells marked as best moves: none when every cell is as good as the
    next (a board of rings would say nothing), nor when a cell was not solved
    in time (it might be better than the best of those solved)."""
    analysis = found.analysis
    return set() if _all_equal(analysis) or not analysis.exact else set(analysis.best_cells)
