"""Analyse a position: every legal cell's exact outcome for the player to move.

An :class:`Analysis` maps each legal cell to its :class:`Evaluation` (win,
draw or loss and in how many moves, or ``UNSOLVED`` when the time budget ran
out first) and carries :class:`SearchStats`: the work the search did, beside
what simpler searches would have done (``games.search.counts``). Complete
analyses are remembered, so a second question about a position is free.

Asked for, it also counts each move's **traps** (:func:`count_traps`): the
opponent's replies that would give up part of the opponent's exact outcome (a
win thrown to a draw or a loss, a draw thrown to a loss; the replies a review
labels mistake or blunder). Among moves with the same exact outcome, the one
with more traps gives the opponent more ways to go wrong.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from games.rules import Board
from games.search.counts import minimax_nodes, textbook_nodes
from games.search.registry import solver_for
from games.search.solver import PROVEN, WIN, ExactSolver, Timeout, child_score_3

# --------------------------------------------------------------------------
# Evaluations and statistics.

#: Words for each outcome of a move, for the player making it.
OUTCOMES = ("win", "draw", "loss", "unsolved")


@dataclass(frozen=True)
class Evaluation:
    """What a move is worth to the player making it, under perfect play.

    ``outcome`` is "win", "draw" or "loss", or "unsolved" when a search ran out
    of its time budget before proving anything (it never guesses). ``plies``
    counts the moves to the end of the game, this one included (None when
    unsolved). ``exact`` is False only for "unsolved".
    """

    outcome: str
    plies: int | None
    score: int
    exact: bool = True

    def __str__(self) -> str:
        if self.outcome == "draw":
            return "draw"
        if self.outcome == "unsolved":
            return "not solved in time"
        return f"{self.outcome} in {self.plies}"

    def to_dict(self) -> dict:
        """As plain values (for JSON): :meth:`from_dict` gives the same Evaluation back."""
        return {"outcome": self.outcome, "plies": self.plies, "score": self.score, "exact": self.exact}

    @classmethod
    def from_dict(cls, data: dict) -> Evaluation:
        """The Evaluation :meth:`to_dict` made ``data`` of."""
        return cls(data["outcome"], data["plies"], data["score"], data["exact"])


UNSOLVED = Evaluation("unsolved", None, 0, exact=False)


@dataclass(frozen=True)
class SearchStats:
    """How much work a search did, beside what simpler searches would have done.

    ``nodes`` are the positions this search visited: alpha-beta with its memory
    (transposition table, symmetry, on 5x5 the tablebase), so a position it
    already knows costs almost nothing. ``textbook_nodes`` is what a textbook
    alpha-beta (no memory, cells in index order, a full window for each cell)
    visits for the same answer, and ``minimax_nodes`` what a plain minimax
    visits: the whole game tree. Each ``*_exact`` flag is False where counting
    stopped early: the figure is then a lower bound ("more than"), never more
    than the true count.
    """

    nodes: int
    seconds: float
    depth: int | None
    textbook_nodes: int
    textbook_nodes_exact: bool
    minimax_nodes: int
    minimax_nodes_exact: bool


class Analysis(dict):
    """``{cell: Evaluation}`` for every legal cell, with the search's ``stats``.

    ``exact`` is False when some cell was not solved within the budget.
    ``traps`` is ``{cell: traps}`` for every cell whose outcome is the best
    cells' outcome (:func:`count_traps`), or None when they were not asked
    for or not counted in time: the outcomes stand without them.
    """

    def __init__(
        self, evaluations: dict[int, Evaluation], stats: SearchStats, exact: bool, traps: dict[int, int] | None = None
    ):
        super().__init__(evaluations)
        self.stats = stats
        self.exact = exact
        self._traps = None if traps is None else dict(traps)

    @property
    def traps(self) -> Mapping[int, int] | None:
        """``{cell: traps}``, read-only like the rest (see the class's docstring)."""
        return None if self._traps is None else MappingProxyType(self._traps)

    def _refuse(self, *args, **kwargs):
        raise TypeError("an Analysis cannot be changed: the engine hands the same one to every caller")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return Analysis, (dict(self), self.stats, self.exact, self._traps)

    @property
    def best_cells(self) -> list[int]:
        solved = {cell: e for cell, e in self.items() if e.exact}
        if not solved:
            return []
        top = max(e.score for e in solved.values())
        return sorted(cell for cell, e in solved.items() if e.score == top)

    @property
    def best_trap_cells(self) -> list[int]:
        """The best cells that leave the opponent the most traps, lowest first
        (the best cells themselves when traps were not counted)."""
        best = self.best_cells
        if self.traps is None or not best:
            return best
        most = max(self.traps[cell] for cell in best)
        return [cell for cell in best if self.traps[cell] == most]


def evaluation(score: int, ply_after: int, cells: int) -> Evaluation:
    """Turn the mover's exact score for a move into an Evaluation.

    ``ply_after`` is the ply number once the move is made; the move itself counts.
    A drawn game ends on a full board, so a draw's distance is the cells left.
    """
    if score > PROVEN:
        return Evaluation("win", WIN - score - ply_after + 1, score)
    if score < -PROVEN:
        return Evaluation("loss", WIN + score - ply_after + 1, score)
    return Evaluation("draw", cells - ply_after + 1, 0)


# --------------------------------------------------------------------------
# Analyse, and remember what was analysed.

#: Default time budget of an analysis, in seconds. Within it every cell is
#: solved exactly; a cell not solved by then is reported "not solved in time".
DEFAULT_BUDGET = 5.0

# Analyses already made, newest last: a page that shows the hint and the
# overlay, or a hint then the AI's move, pays once. Only complete ones are kept.
_ANALYSES: OrderedDict[tuple[int, int, int], Analysis] = OrderedDict()
_ANALYSES_LIMIT = 512
_ANALYSES_LOCK = threading.Lock()


def _remember(board: Board, analysis: Analysis) -> None:
    with _ANALYSES_LOCK:
        _ANALYSES[board._geo.size, board._x, board._o] = analysis
        while len(_ANALYSES) > _ANALYSES_LIMIT:
            _ANALYSES.popitem(last=False)


def recalled(board: Board) -> Analysis | None:
    """The complete analysis of ``board`` made earlier, if it is still remembered."""
    with _ANALYSES_LOCK:
        return _ANALYSES.get((board._geo.size, board._x, board._o))


def forget() -> None:
    """Forget every analysis made so far, so the next one is searched afresh
    (what the bench measures)."""
    with _ANALYSES_LOCK:
        _ANALYSES.clear()


def analyse(board: Board, budget: float | None = None, *, traps: bool = False) -> Analysis:
    """Every legal cell's exact outcome for the player to move, and what it cost.

    Exact on every board. On 4x4 and 5x5 the search has ``budget`` seconds
    (default :data:`DEFAULT_BUDGET`); a cell it could not solve in that time is
    ``UNSOLVED`` ("not solved in time") and the analysis is not ``exact``.
    With ``traps``, once every cell is solved, the same budget also counts
    the traps of every cell whose outcome is the best one (``Analysis.traps``);
    when it runs out first, the traps are left out and the outcomes stand.
    """
    if not isinstance(board, Board):
        raise TypeError("analyse() takes a Board")
    legal = board.legal_moves
    if not legal:
        return Analysis({}, SearchStats(0, 0.0, 0, 1, True, 1, True), exact=True, traps={})
    start = time.perf_counter()
    deadline = start + (DEFAULT_BUDGET if budget is None else budget)
    found = recalled(board)
    if found is None:
        found = _analysed(board, deadline)
    if not traps or found.traps is not None or not found.exact:
        return found
    counted_from = time.perf_counter()
    nodes_before = _solver_nodes(board)
    try:
        counted = count_traps(board, found, _best_outcome_cells(found), deadline)
    except Timeout:
        return found
    stats = replace(
        found.stats,
        nodes=found.stats.nodes + _solver_nodes(board) - nodes_before,
        seconds=found.stats.seconds + time.perf_counter() - counted_from,
    )
    found = Analysis(dict(found), stats, exact=True, traps=counted)
    _remember(board, found)
    return found


def move_outcomes(board: Board, budget: float | None = None) -> dict[int, Evaluation]:
    """``{cell: Evaluation}`` for every legal cell, as :func:`analyse` gives
    them, without the figures beside them: what a textbook alpha-beta and a
    plain minimax would visit costs far more to count than the engine's own
    answer on 4x4 and 5x5, and work that asks about many positions and shows
    no figures (finding puzzles) does not need them. Exact on every board,
    within ``budget`` seconds (default :data:`DEFAULT_BUDGET`) on 4x4 and 5x5,
    a cell not solved by then ``UNSOLVED``. Empty once the game is over."""
    if not isinstance(board, Board):
        raise TypeError("move_outcomes() takes a Board")
    known = recalled(board)
    if known is not None:
        return dict(known)
    if board._geo.size == 3:
        return {cell: evaluation(child_score_3(board, cell), board.ply + 1, 9) for cell in board.legal_moves}
    evaluations, _nodes = _solved_cells(board, time.perf_counter() + (DEFAULT_BUDGET if budget is None else budget))
    return evaluations


def _solved_cells(board: Board, deadline: float) -> tuple[dict[int, Evaluation], int]:
    """On 4x4 and 5x5, every legal cell's outcome, solved by ``deadline``
    (perf_counter time) or UNSOLVED, and the positions the search visited."""
    me, opp = board._mover_masks()
    geo = board._geo
    solver = solver_for(geo.size)
    evaluations = {}
    with solver.lock:
        before = solver.nodes
        solver.deadline = deadline
        try:
            for cell in board.legal_moves:
                try:
                    evaluations[cell] = evaluation(solver.score_move(me, opp, cell), board.ply + 1, geo.cells)
                except Timeout:
                    evaluations[cell] = UNSOLVED
        finally:
            solver.deadline = None
        return evaluations, solver.nodes - before + 1


def _analysed(board: Board, deadline: float) -> Analysis:
    """Every legal cell's outcome, solved by ``deadline`` (perf_counter time) or UNSOLVED."""
    legal = board.legal_moves
    me, opp = board._mover_masks()
    geo = board._geo
    ply_after = board.ply + 1
    start = time.perf_counter()
    if geo.size == 3:
        # Values come from the solved table; the engine's own work is a search
        # with memory from scratch, so the overlay shows what it really costs.
        counter = ExactSolver(geo)
        for cell in legal:
            counter.score_move(me, opp, cell)
        evaluations = {cell: evaluation(child_score_3(board, cell), ply_after, geo.cells) for cell in legal}
        nodes = counter.nodes + 1
    else:
        evaluations, nodes = _solved_cells(board, deadline)
    seconds = time.perf_counter() - start
    textbook, textbook_exact = textbook_nodes(geo, me, opp)
    minimax, minimax_exact = minimax_nodes(board)
    if not minimax_exact:
        # A textbook alpha-beta walks part of the same game tree, so the tree
        # holds at least the positions it counted.
        minimax = max(minimax, textbook)
    stats = SearchStats(nodes, seconds, len(legal), textbook, textbook_exact, minimax, minimax_exact)
    exact = all(e.exact for e in evaluations.values())
    analysis = Analysis(evaluations, stats, exact=exact)
    if exact:
        _remember(board, analysis)
    return analysis


# --------------------------------------------------------------------------
# Traps: the opponent's ways to go wrong after a move.


def _best_outcome_cells(analysis: Analysis) -> list[int]:
    """The cells whose outcome (win, draw or loss) is the best cells' outcome."""
    best = analysis.best_cells
    if not best:
        return []
    outcome = analysis[best[0]].outcome
    return sorted(cell for cell, e in analysis.items() if e.outcome == outcome)


def _solver_nodes(board: Board) -> int:
    return 0 if board._geo.size == 3 else solver_for(board._geo.size).nodes


def count_traps(
    board: Board, evaluations: dict[int, Evaluation], cells: list[int], deadline: float | None
) -> dict[int, int]:
    """``{cell: traps}`` for each of ``cells``: how many of the opponent's
    replies after it give up part of the opponent's exact outcome.

    ``evaluations`` holds each cell's exact Evaluation for the mover. After a
    draw, a trap is a reply that loses; after a move that loses, a reply that
    does not win; after a move that wins (or ends the game) there are none:
    the opponent has nothing left to give up. Past ``deadline``
    (perf_counter time) on 4x4 and 5x5, ``Timeout``.
    """
    counted = {}
    for cell in cells:
        outcome = evaluations[cell].outcome
        after = board.play(cell)
        if outcome == "win" or after.is_game_over():
            counted[cell] = 0
        else:
            counted[cell] = sum(1 for reply in after.legal_moves if _gives_up(after, reply, outcome, deadline))
    return counted


def _gives_up(board: Board, reply: int, mover_outcome: str, deadline: float | None) -> bool:
    """Whether ``reply`` (by the player to move in ``board``) leaves that player
    worse off than its exact outcome, which is the opposite of the previous
    mover's ``mover_outcome``: "draw" (a trap loses) or "loss" (a trap does
    not win). A null-window search: the question is only which side of a
    bound the score lies on."""
    if board._geo.size == 3:
        score = child_score_3(board, reply)
        return score < -PROVEN if mover_outcome == "draw" else score <= PROVEN
    solver = solver_for(board._geo.size)
    me, opp = board._mover_masks()
    with solver.lock:
        solver.deadline = deadline
        try:
            if mover_outcome == "draw":  # a loss scores at most -PROVEN - 1
                return solver.score_move(me, opp, reply, -PROVEN - 1, -PROVEN) <= -PROVEN - 1
            return solver.score_move(me, opp, reply, PROVEN, PROVEN + 1) <= PROVEN  # a win scores above PROVEN
        finally:
            solver.deadline = None
