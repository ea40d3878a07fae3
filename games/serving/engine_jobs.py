"""The searches a request may ask for, as jobs another process can run.

Each job takes and returns plain values (a position as its string, cells as a
tuple; the engine's Analysis, Line and Review pickle), so the engine budget
(:mod:`games.serving.engine_budget`) can run it in a process of its own,
where a long search holds no lock a page needs. Like the engine, this module
imports nothing from Django: a worker process imports it and the engine only.
"""

from __future__ import annotations

import time

from games import engine


def analysis(position: str, budget: float) -> engine.Analysis:
    """Every legal cell's outcome, within ``budget`` seconds."""
    return engine.analyse(engine.Board.from_string(position), budget=budget)


def hint(position: str, budget: float, seed: int) -> tuple[engine.Analysis, int | None]:
    """The analysis, and the cell the perfect player picks (``seed`` breaks
    ties as the game page always has) when every cell was solved in time;
    None otherwise: a hint is never a guess. The engine remembers a complete
    analysis, so picking the cell costs no second search."""
    board = engine.Board.from_string(position)
    found = engine.analyse(board, budget=budget)
    if not found.exact or not found:
        return found, None
    return found, engine.best_move(board, "perfect", seed=seed)


def analysis_and_line(position: str, budget: float, line_budget: float) -> tuple[engine.Analysis, engine.Line]:
    """(analysis, line of best play): the analysis within ``budget`` seconds,
    then the line within what is left of ``budget + line_budget``, at most
    ``line_budget``."""
    board = engine.Board.from_string(position)
    deadline = time.perf_counter() + budget + line_budget
    found = engine.analyse(board, budget=budget)
    line = engine.principal_variation(board, budget=min(line_budget, max(0.0, deadline - time.perf_counter())))
    return found, line


def line(position: str, budget: float) -> engine.Line:
    """The line of best play from ``position``, within ``budget`` seconds."""
    return engine.principal_variation(engine.Board.from_string(position), budget=budget)


def review(cells: tuple[int, ...], size: int, budget: float | None = None) -> engine.Review:
    """Every move of a finished game labelled, within ``budget`` seconds."""
    return engine.review(cells, size=size, budget=budget)


def perfect_move(position: str, seed: int) -> int:
    """The perfect player's move (no budget of its own: in the pool it is
    bounded by the pool's time limit)."""
    return engine.best_move(engine.Board.from_string(position), "perfect", seed=seed)
