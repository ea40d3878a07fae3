"""The exact search: 3x3 by a table made at import, 4x4 and 5x5 by alpha-beta
with a transposition table (:class:`ExactSolver`). The process's solver per
size is :func:`games.search.registry.solver_for`.

Scores inside the searches are from the point of view of the player to move and
count plies from the start of the game: a win completed at ply ``p`` scores
``WIN - p`` for the winner and ``p - WIN`` for the loser, a draw scores 0. A
position therefore has one score whatever path led to it (so transposition
tables can share it), and maximising it wins as soon as possible and, when lost,
loses as late as possible: the cure for the "fatalist" player that does not
bother to block because every move loses anyway.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from games.rules import GEOMETRY, Board, Geometry, cells_of, completes_line

if TYPE_CHECKING:
    from games.search.core import CoreSearch

WIN = 1000  # a win at ply p scores WIN - p; no game is longer than 25 plies
PROVEN = WIN - 100  # any |score| above this is a proven win or loss
INF = 10 * WIN


# --------------------------------------------------------------------------
# Exact search: alpha-beta with a transposition table, for 4x4 and 5x5.


class Timeout(Exception):
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


class SolvedPositions(Protocol):
    """What the solver asks of a table of solved positions
    (``games.search.tablebase.Tablebase``, which builds on this module)."""

    marks: int  # it holds every position with up to this many marks

    def score(self, me: int, opp: int) -> int:
        """The position's exact score for the player to move, ``me``."""
        ...


# Transposition-table entries are packed into one int to keep memory down:
# the lower and upper bound (offset by INF) and the best cell plus one.
_BOUND_BITS = 15
_BOUND_MASK = (1 << _BOUND_BITS) - 1


class ExactSolver:
    """Alpha-beta over (mover, other) bitmasks with a symmetry-reduced memory.

    Exact for any position. Cheap facts prune first: an immediate win, a double
    threat, a single threat that forces the reply, lines a side can no longer
    complete (too few moves left, or the other side can pair them off), and
    cells on no live line at all, of which one stands for all. Then a
    transposition table keyed by the position's canonical form keeps bounds
    across calls, so a second question about a nearby position is almost free.

    Given a ``tablebase`` (on 5x5, every position up to six marks, solved
    once and shipped), a position it holds is a look-up. Given a ``core``
    (``games.search.core``: this search compiled), the search runs there, with
    the core's own memory; without one it runs in Python, with the same answers.

    Memory is bounded: past ``table_limit`` entries the table starts afresh.
    One search runs at a time (``lock``); ``deadline`` (a perf_counter time)
    stops a search with ``Timeout``, leaving only proven entries behind.
    """

    # Mirrored and rotated twins are common early and rare late, where the
    # look-up would cost more than it saves.
    SYMMETRY_PLIES = 8
    _PAIRING_MEMO_LIMIT = 200_000

    def __init__(
        self,
        geo: Geometry,
        tablebase: SolvedPositions | None = None,
        core: CoreSearch | None = None,
        table_limit: int = 1_000_000,
    ):
        self.geo = geo
        self.table: dict[int, int] = {}
        self.table_limit = table_limit
        self.nodes = 0
        self.deadline: float | None = None
        self.tablebase = tablebase
        self.tablebase_marks = tablebase.marks if tablebase is not None else -1
        self.core = core
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

    def search(self, me: int, opp: int, alpha: int, beta: int) -> int:
        """The exact score of the position for the mover if it lies in (alpha, beta);
        otherwise a bound on the right side of the window. The position must
        not be finished."""
        if (me | opp).bit_count() <= self.tablebase_marks:
            self.nodes += 1
            return self.tablebase.score(me, opp)
        if self.core is None:
            return self._search(me, opp, alpha, beta)
        budget = None
        if self.deadline is not None:
            budget = self.deadline - time.perf_counter()
            if budget <= 0:
                raise Timeout
        before = self.core.nodes
        score = self.core.search(me, opp, alpha, beta, budget)
        self.nodes += self.core.nodes - before
        if score is None:
            raise Timeout
        return score

    def _search(self, me: int, opp: int, alpha: int, beta: int, lines: Sequence[int] | None = None) -> int:
        self.nodes += 1
        if not self.nodes & 1023 and self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        geo = self.geo
        occupied = me | opp
        empty = geo.full & ~occupied
        if not empty:
            return 0
        ply = occupied.bit_count()
        first = -1
        raw = me | opp << geo.cells
        key = self.canonical(raw) if ply <= self.SYMMETRY_PLIES else raw
        packed = self.table.get(key)
        if packed is not None:
            t_lo = (packed & _BOUND_MASK) - INF
            t_hi = (packed >> _BOUND_BITS & _BOUND_MASK) - INF
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
        best = -INF
        best_cell = -1
        for cell in moves:
            score = -self._search(opp, me | 1 << cell, -beta, -alpha, live)
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
            t_lo, t_hi = -INF, INF
            if len(table) >= self.table_limit:
                table.clear()  # bounded memory: start afresh rather than grow
        else:
            t_lo = (packed & _BOUND_MASK) - INF
            t_hi = (packed >> _BOUND_BITS & _BOUND_MASK) - INF
        if best <= alpha0:
            t_hi = min(t_hi, best)
        elif best >= beta:
            t_lo = max(t_lo, best)
        else:
            t_lo = t_hi = best
        table[key] = (t_lo + INF) | (t_hi + INF) << _BOUND_BITS | (best_cell + 1) << 2 * _BOUND_BITS
        return best

    def exact(self, me: int, opp: int) -> int:
        return self.search(me, opp, -INF, INF)

    def score_move(self, me: int, opp: int, cell: int, alpha: int = -INF, beta: int = INF) -> int:
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
        top = -INF
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


def child_score_3(board: Board, cell: int) -> int:
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


_SCORES_3, BEST_3, TREE_3 = _solve_3x3()
