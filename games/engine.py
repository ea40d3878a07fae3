"""Tic-tac-toe rules, perfect play, weaker play on purpose, and explanations.

Pure Python: nothing here imports Django, touches a database or keeps mutable
state that a caller can see. The rules of the three variants (3x3, three in a
row; 4x4 and 5x5, four in a row) and the immutable :class:`Board` live in
``games.rules``; this module is the one the rest of the site imports.

Scores inside the searches are from the point of view of the player to move and
count plies from the start of the game: a win completed at ply ``p`` scores
``WIN - p`` for the winner and ``p - WIN`` for the loser, a draw scores 0. A
position therefore has one score whatever path led to it (so transposition
tables can share it), and maximising it wins as soon as possible and, when lost,
loses as late as possible: the cure for the "fatalist" player that does not
bother to block because every move loses anyway.

Every board is solved exactly: 3x3 by a table made at import, 4x4 and 5x5 by
alpha-beta with a transposition table, and on 5x5 an opening book of solved
positions near the start (``games.search.book``, built by ``scripts/build_book``).
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable, Sequence

from games.rules import (
    GEOMETRY,
    VARIANTS,
    Board,
    Geometry,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    cells_of,
    completes_line,
)

__all__ = [
    "Board",
    "Evaluation",
    "UNSOLVED",
    "Analysis",
    "SearchStats",
    "MoveReview",
    "Review",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LABELS",
    "LEVELS",
    "OUTCOMES",
    "UNBEATABLE_LEVEL",
    "START_MODES",
    "VARIANTS",
    "best_move",
    "analyse",
    "review",
    "opening_move",
]

LEVELS = ("easy", "medium", "hard", "perfect")
START_MODES = ("centre", "random", "minimax")

WIN = 1000  # a win at ply p scores WIN - p; no game is longer than 25 plies
_PROVEN = WIN - 100  # any |score| above this is a proven win or loss
_INF = 10 * WIN


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


UNSOLVED = Evaluation("unsolved", None, 0, exact=False)


@dataclass(frozen=True)
class SearchStats:
    """How much work a search did, beside what simpler searches would have done.

    ``nodes`` are the positions this search visited: alpha-beta with its memory
    (transposition table, symmetry, on 5x5 the opening book), so a position it
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
    """

    def __init__(self, evaluations: dict[int, Evaluation], stats: SearchStats, exact: bool):
        super().__init__(evaluations)
        self.stats = stats
        self.exact = exact

    def _refuse(self, *args, **kwargs):
        raise TypeError("an Analysis cannot be changed: the engine hands the same one to every caller")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return Analysis, (dict(self), self.stats, self.exact)

    @property
    def best_cells(self) -> list[int]:
        solved = {cell: e for cell, e in self.items() if e.exact}
        if not solved:
            return []
        top = max(e.score for e in solved.values())
        return sorted(cell for cell, e in solved.items() if e.score == top)


def _evaluation(score: int, ply_after: int, cells: int) -> Evaluation:
    """Turn the mover's exact score for a move into an Evaluation.

    ``ply_after`` is the ply number once the move is made; the move itself counts.
    A drawn game ends on a full board, so a draw's distance is the cells left.
    """
    if score > _PROVEN:
        return Evaluation("win", WIN - score - ply_after + 1, score)
    if score < -_PROVEN:
        return Evaluation("loss", WIN + score - ply_after + 1, score)
    return Evaluation("draw", cells - ply_after + 1, 0)


# --------------------------------------------------------------------------
# Exact search: alpha-beta with a transposition table, for 4x4 and 5x5.


class _Timeout(Exception):
    """A search ran past its deadline."""


@functools.cache
def _symmetry_tables(geo: Geometry) -> list[list[list[int]]]:
    """Per symmetry (the identity left out), per byte of a key ``x | o << cells``,
    the image of each of the 256 byte values: a key maps in a few look-ups."""
    width = 2 * geo.cells
    nbytes = (width + 7) // 8
    tables = []
    for perm in geo.symmetries[1:]:
        full_perm = list(perm) + [geo.cells + p for p in perm]
        per_byte = []
        for b in range(nbytes):
            row = []
            for value in range(256):
                out = 0
                for bit in range(8):
                    src = b * 8 + bit
                    if value >> bit & 1 and src < width:
                        out |= 1 << full_perm[src]
                row.append(out)
            per_byte.append(row)
        tables.append(per_byte)
    return tables


def _has_pairing(lines: tuple[int, ...]) -> bool:
    """Whether every line (a mask of its empty cells) can have two empty cells
    of its own, no cell shared between lines.

    If so, that side can never complete any of these lines: whenever it takes
    one cell of a line's pair, the other side takes the other (the classic
    pairing strategy of positional games). Found by augmenting paths, each line
    asking for two slots.
    """
    forced = 0
    for empties in lines:
        if empties.bit_count() == 2:  # a line with two free cells has only one pair
            if forced & empties:
                return False
            forced |= empties
    slots = []
    for empties in lines:
        cells = cells_of(empties)
        slots.append(cells)
        slots.append(cells)
    owner: dict[int, int] = {}

    def place(slot: int, seen: set[int]) -> bool:
        for cell in slots[slot]:
            if cell in seen:
                continue
            seen.add(cell)
            holder = owner.get(cell)
            if holder is None or place(holder, seen):
                owner[cell] = slot
                return True
        return False

    return all(place(slot, set()) for slot in range(len(slots)))


# Transposition-table entries are packed into one int to keep memory down:
# the lower and upper bound (offset by _INF) and the best cell plus one.
_BOUND_BITS = 15
_BOUND_MASK = (1 << _BOUND_BITS) - 1


class _ExactSolver:
    """Alpha-beta over (mover, other) bitmasks with a symmetry-reduced memory.

    Exact for any position. Cheap facts prune first: an immediate win, a double
    threat, a single threat that forces the reply, lines a side can no longer
    complete (too few moves left, or the other side can pair them off), and
    cells on no live line at all, of which one stands for all. Then a
    transposition table keyed by the position's canonical form keeps bounds
    across calls, so a second question about a nearby position is almost free;
    on 5x5 an opening book of solved positions answers near the start.

    Memory is bounded: past ``table_limit`` entries the table starts afresh.
    One search runs at a time (``lock``); ``deadline`` (a perf_counter time)
    stops a search with ``_Timeout``, leaving only proven entries behind.
    """

    # Mirrored and rotated twins are common early and rare late, where the
    # look-up would cost more than it saves.
    SYMMETRY_PLIES = 8
    _PAIRING_MEMO_LIMIT = 200_000

    def __init__(
        self,
        geo: Geometry,
        book: dict[int, int] | None = None,
        book_line: frozenset[int] = frozenset(),
        book_plies: int = -1,
        table_limit: int = 1_000_000,
    ):
        self.geo = geo
        self.table: dict[int, int] = {}
        self.table_limit = table_limit
        self.nodes = 0
        self.deadline: float | None = None
        self.book = book or {}
        self.book_line = book_line
        # Book keys are canonical, and only plies up to SYMMETRY_PLIES have one.
        self.book_plies = min(book_plies, self.SYMMETRY_PLIES) if self.book else -1
        self.lock = threading.RLock()
        self._pairings: dict[tuple[int, ...], bool] = {}
        self._sym_tables = _symmetry_tables(geo) if geo.size > 3 else []

    def canonical(self, key: int) -> int:
        """The smallest image of a key ``me | opp << cells`` under the board's symmetries."""
        best = key
        for t in self._sym_tables:
            image = 0
            k = key
            for row in t:
                image |= row[k & 255]
                k >>= 8
            if image < best:
                best = image
        return best

    def _cannot_complete(self, lines: list[int]) -> bool:
        memo = self._pairings
        key = tuple(lines)
        answer = memo.get(key)
        if answer is None:
            if len(memo) > self._PAIRING_MEMO_LIMIT:
                memo.clear()
            answer = memo[key] = _has_pairing(key)
        return answer

    def search(self, me: int, opp: int, alpha: int, beta: int, lines: Sequence[int] | None = None) -> int:
        """The exact score of the position for the mover if it lies in (alpha, beta);
        otherwise a bound on the right side of the window."""
        self.nodes += 1
        if not self.nodes & 1023 and self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout
        geo = self.geo
        occupied = me | opp
        empty = geo.full & ~occupied
        if not empty:
            return 0
        ply = occupied.bit_count()
        first = -1
        raw = me | opp << geo.cells
        key = self.canonical(raw) if ply <= self.SYMMETRY_PLIES else raw
        if ply <= self.book_plies:
            known = self.book.get(key)
            if known is not None:
                return known
        packed = self.table.get(key)
        if packed is not None:
            t_lo = (packed & _BOUND_MASK) - _INF
            t_hi = (packed >> _BOUND_BITS & _BOUND_MASK) - _INF
            if t_lo >= beta:
                return t_lo
            if t_hi <= alpha:
                return t_hi
            if t_lo == t_hi:
                return t_lo
            if t_lo > alpha:
                alpha = t_lo
            if t_hi < beta:
                beta = t_hi
            if key == raw:  # the remembered move belongs to this orientation
                first = (packed >> 2 * _BOUND_BITS) - 1

        left = geo.cells - ply
        mine_left, theirs_left = (left + 1) // 2, left // 2
        k = geo.k
        threats = 0
        my_lines: list[int] = []  # lines the mover can still complete, as their empty cells
        their_lines: list[int] = []
        # The lines either side can still complete: all that the positions below
        # need to look at, since a line nobody can complete stays that way.
        live: list[int] = []
        for line in geo.lines if lines is None else lines:
            m = me & line
            p = opp & line
            if m and p:
                continue
            alive = False
            if not p:
                need = k - m.bit_count()
                if need == 1:
                    return WIN - ply - 1  # win on this move
                if need <= mine_left:
                    my_lines.append(line & empty)
                    alive = True
            if not m:
                need = k - p.bit_count()
                if need == 1:
                    threats |= line & ~p
                    their_lines.append(line & empty)
                    alive = True
                elif need <= theirs_left:
                    their_lines.append(line & empty)
                    alive = True
            if alive:
                live.append(line)
        if threats:
            if threats & (threats - 1):
                return ply + 2 - WIN  # two threats: one can be blocked, the other wins
            moves = [threats.bit_length() - 1]
        else:
            moves = None
        my_open = bool(my_lines) and not (2 * len(my_lines) <= left and self._cannot_complete(my_lines))
        their_open = bool(their_lines) and (
            bool(threats) or not (2 * len(their_lines) <= left and self._cannot_complete(their_lines))
        )
        if not my_open and not their_open:
            return 0
        # Bounds from what is still possible: no open line, no win.
        hi = WIN - ply - 3 if my_open else 0
        lo = ply + 4 - WIN if their_open else 0
        if hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

        if moves is None:
            # Cells on two or more live lines first, then on one; of the cells on
            # none (dead for both sides) any one stands for all of them.
            once = twice = 0
            for cells in my_lines:
                twice |= once & cells
                once |= cells
            for cells in their_lines:
                twice |= once & cells
                once |= cells
            order = geo.order
            moves = [c for c in order if twice >> c & 1]
            moves += [c for c in order if (once & ~twice) >> c & 1]
            dead = empty & ~once
            if dead:
                moves.append((dead & -dead).bit_length() - 1)
            if first >= 0 and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        alpha0 = alpha
        best = -_INF
        best_cell = -1
        for cell in moves:
            score = -self.search(opp, me | 1 << cell, -beta, -alpha, live)
            if score > best:
                best, best_cell = score, cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if key != raw:
            best_cell = -1  # only remember moves in the canonical orientation
        table = self.table
        packed = table.get(key)
        if packed is None:
            t_lo, t_hi = -_INF, _INF
            if len(table) >= self.table_limit:
                table.clear()  # bounded memory: start afresh rather than grow
        else:
            t_lo = (packed & _BOUND_MASK) - _INF
            t_hi = (packed >> _BOUND_BITS & _BOUND_MASK) - _INF
        if best <= alpha0:
            t_hi = min(t_hi, best)
        elif best >= beta:
            t_lo = max(t_lo, best)
        else:
            t_lo = t_hi = best
        table[key] = (t_lo + _INF) | (t_hi + _INF) << _BOUND_BITS | (best_cell + 1) << 2 * _BOUND_BITS
        return best

    def exact(self, me: int, opp: int) -> int:
        return self.search(me, opp, -_INF, _INF)

    def score_move(self, me: int, opp: int, cell: int, alpha: int = -_INF, beta: int = _INF) -> int:
        """The mover's score for playing ``cell`` (exact inside (alpha, beta)).

        The search assumes it is never handed a finished position, so a move that
        completes a line or fills the board is scored here.
        """
        mine = me | 1 << cell
        if completes_line(self.geo, me, cell):
            return WIN - (mine | opp).bit_count()
        if mine | opp == self.geo.full:
            self.nodes += 1
            return 0
        return -self.search(opp, mine, -beta, -alpha)

    def best_cells(self, me: int, opp: int, value: int, cells: Iterable[int]) -> Iterable[int]:
        """The cells among ``cells`` that keep ``value``, the position's exact score."""
        for cell in cells:
            if self.score_move(me, opp, cell, value - 1, value + 1) >= value:
                yield cell


# --------------------------------------------------------------------------
# 3x3: solved once at import, then every answer is a look-up.


def _solve_3x3() -> tuple[dict[int, int], dict[int, tuple[int, ...]], dict[int, int]]:
    """Score, best cells and game-tree size of every reachable 3x3 position.

    Keys are ``x | o << 9``. 5,478 positions take a few milliseconds; the game
    tree below them (what a plain minimax walks) is counted on the way.
    """
    geo = GEOMETRY[3]
    full = geo.full
    through = geo.lines_through
    scores: dict[int, int] = {}
    best: dict[int, tuple[int, ...]] = {}
    tree: dict[int, int] = {}

    def visit(x: int, o: int, x_to_move: bool) -> None:
        key = x | o << 9
        occupied = x | o
        ply = occupied.bit_count()
        me, opp = (x, o) if x_to_move else (o, x)
        top = -_INF
        top_cells: list[int] = []
        size = 1
        for cell in range(9):
            bit = 1 << cell
            if occupied & bit:
                continue
            mine = me | bit
            if any(mine & line == line for line in through[cell]):
                score = WIN - ply - 1
                size += 1
            elif mine | opp == full:
                score = 0
                size += 1
            else:
                cx, co = (mine, opp) if x_to_move else (opp, mine)
                child = cx | co << 9
                if child not in scores:
                    visit(cx, co, not x_to_move)
                score = -scores[child]
                size += tree[child]
            if score > top:
                top, top_cells = score, [cell]
            elif score == top:
                top_cells.append(cell)
        scores[key] = top
        best[key] = tuple(top_cells)
        tree[key] = size

    visit(0, 0, True)
    return scores, best, tree


def _child_score_3(board: Board, cell: int) -> int:
    """Exact score for the mover of playing ``cell`` on a 3x3 board."""
    me, opp = board._mover_masks()
    mine = me | 1 << cell
    ply = board.ply
    if any(mine & line == line for line in board._geo.lines_through[cell]):
        return WIN - ply - 1
    if mine | opp == board._geo.full:
        return 0
    x, o = (mine, opp) if board._x == me else (opp, mine)
    return -_SCORES_3[x | o << 9]


_SCORES_3, _BEST_3, _TREE_3 = _solve_3x3()
_SOLVERS: dict[int, _ExactSolver] = {}
_SOLVERS_LOCK = threading.Lock()


def _solver(size: int) -> _ExactSolver:
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
            from games.search import book as opening_book

            book = opening_book.load_or_none()
            if book:
                solver = _ExactSolver(geo, book=book.scores, book_line=book.line, book_plies=book.max_ply)
            else:
                solver = _ExactSolver(geo)
        else:
            solver = _ExactSolver(geo)
            for cell in sorted({min(perm[c] for perm in geo.symmetries) for c in range(geo.cells)}):
                opening = solver.exact(0, 1 << cell)  # O to move after X's first move
                for _ in solver.best_cells(0, 1 << cell, opening, (c for c in geo.order if c != cell)):
                    break  # and prove one reply that keeps that score
        _SOLVERS[size] = solver
    return solver


# --------------------------------------------------------------------------
# What simpler searches would visit: the figures beside the engine's own.

#: A textbook alpha-beta is counted up to this many nodes, then "more than".
TEXTBOOK_COUNT_LIMIT = 50_000
_TREE_COUNT_LIMIT = 10  # count game trees exactly up to this many free cells


class _CountLimit(Exception):
    pass


def _textbook_nodes(geo: Geometry, me: int, opp: int, limit: int = TEXTBOOK_COUNT_LIMIT) -> tuple[int, bool]:
    """Nodes a textbook alpha-beta visits to score every legal cell: no memory,
    cells in index order, a full window for each cell, depth-aware scores.

    Returns (count, exact); past ``limit`` it stops and the count is a lower bound.
    """
    full, through, cells = geo.full, geo.lines_through, geo.cells
    count = 0

    def visit(me: int, opp: int, alpha: int, beta: int) -> int:
        nonlocal count
        occupied = me | opp
        ply = occupied.bit_count()
        best = -_INF
        for cell in range(cells):
            bit = 1 << cell
            if occupied & bit:
                continue
            count += 1
            if count > limit:
                raise _CountLimit
            mine = me | bit
            if any(mine & line == line for line in through[cell]):
                score = WIN - ply - 1
            elif mine | opp == full:
                score = 0
            else:
                score = -visit(opp, mine, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    count = 1  # the position itself
    occupied = me | opp
    try:
        for cell in range(cells):
            bit = 1 << cell
            if occupied & bit:
                continue
            count += 1
            mine = me | bit
            if not any(mine & line == line for line in through[cell]) and mine | opp != full:
                visit(opp, mine, -_INF, _INF)
    except _CountLimit:
        return limit, False
    return count, True


def _full_width_nodes(empties: int, depth: int) -> int:
    """Nodes of a full-width tree ``depth`` plies deep over ``empties`` free cells."""
    total, layer = 1, 1
    for i in range(min(depth, empties)):
        layer *= empties - i
        total += layer
    return total


def _game_tree_size(geo: Geometry, me: int, opp: int, memo: dict[int, int]) -> int:
    """Nodes a plain minimax visits from this position (the position included)."""
    key = me | opp << geo.cells
    size = memo.get(key)
    if size is not None:
        return size
    size = 1
    occupied = me | opp
    for cell in range(geo.cells):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if any(mine & line == line for line in geo.lines_through[cell]) or (mine | opp) == geo.full:
            size += 1
        else:
            size += _game_tree_size(geo, opp, mine, memo)
    memo[key] = size
    return size


def _minimax_nodes(board: Board) -> tuple[int, bool]:
    """Nodes a plain minimax visits from ``board``: (count, exact).

    Counted exactly when the tree is small enough; otherwise a lower bound:
    until either side could first complete a line, no position in the tree
    ends the game, so the tree holds at least that full-width top.
    """
    geo = board._geo
    if geo.size == 3:
        return _TREE_3[board._x | board._o << 9], True
    me, opp = board._mover_masks()
    empties = geo.cells - board.ply
    if empties <= _TREE_COUNT_LIMIT:
        return _game_tree_size(geo, me, opp, {}), True
    need_me = min((geo.k - (me & line).bit_count() for line in geo.lines if not opp & line), default=geo.cells)
    need_opp = min((geo.k - (opp & line).bit_count() for line in geo.lines if not me & line), default=geo.cells)
    first_win = min(2 * need_me - 1, 2 * need_opp)  # plies until the earliest possible win
    return _full_width_nodes(empties, first_win), False


# --------------------------------------------------------------------------
# Public API: analyse, best_move, review.

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


def _recalled(board: Board) -> Analysis | None:
    with _ANALYSES_LOCK:
        return _ANALYSES.get((board._geo.size, board._x, board._o))


def analyse(board: Board, budget: float | None = None) -> Analysis:
    """Every legal cell's exact outcome for the player to move, and what it cost.

    Exact on every board. On 4x4 and 5x5 the search has ``budget`` seconds
    (default :data:`DEFAULT_BUDGET`); a cell it could not solve in that time is
    ``UNSOLVED`` ("not solved in time") and the analysis is not ``exact``.
    """
    if not isinstance(board, Board):
        raise TypeError("analyse() takes a Board")
    legal = board.legal_moves
    if not legal:
        return Analysis({}, SearchStats(0, 0.0, 0, 1, True, 1, True), exact=True)
    known = _recalled(board)
    if known is not None:
        return known
    me, opp = board._mover_masks()
    geo = board._geo
    ply_after = board.ply + 1
    start = time.perf_counter()
    if geo.size == 3:
        # Values come from the solved table; the engine's own work is a search
        # with memory from scratch, so the overlay shows what it really costs.
        counter = _ExactSolver(geo)
        for cell in legal:
            counter.score_move(me, opp, cell)
        evaluations = {cell: _evaluation(_child_score_3(board, cell), ply_after, geo.cells) for cell in legal}
        nodes = counter.nodes + 1
    else:
        solver = _solver(geo.size)
        evaluations = {}
        with solver.lock:
            before = solver.nodes
            solver.deadline = start + (DEFAULT_BUDGET if budget is None else budget)
            try:
                for cell in legal:
                    try:
                        evaluations[cell] = _evaluation(solver.score_move(me, opp, cell), ply_after, geo.cells)
                    except _Timeout:
                        evaluations[cell] = UNSOLVED
            finally:
                solver.deadline = None
            nodes = solver.nodes - before + 1
    seconds = time.perf_counter() - start
    textbook, textbook_exact = _textbook_nodes(geo, me, opp)
    minimax, minimax_exact = _minimax_nodes(board)
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


_rng = random.Random()


def _random_for(seed: int | None) -> random.Random:
    return _rng if seed is None else random.Random(seed)


def _perfect_move(board: Board, rng: random.Random, deadline: float | None = None) -> int:
    """One of the best cells for the mover: never worse, fastest win, slowest loss.

    An analysis already made answers at once. Otherwise the position is solved
    once and the first cell, in random order, that keeps its score is played:
    proving one good cell is far cheaper than proving all. On 5x5 the cell
    the opening book plays is tried first, then the cells whose positions the
    book knows, so the engine stays on the book's line while it can. Past
    ``deadline`` (perf_counter time), ``_Timeout``.
    """
    known = _recalled(board)
    if known is not None:
        return rng.choice(known.best_cells)
    solver = _solver(board._geo.size)
    me, opp = board._mover_masks()
    cells = board.legal_moves
    rng.shuffle(cells)
    if solver.book:
        cells.sort(key=lambda cell: _book_rank(solver, board, cell))
    with solver.lock:
        solver.deadline = deadline
        try:
            value = solver.exact(me, opp)
            for cell in solver.best_cells(me, opp, value, cells):
                return cell
        finally:
            solver.deadline = None
    raise AssertionError(f'no cell reaches the score of "{board}"')  # cannot happen: value is some cell's score


def _book_rank(solver: _ExactSolver, board: Board, cell: int) -> int:
    """0 for the book's own move, 1 for a cell whose position the book knows, 2 otherwise."""
    if board.ply + 1 > solver.book_plies:
        return 2
    me, opp = board._mover_masks()
    key = solver.canonical(opp | (me | 1 << cell) << board._geo.cells)
    if key in solver.book_line:
        return 0
    return 1 if key in solver.book else 2


def _tactical_cells(board: Board) -> tuple[list[int], list[int]]:
    """(cells that win at once, cells the opponent would win on next)."""
    me, opp = board._mover_masks()
    legal = board.legal_moves
    geo = board._geo
    return (
        [c for c in legal if completes_line(geo, me, c)],
        [c for c in legal if completes_line(geo, opp, c)],
    )


# What each level does, in the order its checks are tried. Strength comes from
# two dials: how often it plays the perfect move, and whether it at least takes
# a win in one and blocks a loss in one when it does not. Only "perfect" never
# loses; the others are weaker on purpose.
_LEVEL_SKILL = {
    # level: (chance of the perfect move, takes wins in one, blocks losses in one)
    "easy": (0.0, False, False),
    "medium": (0.0, True, True),
    "hard": (0.7, True, True),
    "perfect": (1.0, True, True),
}

#: The one level that never loses, on every board.
UNBEATABLE_LEVEL = "perfect"
#: Seconds a weaker level looks for the perfect move before it settles for its
#: own (only far from the 5x5 book does that take longer).
WEAKER_LEVEL_BUDGET = 1.0


def best_move(board: Board, level: str = "perfect", seed: int | None = None, budget: float | None = None) -> int:
    """The cell the engine plays at ``level`` ("easy", "medium", "hard", "perfect").

    ``perfect`` never loses on any board, wins fastest and, when lost, loses
    slowest, choosing among equally good cells at random (``seed`` makes that
    repeatable). Weaker levels mix in random moves: ``easy`` plays at random,
    ``medium`` takes a win in one and blocks a loss in one but otherwise plays
    at random, ``hard`` plays the perfect move most of the time, when it finds
    it within ``budget`` seconds (default :data:`WEAKER_LEVEL_BUDGET`), and
    ``medium``'s move otherwise. ``perfect`` has no budget: it always finds
    the perfect move.
    """
    if level == "perfect" and board._geo.size == 3:
        # The hot path: one look-up in the solved table.
        cells = _BEST_3.get(board._x | board._o << 9)
        if not cells:
            raise IllegalMoveError(f'there is no move to make: the game is over in "{board}"')
        if len(cells) == 1:
            return cells[0]
        return _random_for(seed).choice(cells)
    if level not in _LEVEL_SKILL:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    legal = board.legal_moves
    if not legal:
        raise IllegalMoveError(f'there is no move to make: the game is over in "{board}"')
    rng = _random_for(seed)
    skill, takes_wins, blocks = _LEVEL_SKILL[level]
    if skill == 1.0:
        return _perfect_move(board, rng)
    if skill and rng.random() < skill:
        if board._geo.size == 3:
            return rng.choice(_BEST_3[board._x | board._o << 9])
        try:
            return _perfect_move(board, rng, time.perf_counter() + (WEAKER_LEVEL_BUDGET if budget is None else budget))
        except _Timeout:
            pass  # a weaker level settles for less
    wins, threats = _tactical_cells(board)
    if takes_wins and wins:
        return rng.choice(wins)
    if blocks and threats:
        return rng.choice(threats)
    return rng.choice(legal)


def opening_move(board: Board, mode: str, level: str = "perfect", seed: int | None = None) -> int:
    """The AI's first move by the seeds' start modes: "centre", "random" or "minimax"."""
    if mode not in START_MODES:
        raise ValueError(f"unknown start mode {mode!r}; modes are {', '.join(START_MODES)}")
    if board.ply:
        return best_move(board, level, seed)
    rng = _random_for(seed)
    if mode == "centre":
        return rng.choice(board._geo.centre)
    if mode == "random":
        return rng.choice(board.legal_moves)
    return best_move(board, level, seed)


# --------------------------------------------------------------------------
# Review of a finished game.

#: The labels of a reviewed move, best first, as chess sites use them.
LABELS = ("best", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class MoveReview:
    """One move of a game judged against the exact evaluation of its position."""

    ply: int  # 0 for the first move
    player: str  # "X" or "O"
    cell: int
    label: str  # one of LABELS, or "unsolved" when the position was not solved in time
    played: Evaluation
    best: Evaluation
    best_cells: tuple[int, ...]


@dataclass(frozen=True)
class Review:
    """Every move labelled, and the ply of the move that decided the result (or None)."""

    moves: tuple[MoveReview, ...]
    decisive_ply: int | None
    exact: bool

    def counts(self) -> dict[str, int]:
        out = {label: 0 for label in LABELS}
        for move in self.moves:
            if move.label in out:
                out[move.label] += 1
        return out


def _label(played: Evaluation, best: Evaluation) -> str:
    """best; inaccuracy (same outcome, slower win or sooner loss); mistake (a
    win thrown to a draw); blunder (a win or a draw thrown to a loss)."""
    if played.score == best.score:
        return "best"
    if played.outcome == best.outcome:
        return "inaccuracy"
    if played.outcome == "loss":
        return "blunder"
    return "mistake"


def _judge(board: Board, cell: int, deadline: float) -> tuple[Evaluation, Evaluation, tuple[int, ...]]:
    """(the played cell's evaluation, the best one, every best cell) for ``board``."""
    geo = board._geo
    ply_after = board.ply + 1
    if geo.size == 3:
        scores = {c: _child_score_3(board, c) for c in board.legal_moves}
        top = max(scores.values())
        best_cells = tuple(sorted(c for c, s in scores.items() if s == top))
        return _evaluation(scores[cell], ply_after, geo.cells), _evaluation(top, ply_after, geo.cells), best_cells
    solver = _solver(geo.size)
    me, opp = board._mover_masks()
    with solver.lock:
        solver.deadline = deadline
        try:
            value = solver.exact(me, opp)
            played = solver.score_move(me, opp, cell, value - 1, value + 1)
            if played >= value:
                played = value
            else:
                played = solver.score_move(me, opp, cell)
            best_cells = tuple(sorted(solver.best_cells(me, opp, value, board.legal_moves)))
        finally:
            solver.deadline = None
    return _evaluation(played, ply_after, geo.cells), _evaluation(value, ply_after, geo.cells), best_cells


#: Default time budget of a whole review on 4x4 and 5x5, in seconds.
REVIEW_BUDGET = 10.0


def review(moves: Sequence[int], size: int = 3, budget: float | None = None) -> Review:
    """Label every move of a game from exact outcomes: best, inaccuracy, mistake or blunder.

    The decisive move is the last one that changed the outcome under perfect
    play: in a lost game, the move that really lost it. On 4x4 and 5x5 the
    positions are solved from the last move back, within ``budget`` seconds
    for the whole game (default :data:`REVIEW_BUDGET`); a move whose position
    was not solved in time is labelled "unsolved", never guessed.
    """
    boards = [Board.empty(size)]
    for cell in moves:
        boards.append(boards[-1].play(cell))  # raises the precise error for a bad or illegal cell
    deadline = time.perf_counter() + (REVIEW_BUDGET if budget is None else budget)
    reviewed: list[MoveReview] = []
    out_of_time = False
    for ply in reversed(range(len(moves))):
        board, cell = boards[ply], moves[ply]
        if not out_of_time:
            try:
                played, best, best_cells = _judge(board, cell, deadline)
            except _Timeout:
                out_of_time = True
        if out_of_time:
            reviewed.append(MoveReview(ply, board.to_move, cell, "unsolved", UNSOLVED, UNSOLVED, ()))
        else:
            reviewed.append(MoveReview(ply, board.to_move, cell, _label(played, best), played, best, best_cells))
    reviewed.reverse()
    decisive = next((m.ply for m in reversed(reviewed) if m.label in ("mistake", "blunder")), None)
    return Review(tuple(reviewed), decisive, exact=not out_of_time)
