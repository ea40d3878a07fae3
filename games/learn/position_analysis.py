"""The analysis board's read: a position's every cell and its line of best
play, within the time a page may take.

A selector in the house's words: it reads (the engine, and the cache that
keeps answers already found) and writes nothing that matters. The page must
answer within the engine's own bound (``engine.DEFAULT_BUDGET``) on every
board, so the analysis and the line share that budget: the analysis first,
with most of it, then the line with what is left (at most
:data:`LINE_BUDGET`). On 3x3 and 4x4 both take milliseconds; only early 5x5
positions off the opening book come near the bound, and then a cell or the
line says "not solved in time" rather than guess.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass

from django.core.cache import cache

from games import engine
from games.learn import explain
from games.serving import engine_budget, engine_jobs, outages

#: Seconds of the page's budget the analysis may use; the line has the rest.
ANALYSIS_SHARE = 0.6
#: Seconds kept back from the budget for counting, drawing and sending the page.
MARGIN = 0.3
#: The most the line may take. From an early 5x5 position off the opening
#: book even the whole budget proves only a move or two; a learner is better
#: served by a quicker page that says where the proof stopped.
LINE_BUDGET = 1.5
#: How long an answer is kept, by whether it is complete. A complete one is
#: proven and never changes (the engine remembers complete analyses too, but
#: only the last few hundred). One cut short by the budget is kept briefly,
#: so stepping back and forth does not pay for the same search again, and
#: then searched afresh: the solver may have learnt enough meanwhile.
KEPT = {True: 24 * 3600, False: 300}


@dataclass(frozen=True)
class PositionAnalysis:
    board: engine.Board
    analysis: engine.Analysis
    line: engine.Line
    value: str  # the position's worth in words: "X wins in 5", "draw", "not solved in time"


def position_analysis(board: engine.Board, budget: float | None = None) -> PositionAnalysis:
    """Every legal cell's exact outcome and the line of best play from ``board``,
    in at most ``budget`` seconds of search (default ``engine.DEFAULT_BUDGET``)."""
    kept = _kept(board)
    if kept is None:
        budget = engine.DEFAULT_BUDGET if budget is None else budget
        share = budget * ANALYSIS_SHARE
        line_budget = min(LINE_BUDGET, max(0.0, budget - MARGIN - share))
        # Within the engine budget (games/serving/engine_budget.py): counted, in a free slot.
        analysis, line = engine_budget.search(
            engine_jobs.analysis_and_line, str(board), share, line_budget, budget=share + line_budget
        )
        _keep(board, analysis, line)
    else:
        analysis, line = kept
    return PositionAnalysis(board, analysis, line, explain.position_value(board, analysis, line))


def _key(board: engine.Board) -> str:
    return f"learn:analysis:{board}"


def _kept(board: engine.Board) -> tuple[engine.Analysis, engine.Line] | None:
    if board.size == 3:  # the solved table answers in microseconds: nothing to keep
        return None
    # The cache only saves work: while Redis is down the position is searched afresh.
    with suppress(*outages.REDIS_DOWN):
        kept = cache.get(_key(board))
        if kept is not None:
            analysis, cells, complete = kept
            return analysis, engine.Line(tuple(cells), complete)
    return None


def _keep(board: engine.Board, analysis: engine.Analysis, line: engine.Line) -> None:
    if board.size == 3:
        return
    with suppress(*outages.REDIS_DOWN):
        cache.set(_key(board), (analysis, list(line.cells), line.complete), KEPT[analysis.exact and line.complete])
