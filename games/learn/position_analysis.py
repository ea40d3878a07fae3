"""The analysis board's read: a position's every cell and its line of best
play, within the time a page may take.

A selector in the house's words: it reads (the engine, and the cache that
keeps lines already found) and writes nothing that matters. The page must
answer within the engine's own bound (``engine.DEFAULT_BUDGET``) on every
board, so the analysis and the line share that budget: the analysis first,
with most of it, then the line with what is left (at most
:data:`LINE_BUDGET`). On 3x3 and 4x4 both take milliseconds; only early 5x5
positions off the opening book come near the bound, and then a cell or the
line says "not solved in time" rather than guess.
"""

from __future__ import annotations

import time
from contextlib import suppress
from dataclasses import dataclass

from django.core.cache import cache

from games import engine
from games.learn import explain
from games.serving import outages

#: Seconds of the page's budget the analysis may use; the line has the rest.
ANALYSIS_SHARE = 0.6
#: Seconds kept back from the budget for counting, drawing and sending the page.
MARGIN = 0.3
#: The most the line may take. From an early 5x5 position off the opening
#: book even the whole budget proves only a move or two; a learner is better
#: served by a quicker page that says where the proof stopped.
LINE_BUDGET = 1.5
#: How long a line found is kept. A complete line is proven and never changes;
#: one cut short by the budget is kept briefly, so stepping back and forth
#: does not pay for it again, and then searched afresh.
LINE_KEPT = {True: 24 * 3600, False: 300}


@dataclass(frozen=True)
class PositionAnalysis:
    board: engine.Board
    analysis: engine.Analysis
    line: engine.Line
    value: str  # the position's worth in words: "X wins in 5", "draw", "not solved in time"


def position_analysis(board: engine.Board, budget: float | None = None) -> PositionAnalysis:
    """Every legal cell's exact outcome and the line of best play from ``board``,
    in at most ``budget`` seconds of search (default ``engine.DEFAULT_BUDGET``)."""
    budget = engine.DEFAULT_BUDGET if budget is None else budget
    deadline = time.perf_counter() + max(0.0, budget - MARGIN)
    analysis = engine.analyse(board, budget=budget * ANALYSIS_SHARE)
    line = _line_of_best_play(board, min(LINE_BUDGET, max(0.0, deadline - time.perf_counter())))
    return PositionAnalysis(board, analysis, line, explain.position_value(board, analysis, line))


def _line_of_best_play(board: engine.Board, budget: float) -> engine.Line:
    if board.size == 3:  # a look-up in the solved table: nothing to keep
        return engine.principal_variation(board)
    key = f"learn:line:{board}"
    # The cache only saves work: while Redis is down the line is searched afresh.
    with suppress(*outages.REDIS_DOWN):
        kept = cache.get(key)
        if kept is not None:
            return engine.Line(tuple(kept[0]), kept[1])
    line = engine.principal_variation(board, budget=budget)
    with suppress(*outages.REDIS_DOWN):
        cache.set(key, (list(line.cells), line.complete), LINE_KEPT[line.complete])
    return line
