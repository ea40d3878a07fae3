"""Every legal cell's exact outcome, without the figures an analysis shows beside it.

:func:`games.search.analysis.analyse` also counts what a textbook alpha-beta
and a plain minimax would visit, for the pages that teach the search; that
counting costs far more than the engine's own answer on 4x4 and 5x5. Work
that asks about many positions and shows no figures (finding puzzles) asks
here: the same solver, the same evaluations, and a complete analysis made
earlier is used as it is.
"""

from __future__ import annotations

import time

from games.rules import Board
from games.search.analysis import DEFAULT_BUDGET, UNSOLVED, Evaluation, evaluation, recalled
from games.search.registry import solver_for
from games.search.solver import Timeout, child_score_3


def move_outcomes(board: Board, budget: float | None = None) -> dict[int, Evaluation]:
    """``{cell: Evaluation}`` for every legal cell, as :func:`analyse` gives
    them: exact on every board, within ``budget`` seconds (default
    :data:`DEFAULT_BUDGET`) on 4x4 and 5x5, a cell not solved by then
    ``UNSOLVED``. Empty once the game is over."""
    if not isinstance(board, Board):
        raise TypeError("move_outcomes() takes a Board")
    legal = board.legal_moves
    if not legal:
        return {}
    known = recalled(board)
    if known is not None:
        return dict(known)
    geo = board._geo
    ply_after = board.ply + 1
    if geo.size == 3:
        return {cell: evaluation(child_score_3(board, cell), ply_after, geo.cells) for cell in legal}
    me, opp = board._mover_masks()
    solver = solver_for(geo.size)
    evaluations = {}
    with solver.lock:
        solver.deadline = time.perf_counter() + (DEFAULT_BUDGET if budget is None else budget)
        try:
            for cell in legal:
                try:
                    evaluations[cell] = evaluation(solver.score_move(me, opp, cell), ply_after, geo.cells)
                except Timeout:
                    evaluations[cell] = UNSOLVED
        finally:
            solver.deadline = None
    return evaluations
