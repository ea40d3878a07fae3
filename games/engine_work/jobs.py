"""The searches a request may ask for, as jobs another process can run.

Each job takes and returns plain values (a position as its string first; the
engine's Analysis, Line and SearchTree pickle), so the pool
(:mod:`games.engine_work.pool`) can run it in an engine process, where a long
search holds no lock a page needs, and its answer can be kept in the cache.
Each returns ``(answer, seconds of search)``: what the visitor is charged. A
position the 5x5 tablebase answers costs next to nothing.
Like the engine, this module imports nothing from Django: an engine process
imports it and the engine only.
"""

from __future__ import annotations

import random
import time

from games import engine


def analysis(position: str, budget: float) -> tuple[engine.Analysis, float]:
    """Every legal cell's outcome, and the traps of those with the best
    outcome when ``budget`` seconds leave time for them."""
    return _analysed(engine.Board.from_string(position), budget)


def hint(position: str, budget: float, seed: int) -> tuple[tuple[engine.Analysis, int | None], float]:
    """The analysis, and the cell the hint recommends when every cell was
    solved in time (None otherwise: a hint is never a guess): a best cell,
    and among the best the one that leaves the opponent the most traps, when
    they were counted in time; ``seed`` breaks the ties that remain, the
    same way each time the game page asks."""
    found, searched = _analysed(engine.Board.from_string(position), budget)
    if not found.exact or not found:
        return (found, None), searched
    return (found, random.Random(seed).choice(found.best_trap_cells)), searched


def analysis_and_line(
    position: str, budget: float, line_budget: float
) -> tuple[tuple[engine.Analysis, engine.Line], float]:
    """(analysis, line of best play): the analysis within ``budget`` seconds,
    then the line within what is left of ``budget + line_budget``, at most
    ``line_budget``."""
    board = engine.Board.from_string(position)
    deadline = time.perf_counter() + budget + line_budget
    found, searched = _analysed(board, budget)
    left = min(line_budget, max(0.0, deadline - time.perf_counter()))
    line, lining = _timed(engine.principal_variation, board, budget=left)
    return (found, line), searched + lining


def toughest_reply(position: str, budget: float) -> tuple[int, float]:
    """The defender's longest resistance from ``position`` (the perfect move
    when ``budget`` seconds are not enough to choose among the best)."""
    return _timed(engine.toughest_reply, engine.Board.from_string(position), budget=budget)


def tree(position: str, algorithm: str, scoring: str, order: str, seed: int, depth: int | None) -> tuple:
    """The recorded search the tree explorer draws, and the positions each
    move order visits from ``position`` (with plain minimax's as "minimax")."""
    start = time.perf_counter()
    board = engine.Board.from_string(position)
    search = engine.search_tree(board, algorithm, scoring, order, seed, depth)
    counts = {"minimax": engine.nodes_visited(board, "minimax", scoring)}
    for each in engine.TREE_ORDERS:
        counts[each] = engine.nodes_visited(board, "alphabeta", scoring, each, seed)
    return (search, counts), time.perf_counter() - start


def depth_limited(position: str, depth: int, algorithm: str, budget: float) -> tuple:
    """The depth-limited search of ``position``, ``depth`` moves deep with the
    evaluation function, alpha-beta trying the centre first, and the exact
    analysis beside it (within ``budget`` seconds) to show where the
    heuristic is wrong."""
    start = time.perf_counter()
    board = engine.Board.from_string(position)
    search = engine.horizon_tree(board, depth, algorithm, "centre")
    exact = engine.analyse(board, budget=budget)
    return (search, exact), time.perf_counter() - start


def _analysed(board: engine.Board, budget: float) -> tuple[engine.Analysis, float]:
    """The analysis with its traps (left out when ``budget`` runs out before
    them), and the seconds its search took: not the counting of what a
    textbook search would visit, which the overlay shows beside it."""
    found = engine.analyse(board, budget=budget, traps=True)
    return found, found.stats.seconds


def _timed(search, *args, **kwargs):
    start = time.perf_counter()
    return search(*args, **kwargs), time.perf_counter() - start
