"""Which positions make puzzles: exactly one move wins, and it wins fast.

Pure Python over the engine, no Django. A position is a puzzle when the
engine's exact analysis gives the side to move one winning cell and no other,
and that cell wins within ``max_win_in`` moves (both sides' moves counted, the
first and the last included, as the engine counts them: "win in 3" is the
learner's move, the reply, and the learner's win). A win in one move is left
out: it asks the learner to spot a line, not to look ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine

#: The fastest win a puzzle asks for: the learner's move, a reply, the win.
SHORTEST_WIN = 3
#: The slowest, by default: three moves of the learner's.
DEFAULT_MAX_WIN_IN = 5
#: Seconds the engine may think about one position while looking for puzzles.
#: A position it cannot solve in time is passed over, never guessed.
FINDING_BUDGET = 2.0


@dataclass(frozen=True)
class Found:
    """A position where exactly one cell wins: that cell, how fast, and the line of best play."""

    position: str
    variant: str
    side: str
    cell: int
    win_in: int
    solution: tuple[int, ...]


def could_win_within(board: engine.Board, win_in: int) -> bool:
    """Whether the side to move could have a puzzle's win within ``win_in``
    moves, by counting lines: cheap, and never wrong when it says no, so the
    engine is asked only about the rest.

    A win in one move is no puzzle, and makes any other winning cell a second
    one: so no line may lack just one mark. Nor may the opponent threaten to
    win in two places: the learner could block only one. The opponent blocks a lone
    threat, so a forced win needs two threats at once, on two lines free of
    the opponent's marks; the learner fills all but the last cell of each
    with the moves before the last, so the two lines' empty cells number at
    most the learner's moves plus one.
    """
    me = board.to_move
    if me is None:
        return False
    them = engine.other_side(me)
    marks = str(board)
    moves = (win_in + 1) // 2  # the learner's, the winning one included
    open_lines = []
    their_threats = set()
    for cells in lines(board.size, engine.VARIANTS[board.variant][1]):
        if any(marks[cell] == them for cell in cells):
            if not any(marks[cell] == me for cell in cells):
                empty = [cell for cell in cells if marks[cell] == "."]
                if len(empty) == 1:
                    their_threats.add(empty[0])
            continue
        empty = frozenset(cell for cell in cells if marks[cell] == ".")
        if len(empty) == 1:
            return False
        if len(empty) <= moves:
            open_lines.append(empty)
    if len(their_threats) >= 2:
        return False  # two threats of the opponent's: the learner blocks one and loses
    return any(len(a | b) <= moves + 1 for i, a in enumerate(open_lines) for b in open_lines[i + 1 :])


def lines(size: int, k: int) -> list[tuple[int, ...]]:
    """Every run of ``k`` cells in a row, column or diagonal of a ``size`` board."""
    out = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    out.append(tuple((r + dr * i) * size + c + dc * i for i in range(k)))
    return out


def puzzle_in(board: engine.Board, max_win_in: int = DEFAULT_MAX_WIN_IN) -> Found | None:
    """The puzzle ``board`` makes, or None: one winning cell, winning in
    ``SHORTEST_WIN`` to ``max_win_in`` moves, all proven by the engine."""
    if board.is_game_over() or not could_win_within(board, max_win_in):
        return None
    analysis = engine.analyse(board, budget=FINDING_BUDGET)
    if not analysis.exact:
        return None
    winning = [cell for cell, evaluation in analysis.items() if evaluation.outcome == "win"]
    if len(winning) != 1:
        return None
    cell = winning[0]
    win_in = analysis[cell].plies
    if not SHORTEST_WIN <= win_in <= max_win_in:
        return None
    # The defender resists longest, as it will when the puzzle is played.
    line = engine.principal_variation(board, budget=FINDING_BUDGET, resisting=engine.other_side(board.to_move))
    if not line.complete or line.cells[0] != cell or len(line.cells) != win_in:
        return None  # cannot happen with an exact analysis; a puzzle is kept only when all agrees
    return Found(str(board), board.variant, board.to_move, cell, win_in, line.cells)


def symmetric_positions(position: str) -> set[str]:
    """The position and its images under the board's rotations and mirrors:
    the same puzzle turned, which a learner should not meet twice."""
    size = {9: 3, 16: 4, 25: 5}[len(position)]
    grid = [position[row * size : (row + 1) * size] for row in range(size)]
    images = set()
    for _ in range(4):
        grid = ["".join(grid[size - 1 - r][c] for r in range(size)) for c in range(size)]  # a quarter turn
        images.add("".join(grid))
        images.add("".join(row[::-1] for row in grid))  # and its mirror
    return images
