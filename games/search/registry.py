"""The solvers a process keeps: one exact solver per board size, made on first
use, the 5x5 one with its opening book. Apart from the solver itself so that
the book (which needs the solver to be built and checked) and the solver
(which the book feeds) do not import each other.
"""

from __future__ import annotations

import threading

from games.rules import GEOMETRY
from games.search import book as opening_book
from games.search.solver import ExactSolver

_SOLVERS: dict[int, ExactSolver] = {}
_SOLVERS_LOCK = threading.Lock()


def solver_for(size: int) -> ExactSolver:
    """The process's exact solver for a size, made on first use.

    On 4x4 the first call solves every distinct first move and the best replies
    to it (a fraction of a second), which keeps every later move fast. On 5x5
    it loads the opening book; without one (missing or damaged) it still
    solves every position, only more slowly.
    """
    solver = _SOLVERS.get(size)
    if solver is not None:
        return solver
    with _SOLVERS_LOCK:
        solver = _SOLVERS.get(size)
        if solver is not None:
            return solver
        geo = GEOMETRY[size]
        if size == 5:
            book = opening_book.load_or_none()
            if book:
                solver = ExactSolver(geo, book=book.scores, book_line=book.line, book_plies=book.max_ply)
            else:
                solver = ExactSolver(geo)
        else:
            solver = ExactSolver(geo)
            for cell in sorted({min(perm[c] for perm in geo.symmetries) for c in range(geo.cells)}):
                opening = solver.exact(0, 1 << cell)  # O to move after X's first move
                for _ in solver.best_cells(0, 1 << cell, opening, (c for c in geo.order if c != cell)):
                    break  # and prove one reply that keeps that score
        _SOLVERS[size] = solver
    return solver
