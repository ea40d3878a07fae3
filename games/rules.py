"""The rules of the three variants: the board, its lines, symmetries and moves.

Pure Python, no Django. Three variants share one set of rules:

    3x3, three in a row (the classic)    4x4, four in a row    5x5, four in a row

A position is an immutable :class:`Board`; its string form is the cells row by
row, cell 0 at the top left, ``X``, ``O`` or ``.``. X always moves first, so
whose turn it is follows from the marks.

The searches (``games.search``) read a board's bitmasks (``_x``, ``_o``,
``_mover_masks()``) and its variant's :class:`Geometry` (``_geo``) directly;
the rest of the site reaches all of this through ``games.engine``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable


class InvalidMoveError(ValueError):
    """A move that is not a cell at all: not a whole number, or off the board."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid: occupied cell or finished game."""


class InvalidPositionError(ValueError):
    """A position string that cannot be parsed or could not arise in a game."""


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,18}")


def whole_number(value: object) -> int | None:
    """``value`` as an int, when it is one (not a bool) or a string of ASCII
    digits (a minus first, spaces around, as a form sends it); None otherwise.
    ``int()`` alone also takes "\u0663" (an Arabic-Indic three), "1_0", "+4",
    4.7 and infinity's OverflowError; cells and plies are ASCII digits only."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip(" \t\r\n")):
        return int(value.strip(" \t\r\n"))
    return None


# --------------------------------------------------------------------------
# Geometry: lines, symmetries and move order for each board size.


@dataclass(frozen=True)
class Geometry:
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


def _build_geometry(size: int, k: int) -> Geometry:
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

    symmetries = tuple(tuple(idx(*transform(*divmod(cell, size), t)) for cell in range(cells)) for t in range(8))
    return Geometry(
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


GEOMETRY = {3: _build_geometry(3, 3), 4: _build_geometry(4, 4), 5: _build_geometry(5, 4)}
_SIZE_BY_LENGTH = {g.cells: size for size, g in GEOMETRY.items()}

#: The variants by name: "3x3" -> (size, marks in a row to win).
VARIANTS = {g.name: (g.size, g.k) for g in GEOMETRY.values()}


def cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _winning_lines(geo: Geometry, marks: int) -> list[int]:
    return [line for line in geo.lines if marks & line == line]


def completes_line(geo: Geometry, marks: int, cell: int) -> bool:
    mine = marks | 1 << cell
    return any(mine & line == line for line in geo.lines_through[cell])


# --------------------------------------------------------------------------
# The board.


def other_side(side: str) -> str:
    """The other player: "O" for "X", "X" for "O"."""
    return "O" if side == "X" else "X"


def side_to_move(ply: int) -> str:
    """Who plays the move at ``ply`` (0 is the first move): X always starts,
    so X plays the even plies and O the odd ones."""
    return "X" if ply % 2 == 0 else "O"


class Board:
    """An immutable position. Build one with :meth:`empty` or :meth:`from_string`."""

    __slots__ = ("_x", "_o", "_geo", "_winner", "_winning_line")

    def __init__(self, *args, **kwargs):
        raise TypeError("use Board.empty(size) or Board.from_string(text)")

    @classmethod
    def _make(cls, geo: Geometry, x: int, o: int, winner: str | None, line: int) -> Board:
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
        if size not in GEOMETRY:
            raise InvalidPositionError(f"there is no {size}x{size} variant; sizes are 3, 4 and 5")
        return cls._make(GEOMETRY[size], 0, 0, None, 0)

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Parse the string form; refuse anything malformed or impossible, saying why."""
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position is a string, not {type(text).__name__}")
        size = _SIZE_BY_LENGTH.get(len(text))
        if size is None:
            raise InvalidPositionError(f'"{text}" has {len(text)} cells; a position has 9, 16 or 25 (3x3, 4x4 or 5x5)')
        bad = sorted(set(text) - set("XO."))
        if bad:
            shown = ", ".join(repr(ch) for ch in bad)
            raise InvalidPositionError(f'"{text}" has {shown}; cells are X, O or .')
        geo = GEOMETRY[size]
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
        """ "X" or "O", or None once the game is over."""
        if self.is_game_over():
            return None
        return "X" if self._x.bit_count() == self._o.bit_count() else "O"

    @property
    def legal_moves(self) -> list[int]:
        """The cells the player to move may play, ascending; empty once the game is over."""
        if self.is_game_over():
            return []
        return cells_of(self._geo.full & ~(self._x | self._o))

    @property
    def winner(self) -> str | None:
        return self._winner

    @property
    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line, ascending, or None."""
        return tuple(cells_of(self._winning_line)) if self._winner else None

    def is_game_over(self) -> bool:
        return self._winner is not None or (self._x | self._o) == self._geo.full

    def is_draw(self) -> bool:
        return self._winner is None and (self._x | self._o) == self._geo.full

    def result(self) -> str | None:
        """ "x_won", "o_won", "draw", or None while the game goes on."""
        if self._winner:
            return "x_won" if self._winner == "X" else "o_won"
        return "draw" if self.is_draw() else None

    def termination(self) -> str | None:
        """How the game ended on the board: "line", "full_board", or None."""
        if self._winner:
            return "line"
        return "full_board" if self.is_draw() else None

    def can_still_win(self, side: str) -> bool:
        """Whether ``side`` could still make a line if the game went on, however
        the moves fell: a line holds none of the other side's marks, and ``side``
        has moves enough left to fill it. A side that cannot is not given a win
        when the other runs out of time: that game is drawn."""
        if self._winner is not None:
            return self._winner == side
        mine, theirs = (self._x, self._o) if side == "X" else (self._o, self._x)
        empty = self._geo.full & ~(self._x | self._o)
        empties = empty.bit_count()
        # Moves ``side`` gets if every empty cell were filled, in turn.
        moves_left = (empties + (1 if self.to_move == side else 0)) // 2
        return any(not line & theirs and (line & ~mine).bit_count() <= moves_left for line in self._geo.lines)

    def cell(self, index: int) -> str:
        """ "X", "O" or "." at a cell."""
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
        return "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(self._geo.cells))

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
