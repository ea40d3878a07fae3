"""What a link to the analysis board carries, read back with a reason for
anything wrong in it.

A position on the analysis board is a *start* and the *moves* played from it,
so a learner can paste any position (which has no history) and still step
back and forward through what they play from it. Three query parameters:

``board``
    The start, in the board's string form (cells row by row, ``X``, ``O`` or
    ``.``); the empty 3x3 board when left out. Case and spaces do not matter,
    so a grid pasted over three lines works.
``moves``
    The cells played from the start, in turn, comma-separated (cell 0 is the
    top left, row by row). Left out: none.
``ply``
    Which position of that line is shown, as the number of marks on its board
    (what the game page calls a ply): from the start's own count to the end
    of the moves. Left out: the end of the line.

So ``?board=X...O....`` is that position; ``?board=................&moves=5,0,10&ply=2``
is 4x4 after its first two moves, with the third one step forward; the game
page's "Analyse this position" sends the whole game from the empty board.

A link that cannot be read whole is read as far as it can: a bad start gives
the empty board, a move that cannot be played ends the line before it, a
ply outside the line shows its nearest end. Each such repair is a
:class:`Problem` that the page shows in words; nothing is guessed in silence.
Pure Python: no Django, so the API, the pages and the terminal can share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from games import engine

#: Sizes by how many cells a position string has.
_SIZES = {9: 3, 16: 4, 25: 5}
#: More text than this in a parameter is not read at all (the longest move
#: list is 25 cells of two digits and their commas).
_LONGEST = 100


@dataclass(frozen=True)
class Problem:
    """Something in a link that could not be used as given, and what was shown instead."""

    parameter: str  # "board", "moves" or "ply"
    message: str


@dataclass(frozen=True)
class AnalysisLink:
    """A start position, the cells played from it, and the ply shown."""

    start: engine.Board
    moves: tuple[int, ...] = ()
    ply: int | None = None  # None: the end of the line
    problems: tuple[Problem, ...] = field(default=(), compare=False)

    # -- the positions along the line --------------------------------------

    @property
    def first_ply(self) -> int:
        return self.start.ply

    @property
    def last_ply(self) -> int:
        return self.start.ply + len(self.moves)

    @property
    def shown_ply(self) -> int:
        return self.last_ply if self.ply is None else self.ply

    def board_at(self, ply: int) -> engine.Board:
        board = self.start
        for cell in self.moves[: ply - self.first_ply]:
            board = board.play(cell)
        return board

    @property
    def board(self) -> engine.Board:
        """The position shown."""
        return self.board_at(self.shown_ply)

    @property
    def played(self) -> tuple[int, ...]:
        """The moves from the start to the position shown."""
        return self.moves[: self.shown_ply - self.first_ply]

    # -- links from here ---------------------------------------------------

    def at(self, ply: int) -> AnalysisLink:
        """The same line, showing another of its positions."""
        return AnalysisLink(self.start, self.moves, max(self.first_ply, min(ply, self.last_ply)))

    def after(self, cell: int) -> AnalysisLink:
        """The position shown with ``cell`` played: the moves after it are dropped."""
        return AnalysisLink(self.start, (*self.played, cell))

    def followed_by(self, cells: tuple[int, ...], steps: int) -> AnalysisLink:
        """The position shown with ``cells`` as the line ahead, ``steps`` of them played."""
        return AnalysisLink(self.start, (*self.played, *cells), self.shown_ply + steps)

    def query(self) -> str:
        """The query string of this link, shortest form: what is default is left out."""
        params = {}
        if self.start != engine.Board.empty(3):
            params["board"] = str(self.start)
        if self.moves:
            params["moves"] = ",".join(map(str, self.moves))
        if self.ply is not None and self.ply != self.last_ply:
            params["ply"] = str(self.ply)
        return "?" + urlencode(params, safe=",") if params else ""


def analysis_query(start: engine.Board, moves=(), ply: int | None = None) -> str:
    """The query string of the analysis board for ``start`` and ``moves``, at ``ply``:
    what other pages put after ``{% url 'games:analysis' %}``."""
    return AnalysisLink(start, tuple(moves), ply).query()


# --------------------------------------------------------------------------
# Reading a link.


def read_start(text: str | None) -> engine.Board:
    """The start position a ``board`` parameter names; InvalidPositionError saying why not."""
    if text is None or not text.strip():
        return engine.Board.empty(3)
    if len(text) > _LONGEST:
        raise engine.InvalidPositionError(
            f"that position has {len(text)} characters; a position has 9, 16 or 25 cells (3x3, 4x4 or 5x5)"
        )
    return engine.Board.from_string(re.sub(r"\s+", "", text).upper())


def read_link(board: str | None, moves: str | None, ply: str | None) -> AnalysisLink:
    """The link these three parameters make, as much of it as can be used;
    each thing left out or changed is a :class:`Problem` on the result."""
    problems: list[Problem] = []
    try:
        start = read_start(board)
    except engine.InvalidPositionError as error:
        cleaned = re.sub(r"\s+", "", board or "")
        start = engine.Board.empty(_SIZES.get(len(cleaned), 3))
        problems.append(Problem("board", f"This position cannot be analysed: {error}. Showing an empty board."))
        return AnalysisLink(start, (), None, tuple(problems))

    played, problem = _read_moves(start, moves)
    if problem:
        problems.append(problem)
    link = AnalysisLink(start, played)

    shown, problem = _read_ply(link, ply)
    if problem:
        problems.append(problem)
    return AnalysisLink(start, played, shown, tuple(problems))


def _read_moves(start: engine.Board, text: str | None) -> tuple[tuple[int, ...], Problem | None]:
    if text is None or not text.strip():
        return (), None
    if len(text) > _LONGEST:
        return (), Problem("moves", "The moves in this link are too long to be a game. None were played.")
    played: list[int] = []
    board = start
    for number, part in enumerate(text.split(","), start=1):
        part = part.strip()
        try:
            if not re.fullmatch(r"[0-9]{1,2}", part):
                raise engine.InvalidMoveError(f"{part!r} is not a cell (cells are 0 to {start.size**2 - 1})")
            cell = int(part)
            if board.is_game_over():  # said once, not "cannot be played: cell 5 cannot be played"
                raise engine.IllegalMoveError(f'the game is already over in "{board}"')
            board = board.play(cell)
        except (engine.InvalidMoveError, engine.IllegalMoveError) as error:
            kept = _kept(len(played))
            return tuple(played), Problem("moves", f"Move {number} in this link cannot be played: {error}. {kept}")
        played.append(cell)
    return tuple(played), None


def _read_ply(link: AnalysisLink, text: str | None) -> tuple[int | None, Problem | None]:
    if text is None or not text.strip():
        return None, None
    first, last = link.first_ply, link.last_ply
    text = text.strip()
    if not re.fullmatch(r"[0-9]{1,3}", text):
        return None, Problem("ply", f"The ply {text[:10]!r} is not a number of moves. Showing the last position.")
    ply = int(text)
    if first <= ply <= last:
        return ply, None
    nearest = first if ply < first else last
    span = f"ply {first}" if first == last else f"plies {first} to {last}"
    return nearest, Problem("ply", f"This line has no position at ply {ply}: it has {span}. Showing ply {nearest}.")


def _kept(count: int) -> str:
    if count == 0:
        return "None were played."
    return "The move before it is shown." if count == 1 else f"The {count} moves before it are shown."
