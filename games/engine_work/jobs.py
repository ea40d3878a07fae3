"""The searches a request may ask for, as jobs another process can run.

Each job takes and returns plain values (a position as its string first; the
engine's Analysis, Line and SearchTree pickle), so the pool
(:mod:`games.engine_work.pool`) can run it in an engine process, where a long
search holds no lock a page needs, and its answer can be kept in the cache.
Like the engine, this module imports nothing from Django: an engine process
imports it and the engine only.
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


def perfect_move(position: str, seed: int) -> int:
    """The perfect player's move (no budget of its own: in the pool it is
    bounded by the pool's time limit)."""
    return engine.best_move(engine.Board.from_string(position), "perfect", seed=seed)


def tree(position: str, algorithm: str, scoring: str, order: str, seed: int, depth: int | None) -> tuple:
    """The recorded search the tree explorer draws, and the positions each
    move order visits from ``position`` (with plain minimax's as "minimax")."""
    board = engine.Board.from_string(position)
    search = engine.search_tree(board, algorithm, scoring, order, seed, depth)
    counts = {"minimax": engine.nodes_visited(board, "minimax", scoring)}
    for each in engine.TREE_ORDERS:
        counts[each] = engine.nodes_visited(board, "alphabeta", scoring, each, seed)
    return search, counts


def timed(job, *args):
    """(``job(*args)``, the seconds it took): what an engine process hands back,
    so the visitor is charged the time the search really took."""
    start = time.perf_counter()
    result = job(*args)
    return result, time.perf_counter() - start
