"""Tic-tac-toe rules, perfect play, weaker play on purpose, and explanations.

Pure Python: nothing here imports Django, touches a database or keeps mutable
state that a caller can see. Three variants share one set of rules:

    3x3, three in a row (the classic)    4x4, four in a row    5x5, four in a row

A position is an immutable :class:`Board`; its string form is the cells row by
row, cell 0 at the top left, ``X``, ``O`` or ``.``. X always moves first, so
whose turn it is follows from the marks.

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
import random
import time
from dataclasses import dataclass
from typing import Iterable, Sequence

__all__ = [
    "Board",
    "Evaluation",
    "Analysis",
    "SearchStats",
    "MoveReview",
    "Review",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LEVELS",
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


class InvalidMoveError(ValueError):
    """A move that is not a cell at all: not a whole number, or off the board."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid: occupied cell or finished game."""


class InvalidPositionError(ValueError):
    """A position string that cannot be parsed or could not arise in a game."""


# --------------------------------------------------------------------------
# Geometry: lines, symmetries and move order for each board size.


@dataclass(frozen=True)
class _Geometry:
    size: int
    k: int  # marks in a row needed to win
    cells: int
    full: int  # bitmask of every cell
    lines: tuple[int, ...]  # bitmask of each winning line
    lines_through: tuple[tuple[int, ...], ...]  # per cell, the lines that contain it
    order: tuple[int, ...]  # cells, most promising first (most lines through them)
    symmetries: tuple[tuple[int, ...], ...]  # each a permutation: cell -> image
    centre: tuple[int, ...]  # the central cell(s)

    @property
    def name(self) -> str:
        return f"{self.size}x{self.size}"


def _build_geometry(size: int, k: int) -> _Geometry:
    def idx(r: int, c: int) -> int:
        return r * size + c

    lines = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << idx(r + dr * i, c + dc * i)
                    lines.append(mask)
    cells = size * size
    through = tuple(tuple(line for line in lines if line >> cell & 1) for cell in range(cells))
    mid = (size - 1) / 2

    def closeness(cell: int) -> float:
        r, c = divmod(cell, size)
        return abs(r - mid) + abs(c - mid)

    order = tuple(sorted(range(cells), key=lambda cell: (-len(through[cell]), closeness(cell), cell)))
    centre = tuple(cell for cell in range(cells) if closeness(cell) == min(map(closeness, range(cells))))

    def transform(r: int, c: int, t: int) -> tuple[int, int]:
        n = size - 1
        for _ in range(t % 4):
            r, c = c, n - r  # rotate a quarter turn
        if t >= 4:
            c = n - c  # mirror
        return r, c

    symmetries = tuple(
        tuple(idx(*transform(*divmod(cell, size), t)) for cell in range(cells)) for t in range(8)
    )
    return _Geometry(
        size=size,
        k=k,
        cells=cells,
        full=(1 << cells) - 1,
        lines=tuple(lines),
        lines_through=through,
        order=order,
        symmetries=symmetries,
        centre=centre,
    )


_GEOMETRY = {3: _build_geometry(3, 3), 4: _build_geometry(4, 4), 5: _build_geometry(5, 4)}
_SIZE_BY_LENGTH = {g.cells: size for size, g in _GEOMETRY.items()}

#: The variants by name: "3x3" -> (size, marks in a row to win).
VARIANTS = {g.name: (g.size, g.k) for g in _GEOMETRY.values()}


def _cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _winning_lines(geo: _Geometry, marks: int) -> list[int]:
    return [line for line in geo.lines if marks & line == line]


# --------------------------------------------------------------------------
# The board.


class Board:
    """An immutable position. Build one with :meth:`empty` or :meth:`from_string`."""

    __slots__ = ("_x", "_o", "_geo", "_winner", "_winning_line")

    def __init__(self, *args, **kwargs):
        raise TypeError("use Board.empty(size) or Board.from_string(text)")

    @classmethod
    def _make(cls, geo: _Geometry, x: int, o: int, winner: str | None, line: int) -> Board:
        board = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(board, "_geo", geo)
        setattr_(board, "_x", x)
        setattr_(board, "_o", o)
        setattr_(board, "_winner", winner)
        setattr_(board, "_winning_line", line)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Board cannot be changed; play() returns a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Board cannot be changed; play() returns a new one")

    @classmethod
    def empty(cls, size: int = 3) -> Board:
        """The empty board of a variant: ``size`` 3, 4 or 5."""
        if size not in _GEOMETRY:
            raise InvalidPositionError(f"there is no {size}x{size} variant; sizes are 3, 4 and 5")
        return cls._make(_GEOMETRY[size], 0, 0, None, 0)

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Parse the string form; refuse anything malformed or impossible, saying why."""
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position is a string, not {type(text).__name__}")
        size = _SIZE_BY_LENGTH.get(len(text))
        if size is None:
            raise InvalidPositionError(
                f'"{text}" has {len(text)} cells; a position has 9, 16 or 25 (3x3, 4x4 or 5x5)'
            )
        bad = sorted(set(text) - set("XO."))
        if bad:
            shown = ", ".join(repr(ch) for ch in bad)
            raise InvalidPositionError(f'"{text}" has {shown}; cells are X, O or .')
        geo = _GEOMETRY[size]
        x = sum(1 << i for i, ch in enumerate(text) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(text) if ch == "O")
        nx, no = x.bit_count(), o.bit_count()
        if no > nx:
            raise InvalidPositionError(f'"{text}" has more O than X ({no} to {nx}); X moves first')
        if nx > no + 1:
            raise InvalidPositionError(f'"{text}" has X {nx - no} marks ahead of O; players alternate')
        x_lines, o_lines = _winning_lines(geo, x), _winning_lines(geo, o)
        if x_lines and o_lines:
            raise InvalidPositionError(f'"{text}" has a line for both X and O; the game ends at the first')
        for mark, lines, last_mover in (("X", x_lines, nx > no), ("O", o_lines, nx == no)):
            if not lines:
                continue
            if not last_mover:
                raise InvalidPositionError(f'"{text}" shows a move played after {mark} had won')
            common = geo.full
            for line in lines:
                common &= line
            if not common:
                raise InvalidPositionError(
                    f'"{text}" has {mark} lines no single last move could complete; play continued after a win'
                )
        winner, line = None, 0
        if x_lines:
            winner, line = "X", x_lines[0]
        elif o_lines:
            winner, line = "O", o_lines[0]
        return cls._make(geo, x, o, winner, line)

    @classmethod
    def from_moves(cls, moves: Iterable[int], size: int = 3) -> Board:
        """The position after playing ``moves`` (cells, X first) on an empty board."""
        board = cls.empty(size)
        for cell in moves:
            board = board.play(cell)
        return board

    # -- reading a position --------------------------------------------------

    @property
    def size(self) -> int:
        return self._geo.size

    @property
    def variant(self) -> str:
        """The variant's name: "3x3", "4x4" or "5x5"."""
        return self._geo.name

    @property
    def ply(self) -> int:
        """How many moves have been made."""
        return (self._x | self._o).bit_count()

    @property
    def to_move(self) -> str | None:
        """"X" or "O", or None once the game is over."""
        if self.is_game_over():
            return None
        return "X" if self._x.bit_count() == self._o.bit_count() else "O"

    @property
    def legal_moves(self) -> list[int]:
        """The cells the player to move may play, ascending; empty once the game is over."""
        if self.is_game_over():
            return []
        return _cells_of(self._geo.full & ~(self._x | self._o))

    @property
    def winner(self) -> str | None:
        return self._winner

    @property
    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line, ascending, or None."""
        return tuple(_cells_of(self._winning_line)) if self._winner else None

    def is_game_over(self) -> bool:
        return self._winner is not None or (self._x | self._o) == self._geo.full

    def is_draw(self) -> bool:
        return self._winner is None and (self._x | self._o) == self._geo.full

    def result(self) -> str | None:
        """"x_won", "o_won", "draw", or None while the game goes on."""
        if self._winner:
            return "x_won" if self._winner == "X" else "o_won"
        return "draw" if self.is_draw() else None

    def termination(self) -> str | None:
        """How the game ended on the board: "line", "full_board", or None."""
        if self._winner:
            return "line"
        return "full_board" if self.is_draw() else None

    def cell(self, index: int) -> str:
        """"X", "O" or "." at a cell."""
        bit = 1 << self._check_cell(index)
        return "X" if self._x & bit else "O" if self._o & bit else "."

    def rows(self) -> list[str]:
        text = str(self)
        n = self.size
        return [text[i : i + n] for i in range(0, len(text), n)]

    # -- making a move -------------------------------------------------------

    def _check_cell(self, cell: object) -> int:
        if isinstance(cell, bool) or not isinstance(cell, int):
            raise InvalidMoveError(f"cell {cell!r} is not a whole number")
        if not 0 <= cell < self._geo.cells:
            raise InvalidMoveError(
                f"cell {cell} is off the {self.variant} board (cells are 0 to {self._geo.cells - 1})"
            )
        return cell

    def play(self, cell: int) -> Board:
        """The board after the player to move marks ``cell``."""
        cell = self._check_cell(cell)
        if self.is_game_over():
            raise IllegalMoveError(f'cell {cell} cannot be played: the game is over in "{self}"')
        bit = 1 << cell
        if (self._x | self._o) & bit:
            raise IllegalMoveError(f'cell {cell} is occupied in "{self}"')
        x, o = self._x, self._o
        if x.bit_count() == o.bit_count():
            x |= bit
            mover, marks = "X", x
        else:
            o |= bit
            mover, marks = "O", o
        for line in self._geo.lines_through[cell]:
            if marks & line == line:
                return Board._make(self._geo, x, o, mover, line)
        return Board._make(self._geo, x, o, None, 0)

    # -- value semantics -----------------------------------------------------

    def __str__(self) -> str:
        x, o = self._x, self._o
        return "".join(
            "X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(self._geo.cells)
        )

    def __repr__(self) -> str:
        return f"Board.from_string({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._geo.size, self._x, self._o) == (other._geo.size, other._x, other._o)

    def __hash__(self) -> int:
        return hash((self._geo.size, self._x, self._o))

    def _mover_masks(self) -> tuple[int, int]:
        """(marks of the player to move, marks of the other player)."""
        if self._x.bit_count() == self._o.bit_count():
            return self._x, self._o
        return self._o, self._x


# --------------------------------------------------------------------------
# Evaluations and statistics.


@dataclass(frozen=True)
class Evaluation:
    """What a move is worth to the player making it.

    ``outcome`` is "win", "draw" or "loss" under perfect play, or "unclear" for an
    estimate that found no forced result. ``plies`` counts the moves to the end of
    the game, this one included (None when unclear). ``exact`` is False for the
    5x5 search's estimates, which hold only to the depth it reached.
    """

    outcome: str
    plies: int | None
    score: int
    exact: bool = True

    def __str__(self) -> str:
        if self.outcome == "draw":
            return "draw"
        if self.outcome == "unclear":
            return f"unclear ({self.score:+d})"
        return f"{self.outcome} in {self.plies}"


@dataclass(frozen=True)
class SearchStats:
    """How much work a search did.

    ``nodes`` are the positions the engine visited (alpha-beta with its memory).
    ``nodes_without_pruning`` is the size of the game tree a plain minimax like
    the classroom one would walk for the same answer: exact when
    ``nodes_without_pruning_exact``, otherwise the count of a full-width search to
    the same depth; None when too large to count.
    """

    nodes: int
    nodes_without_pruning: int | None
    nodes_without_pruning_exact: bool
    seconds: float
    depth: int | None = None


class Analysis(dict):
    """``{cell: Evaluation}`` for every legal cell, with the search's ``stats``."""

    def __init__(self, evaluations: dict[int, Evaluation], stats: SearchStats, exact: bool):
        super().__init__(evaluations)
        self.stats = stats
        self.exact = exact

    @property
    def best_cells(self) -> list[int]:
        if not self:
            return []
        top = max(e.score for e in self.values())
        return sorted(cell for cell, e in self.items() if e.score == top)


def _evaluation(score: int, ply_after: int, cells: int, exact: bool = True) -> Evaluation:
    """Turn the mover's score for a move into an Evaluation.

    ``ply_after`` is the ply number once the move is made; the move itself counts.
    A drawn game ends on a full board, so a draw's distance is the cells left.
    """
    if score > _PROVEN:
        return Evaluation("win", WIN - score - ply_after + 1, score, exact)
    if score < -_PROVEN:
        return Evaluation("loss", WIN + score - ply_after + 1, score, exact)
    if exact:
        return Evaluation("draw", cells - ply_after + 1, 0, True)
    return Evaluation("unclear", None, score, False)


# --------------------------------------------------------------------------
# Exact search: alpha-beta with a transposition table, for 3x3 and 4x4.


@functools.cache
def _symmetry_tables(geo: _Geometry) -> list[list[list[int]]]:
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


class _ExactSolver:
    """Alpha-beta over (mover, other) bitmasks with a symmetry-reduced memory.

    Exact for any position: cheap facts prune first (an immediate win, a double
    threat, a single threat that forces the reply, lines nobody can complete any
    more), then a transposition table keyed by the position's canonical form
    keeps bounds across calls, so a second question about a nearby position is
    almost free.
    """

    # Mirrored and rotated twins are common early and rare late, where the
    # look-up would cost more than it saves.
    SYMMETRY_PLIES = 8

    def __init__(self, geo: _Geometry, memory: bool = True):
        self.geo = geo
        self.memory = memory
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self._sym_tables = _symmetry_tables(geo) if memory and geo.size > 3 else []

    def canonical(self, key: int) -> int:
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

    def search(self, me: int, opp: int, alpha: int, beta: int) -> int:
        """The exact score of the position for the mover if it lies in (alpha, beta);
        otherwise a bound on the right side of the window."""
        self.nodes += 1
        geo = self.geo
        occupied = me | opp
        empty = geo.full & ~occupied
        if not empty:
            return 0
        ply = occupied.bit_count()
        left = geo.cells - ply
        mine_left, theirs_left = (left + 1) // 2, left // 2
        k = geo.k
        threats = 0
        my_open = their_open = False
        for line in geo.lines:
            m = me & line
            p = opp & line
            if not p:
                need = k - m.bit_count()
                if need == 1:
                    return WIN - ply - 1  # win on this move
                if need <= mine_left:
                    my_open = True
            if not m:
                need = k - p.bit_count()
                if need == 1:
                    threats |= line & ~p
                    their_open = True
                elif need <= theirs_left:
                    their_open = True
        if threats:
            if threats & (threats - 1):
                return ply + 2 - WIN  # two threats: one can be blocked, the other wins
            moves = [threats.bit_length() - 1]
        else:
            moves = None
        # Bounds from what is still possible: no open line, no win.
        hi = WIN - ply - 3 if my_open else 0
        lo = ply + 4 - WIN if their_open else 0
        if not my_open and not their_open:
            return 0
        if hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

        key = None
        first = -1
        if self.memory:
            key = me | opp << geo.cells
            if geo.size > 3 and ply <= self.SYMMETRY_PLIES:
                key = self.canonical(key)
            entry = self.table.get(key)
            if entry is not None:
                t_lo, t_hi, first = entry
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
                if key != me | opp << geo.cells:
                    first = -1  # the remembered move belongs to a mirrored board

        if moves is None:
            moves = [c for c in geo.order if empty >> c & 1]
            if first >= 0 and empty >> first & 1:
                moves.remove(first)
                moves.insert(0, first)
        alpha0 = alpha
        best = -_INF
        best_cell = -1
        for cell in moves:
            score = -self.search(opp, me | 1 << cell, -beta, -alpha)
            if score > best:
                best, best_cell = score, cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if key is not None:
            if key != me | opp << geo.cells:
                best_cell = -1  # only remember moves in the canonical orientation
            entry = self.table.get(key)
            t_lo, t_hi = (entry[0], entry[1]) if entry else (-_INF, _INF)
            if best <= alpha0:
                t_hi = min(t_hi, best)
            elif best >= beta:
                t_lo = max(t_lo, best)
            else:
                t_lo = t_hi = best
            self.table[key] = (t_lo, t_hi, best_cell)
        return best

    def exact(self, me: int, opp: int) -> int:
        return self.search(me, opp, -_INF, _INF)

    def score_move(self, me: int, opp: int, cell: int, alpha: int = -_INF, beta: int = _INF) -> int:
        """The mover's score for playing ``cell`` (exact inside (alpha, beta)).

        The search assumes it is never handed a finished position, so a move that
        completes a line or fills the board is scored here.
        """
        mine = me | 1 << cell
        if _completes_line(self.geo, me, cell):
            return WIN - (mine | opp).bit_count()
        if mine | opp == self.geo.full:
            self.nodes += 1
            return 0
        return -self.search(opp, mine, -beta, -alpha)


# --------------------------------------------------------------------------
# 3x3: solved once at import, then every answer is a look-up.


def _solve_3x3() -> tuple[dict[int, int], dict[int, tuple[int, ...]], dict[int, int]]:
    """Score, best cells and game-tree size of every reachable 3x3 position.

    Keys are ``x | o << 9``. 5,478 positions take a few milliseconds; the game
    tree below them (what a plain minimax walks) is counted on the way.
    """
    geo = _GEOMETRY[3]
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


_SCORES_3, _BEST_3, _TREE_3 = _solve_3x3()
_SOLVERS: dict[int, _ExactSolver] = {}


def _solver(size: int) -> _ExactSolver:
    """The process's exact solver for a size; the first call solves the opening.

    Solving every distinct first move and the best replies to it up front (a
    fraction of a second on 4x4) is what keeps every later move fast.
    """
    solver = _SOLVERS.get(size)
    if solver is None:
        solver = _SOLVERS[size] = _ExactSolver(_GEOMETRY[size])
        geo = solver.geo
        for cell in sorted({min(perm[c] for perm in geo.symmetries) for c in range(geo.cells)}):
            opening = solver.exact(0, 1 << cell)  # O to move after X's first move
            for reply in geo.order:  # and prove the replies that keep that score
                if reply != cell and solver.score_move(0, 1 << cell, reply, opening - 1, opening + 1) >= opening:
                    break
    return solver


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


# --------------------------------------------------------------------------
# 5x5 four in a row: heuristic search under a time budget.


class _Timeout(Exception):
    pass


class _HeuristicSearch:
    """Iterative deepening alpha-beta with a transposition table and a line heuristic.

    The heuristic counts, for every line still open to one side only, how far it
    has got: a line with three of four marks is worth far more than two with one.
    The same cheap facts as the exact search (immediate win, double threat,
    forced block) are applied at every node, so the search never misses a win
    in one and never fails to block a loss in one.
    """

    WEIGHTS = (0, 1, 6, 40, 0)

    def __init__(self, geo: _Geometry, deadline: float, max_depth: int | None = None):
        self.geo = geo
        self.deadline = deadline
        self.max_depth = max_depth
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.nodes = 0

    def evaluate(self, me: int, opp: int) -> int:
        weights = self.WEIGHTS
        score = 0
        for line in self.geo.lines:
            m = me & line
            p = opp & line
            if m and not p:
                score += weights[m.bit_count()]
            elif p and not m:
                score -= weights[p.bit_count()]
        return score

    def search(self, me: int, opp: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        geo = self.geo
        occupied = me | opp
        empty = geo.full & ~occupied
        if not empty:
            return 0
        ply = occupied.bit_count()
        k = geo.k
        threats = 0
        weights = self.WEIGHTS
        static = 0
        any_open = False
        for line in geo.lines:
            m = me & line
            p = opp & line
            if not p:
                n = m.bit_count()
                if n == k - 1:
                    return WIN - ply - 1
                static += weights[n]
                any_open = True
            if not m:
                n = p.bit_count()
                if n == k - 1:
                    threats |= line & ~p
                static -= weights[n]
                any_open = True
        if not any_open:
            return 0
        if threats:
            if threats & (threats - 1):
                return ply + 2 - WIN
            moves = [threats.bit_length() - 1]
            depth += 1  # a forced reply costs no depth
        else:
            moves = None
        if depth <= 0:
            return static
        key = me | opp << geo.cells
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            e_depth, e_lo, e_hi, first = entry
            if e_depth >= depth:
                if e_lo >= beta:
                    return e_lo
                if e_hi <= alpha:
                    return e_hi
                if e_lo == e_hi:
                    return e_lo
        if moves is None:
            moves = [c for c in geo.order if empty >> c & 1]
            if first >= 0 and empty >> first & 1:
                moves.remove(first)
                moves.insert(0, first)
        alpha0 = alpha
        best, best_cell = -_INF, -1
        for cell in moves:
            score = -self.search(opp, me | 1 << cell, depth - 1, -beta, -alpha)
            if score > best:
                best, best_cell = score, cell
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        lo, hi = -_INF, _INF
        if best <= alpha0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        self.table[key] = (depth, lo, hi, best_cell)
        return best

    def root(self, board: Board, full_window: bool) -> tuple[dict[int, int], int]:
        """Score every legal cell by iterative deepening until the deadline.

        Returns the scores of the deepest completed iteration and that depth.
        With ``full_window`` every cell gets its own score (for analysis);
        otherwise cells that cannot beat the best are only bounded.
        """
        me, opp = board._mover_masks()
        occupied = me | opp
        cells = [c for c in self.geo.order if not occupied >> c & 1]
        scores: dict[int, int] = {}
        depth_done = 0
        depth = 1
        limit = self.max_depth or self.geo.cells
        try:
            while depth <= limit and depth <= len(cells):
                current: dict[int, int] = {}
                alpha = -_INF
                for cell in cells:
                    lo = -_INF if full_window else alpha
                    score = -self.search(opp, me | 1 << cell, depth - 1, -_INF, -lo)
                    current[cell] = score
                    alpha = max(alpha, score)
                scores, depth_done = current, depth
                cells.sort(key=lambda c: -current[c])
                if abs(max(current.values())) > _PROVEN and all(
                    abs(v) > _PROVEN or not full_window for v in current.values()
                ):
                    break  # the result is proven; deeper search cannot change it
                depth += 1
        except _Timeout:
            pass
        return scores, depth_done


def _full_width_nodes(empties: int, depth: int) -> int:
    """Nodes of a full-width tree ``depth`` plies deep over ``empties`` free cells."""
    total, layer = 1, 1
    for i in range(min(depth, empties)):
        layer *= empties - i
        total += layer
    return total


def _game_tree_size(geo: _Geometry, me: int, opp: int, memo: dict[int, int]) -> int:
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


# --------------------------------------------------------------------------
# Public API: analyse, best_move, review.

#: Default time budget of the 5x5 search, in seconds.
DEFAULT_BUDGET = 1.0
_BUDGET_SHARE = 0.9  # the search stops here, leaving the rest for the answer around it
_TREE_COUNT_LIMIT = 10  # count 4x4 trees exactly up to this many free cells


def analyse(board: Board, budget: float | None = None) -> Analysis:
    """Every legal cell's evaluation for the player to move, and the search statistics.

    Exact on 3x3 and 4x4. On 5x5 the evaluations are the time-budgeted search's
    estimates at the depth it reached (``exact`` False) unless a result is forced.
    """
    if not isinstance(board, Board):
        raise TypeError("analyse() takes a Board")
    legal = board.legal_moves
    start = time.perf_counter()
    if not legal:
        return Analysis({}, SearchStats(0, 0, True, 0.0, 0), exact=True)
    me, opp = board._mover_masks()
    geo = board._geo
    ply_after = board.ply + 1
    if geo.size == 3:
        # Values come from the solved table; the statistics from a real
        # alpha-beta run (no memory) so the overlay shows what pruning saves.
        counter = _ExactSolver(geo, memory=False)
        for cell in legal:
            counter.score_move(me, opp, cell)
        evaluations = {cell: _evaluation(_child_score_3(board, cell), ply_after, geo.cells) for cell in legal}
        key = board._x | board._o << 9
        stats = SearchStats(
            nodes=counter.nodes + 1,
            nodes_without_pruning=_TREE_3[key],
            nodes_without_pruning_exact=True,
            seconds=time.perf_counter() - start,
            depth=geo.cells - board.ply,
        )
        return Analysis(evaluations, stats, exact=True)
    if geo.size == 4:
        solver = _solver(4)
        before = solver.nodes
        evaluations = {}
        for cell in legal:
            evaluations[cell] = _evaluation(solver.score_move(me, opp, cell), ply_after, geo.cells)
        tree = None
        if len(legal) <= _TREE_COUNT_LIMIT:
            tree = _game_tree_size(geo, me, opp, {})
        stats = SearchStats(
            nodes=solver.nodes - before + 1,
            nodes_without_pruning=tree,
            nodes_without_pruning_exact=tree is not None,
            seconds=time.perf_counter() - start,
            depth=len(legal),
        )
        return Analysis(evaluations, stats, exact=True)
    budget = DEFAULT_BUDGET if budget is None else budget
    search = _HeuristicSearch(geo, start + budget * _BUDGET_SHARE)
    scores, depth = _search_5x5(board, search, full_window=True)
    # A forced win or loss found within the search's depth is exact; the rest are estimates.
    evaluations = {
        cell: _evaluation(scores[cell], ply_after, geo.cells, exact=abs(scores[cell]) > _PROVEN) for cell in legal
    }
    stats = SearchStats(
        nodes=search.nodes,
        nodes_without_pruning=_full_width_nodes(len(legal), depth),
        nodes_without_pruning_exact=False,
        seconds=time.perf_counter() - start,
        depth=depth,
    )
    return Analysis(evaluations, stats, exact=False)


def _search_5x5(board: Board, search: _HeuristicSearch, full_window: bool) -> tuple[dict[int, int], int]:
    """Root scores on 5x5, with wins in one and forced blocks settled before searching."""
    me, opp = board._mover_masks()
    legal = board.legal_moves
    ply = board.ply
    wins = [c for c in legal if _completes_line(board._geo, me, c)]
    threats = [c for c in legal if _completes_line(board._geo, opp, c)]
    if wins or threats:
        scores = {}
        for cell in legal:
            if cell in wins:
                scores[cell] = WIN - ply - 1
            elif threats and cell not in threats:
                scores[cell] = ply + 2 - WIN  # the opponent completes a line next
            elif len(threats) > 1:
                scores[cell] = ply + 2 - WIN
            else:
                scores[cell] = None
        pending = [c for c, s in scores.items() if s is None]
        if pending and (full_window or not wins):
            for cell in pending:
                sub = _HeuristicSearch(search.geo, search.deadline, max_depth=search.max_depth)
                try:
                    scores[cell] = -sub.search(opp, me | 1 << cell, 3, -_INF, _INF)
                except _Timeout:
                    scores[cell] = -sub.evaluate(opp, me | 1 << cell)
                search.nodes += sub.nodes
        for cell in pending:
            if scores[cell] is None:
                scores[cell] = ply + 2 - WIN + 1  # below any win, never chosen over one
        return scores, 1
    scores, depth = search.root(board, full_window)
    if not scores:  # not even depth 1 finished: fall back on the static view
        scores = {c: -search.evaluate(opp, me | 1 << c) for c in legal}
    return scores, depth


def _completes_line(geo: _Geometry, marks: int, cell: int) -> bool:
    mine = marks | 1 << cell
    return any(mine & line == line for line in geo.lines_through[cell])


_rng = random.Random()


def _random_for(seed: int | None) -> random.Random:
    return _rng if seed is None else random.Random(seed)


def _perfect_move(board: Board, rng: random.Random, budget: float | None) -> int:
    """One of the best cells for the mover, chosen at random among equals."""
    geo = board._geo
    if geo.size == 3:
        return rng.choice(_BEST_3[board._x | board._o << 9])
    if geo.size == 4:
        return _perfect_move_4x4(board, rng)
    budget = DEFAULT_BUDGET if budget is None else budget
    search = _HeuristicSearch(geo, time.perf_counter() + budget * _BUDGET_SHARE)
    scores, _ = _search_5x5(board, search, full_window=False)
    top = max(scores.values())
    return rng.choice(sorted(c for c, s in scores.items() if s == top))


def _perfect_move_4x4(board: Board, rng: random.Random) -> int:
    """Solve the position once, then take the first cell, in random order, that
    keeps its score: proving one good cell is far cheaper than proving all."""
    solver = _solver(4)
    me, opp = board._mover_masks()
    best = solver.exact(me, opp)
    cells = board.legal_moves
    rng.shuffle(cells)
    for cell in cells:
        if solver.score_move(me, opp, cell, best - 1, best + 1) >= best:
            return cell
    raise AssertionError(f'no cell reaches the score of "{board}"')  # cannot happen: best is some cell's score


def _tactical_cells(board: Board) -> tuple[list[int], list[int]]:
    """(cells that win at once, cells the opponent would win on next)."""
    me, opp = board._mover_masks()
    legal = board.legal_moves
    geo = board._geo
    return (
        [c for c in legal if _completes_line(geo, me, c)],
        [c for c in legal if _completes_line(geo, opp, c)],
    )


# What each level does, in the order its checks are tried. Strength comes from
# two dials: how often it plays the perfect move, and whether it at least takes
# a win in one and blocks a loss in one when it does not.
_LEVEL_SKILL = {
    # level: (chance of the perfect move, takes wins in one, blocks losses in one)
    "easy": (0.0, False, False),
    "medium": (0.0, True, True),
    "hard": (0.7, True, True),
    "perfect": (1.0, True, True),
}


def best_move(board: Board, level: str = "perfect", seed: int | None = None, budget: float | None = None) -> int:
    """The cell the engine plays at ``level`` ("easy", "medium", "hard", "perfect").

    ``perfect`` never loses, wins fastest and, when lost, loses slowest, choosing
    among equally good cells at random (``seed`` makes that repeatable). Weaker
    levels mix in random moves: ``easy`` plays at random, ``medium`` takes a win
    in one and blocks a loss in one but otherwise plays at random, ``hard`` plays
    the perfect move most of the time. ``budget`` bounds the 5x5 search in seconds.
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
    if skill == 1.0 or (skill and rng.random() < skill):
        return _perfect_move(board, rng, budget)
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


@dataclass(frozen=True)
class MoveReview:
    """One move of a game judged against the engine's evaluation of its position."""

    ply: int  # 0 for the first move
    player: str  # "X" or "O"
    cell: int
    label: str  # "best", "inaccurate", "mistake" or "blunder"
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
        out = {label: 0 for label in ("best", "inaccurate", "mistake", "blunder")}
        for move in self.moves:
            out[move.label] += 1
        return out


_OUTCOME_RANK = {"loss": 0, "unclear": 1, "draw": 1, "win": 2}


def _label(played: Evaluation, best: Evaluation) -> str:
    if played.score == best.score:
        return "best"
    drop = _OUTCOME_RANK[best.outcome] - _OUTCOME_RANK[played.outcome]
    if drop <= 0:
        return "inaccurate"  # same outcome, only slower (or, on 5x5, a lower estimate)
    if drop == 2:
        return "blunder"
    return "mistake"


def review(moves: Sequence[int], size: int = 3, budget: float = 0.2) -> Review:
    """Label every move of a game: best, inaccurate, mistake or blunder.

    A move is *inaccurate* when it keeps the outcome but wins more slowly or
    loses sooner, a *mistake* when it turns a win into a draw or a draw into a
    loss, a *blunder* when it turns a win into a loss. The decisive move is the
    last one that changed the outcome under perfect play. On 5x5 the labels rest
    on the search's estimates (``budget`` seconds a position).
    """
    board = Board.empty(size)
    reviewed = []
    decisive = None
    exact = True
    for ply, cell in enumerate(moves):
        player = board.to_move
        analysis = analyse(board, budget=budget) if size == 5 else analyse(board)
        if cell not in analysis:
            board.play(cell)  # raises the precise error for a bad or illegal cell
        exact = exact and analysis.exact
        best_cells = tuple(analysis.best_cells)
        best = analysis[best_cells[0]]
        played = analysis[cell]
        label = _label(played, best)
        if label in ("mistake", "blunder"):
            decisive = ply
        reviewed.append(MoveReview(ply, player, cell, label, played, best, best_cells))
        board = board.play(cell)
    return Review(tuple(reviewed), decisive, exact)
