"""The solvers a process keeps: one exact solver per board size, made on first
use, searching in the compiled core when it is built, the 5x5 one with its
tablebase. Apart from the solver itself so that the tablebase (which needs the
solver to be built and checked) and the solver (which it feeds) do not import
each other.
"""

from __future__ import annotations

import threading

from games.rules import GEOMETRY
from games.search import core, tablebase
from games.search.solver import ExactSolver

_SOLVERS: dict[int, ExactSolver] = {}
_SOLVERS_LOCK = threading.Lock()


def solver_for(size: int) -> ExactSolver:
    """The process's exact solver for a size, made on first use.

    On 4x4 the first call solves every distinct first move and the best replies
    to it (a fraction of a second), which keeps every later move fast. On 5x5
    it maps the tablebase; without one (missing or damaged) it still solves
    every position, only more slowly. Without the compiled core it searches
    in Python, with the same answers.
    """
    solver = _SOLVERS.get(size)
    if solver is not None:
        return solver
    with _SOLVERS_LOCK:
        solver = _SOLVERS.get(size)
        if solver is not None:
            return solver
        geo = GEOMETRY[size]
        library = core.load_or_none()
        search = core.CoreSearch(library, geo, ExactSolver.SYMMETRY_PLIES) if library is not None else None
        if size == 5:
            solver = ExactSolver(geo, tablebase=tablebase.load_or_none(), core=search)
        else:
            solver = ExactSolver(geo, core=search)
            for cell in sorted({min(perm[c] for perm in geo.symmetries) for c in range(geo.cells)}):
                opening = solver.exact(0, 1 << cell)  # O to move after X's first move
                for _ in solver.best_cells(0, 1 << cell, opening, (c for c in geo.order if c != cell)):
                    break  # and prove one reply that keeps that score
        _SOLVERS[size] = solver
    return solver
