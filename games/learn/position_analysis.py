"""The analysis board's read: a position's every cell and its line of best
play, within the time a page may take.

The analysis and the line share one time bound (``engine.DEFAULT_BUDGET``):
the analysis first, with most of it, then the line with what is left (at most
:data:`LINE_BUDGET`). On 3x3 the answer is a table look-up; on 4x4 and 5x5
the search goes through the engine's queue (games/engine_work/), so the page
may be told to ask again (EngineWorking) while it runs. Every position is
solved well within the bound; should an overloaded machine run past it, a
cell or the line says "not solved in time" rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs
from games.learn import explain

#: Seconds of the page's budget the analysis may use; the line has the rest.
ANALYSIS_SHARE = 0.6
#: Seconds kept back from the budget for counting, drawing and sending the page.
MARGIN = 0.3
#: The most the line may take; past it the line says where the proof stopped.
LINE_BUDGET = 1.5


@dataclass(frozen=True)
class PositionAnalysis:
    board: engine.Board
    analysis: engine.Analysis
    line: engine.Line
    value: str  # the position's worth in words: "X wins in 5", "draw", "not solved in time"


def position_analysis(request, board: engine.Board, budget: float | None = None) -> PositionAnalysis:
    """Every legal cell's exact outcome and the line of best play from ``board``,
    in at most ``budget`` seconds of search (default ``engine.DEFAULT_BUDGET``),
    charged to ``request``'s visitor."""
    budget = engine.DEFAULT_BUDGET if budget is None else budget
    share = budget * ANALYSIS_SHARE
    line_budget = min(LINE_BUDGET, max(0.0, budget - MARGIN - share))
    analysis, line = asking.ask(
        request,
        engine_jobs.analysis_and_line,
        str(board),
        share,
        line_budget,
        budget=share + line_budget,
        complete=_complete,
    )
    return PositionAnalysis(board, analysis, line, explain.position_value(board, analysis, line))


def _complete(found) -> bool:
    analysis, line = found
    return analysis.exact and analysis.traps is not None and line.complete
