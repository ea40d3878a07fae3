"""The site's game notation: a header block, then the moves as coordinates.

Pure Python: imports only ``games.engine``. A game written out reads::

    [Site "tttsite"]
    [Game "12"]
    [X "alice"]
    [O "AI"]
    [Board "3x3"]
    [Result "1-0"]

    b2 a1 c3

Columns are letters from the left (a, b, c...), rows are numbers from the
BOTTOM (1, 2, 3...), as in chess: on 3x3 cell 0 (top left) is ``a3`` and
cell 8 (bottom right) is ``c1``. ``parse`` also takes a plain list of moves,
as coordinates (``b2 a1``) or cell numbers (``4 0 8``), with no header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games import engine

SIZES = (3, 4, 5)
_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_COORD = re.compile(r"^([a-z])([1-9])$")
_BOARD = re.compile(r"^([345])x\1$")


class NotationError(ValueError):
    """Text that is not a game: names the line and, where it is one, the move."""

    def __init__(self, message: str, *, line: int | None = None, move: int | None = None):
        where = []
        if line is not None:
            where.append(f"line {line}")
        if move is not None:
            where.append(f"move {move}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.line = line
        self.move = move


@dataclass(frozen=True)
class Record:
    """A whole game: its headers (name -> value, in order) and its cells."""

    size: int = 3
    moves: tuple[int, ...] = ()
    headers: dict[str, str] = field(default_factory=dict)


def coordinate(cell: int, size: int) -> str:
    """The coordinate of ``cell`` on a ``size`` board: 0 on 3x3 is ``a3``."""
    row, col = divmod(cell, size)
    return f"{chr(ord('a') + col)}{size - row}"


def cell_of(text: str, size: int) -> int:
    """The cell of a coordinate; InvalidMoveError when it is not one on this board."""
    match = _COORD.match(text.strip().lower())
    if not match:
        raise engine.InvalidMoveError(f'"{text}" is not a coordinate (a letter then a number, like b2)')
    col = ord(match.group(1)) - ord("a")
    rank = int(match.group(2))
    if col >= size or not 1 <= rank <= size:
        last = chr(ord("a") + size - 1)
        raise engine.InvalidMoveError(f'"{text}" is off the {size}x{size} board (a1 to {last}{size})')
    return (size - rank) * size + col


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def write(record: Record) -> str:
    """The text of a game: headers (Board always), a blank line, the moves."""
    headers = dict(record.headers)
    headers["Board"] = f"{record.size}x{record.size}"
    lines = [f'[{name} "{_quote(str(value))}"]' for name, value in headers.items()]
    moves = " ".join(coordinate(cell, record.size) for cell in record.moves)
    return "\n".join(lines) + "\n\n" + moves + "\n"


def parse(text: str, *, size: int | None = None) -> Record:
    """A game from its text, or from a plain list of moves (coordinates or cell
    numbers). The size comes from the Board header, else ``size``, else 3.
    Raises NotationError naming the line and move that is wrong."""
    headers: dict[str, str] = {}
    tokens: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if tokens:
                raise NotationError("a header comes after the moves; headers go first", line=number)
            match = _HEADER.match(line)
            if not match:
                raise NotationError(f'"{line}" is not a header (like [Board "3x3"])', line=number)
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            if name in headers:
                raise NotationError(f"the header {name} is given twice", line=number)
            headers[name] = value
            continue
        tokens.extend((number, token) for token in re.split(r"[\s,]+", line) if token)
    board_size = size or 3
    if "Board" in headers:
        match = _BOARD.match(headers["Board"])
        if not match:
            raise NotationError(f'Board "{headers["Board"]}" is not 3x3, 4x4 or 5x5')
        board_size = int(match.group(1))
    board = engine.Board.empty(board_size)
    moves = []
    for number, token in tokens:
        if re.fullmatch(r"\d+\.", token):
            continue  # a move number, as "1. b2 a1" writes it
        cell = engine.whole_number(token)
        try:
            if cell is None:
                cell = cell_of(token, board_size)
            elif not 0 <= cell < board_size * board_size:
                raise engine.InvalidMoveError(
                    f"cell {cell} is off the {board_size}x{board_size} board (0 to {board_size**2 - 1})"
                )
            board = board.play(cell)
        except engine.InvalidMoveError as error:
            raise NotationError(str(error), line=number, move=len(moves) + 1) from None
        except engine.IllegalMoveError:
            reason = "the game is already over" if board.is_game_over() else "that cell is occupied"
            raise NotationError(f'"{token}" cannot be played: {reason}', line=number, move=len(moves) + 1) from None
        moves.append(cell)
    return Record(size=board_size, moves=tuple(moves), headers={k: v for k, v in headers.items() if k != "Board"})
