"""Which positions make puzzles, and of which theme.

Pure Python over the engine, no Django. Every puzzle has one right answer,
proven by the engine's exact analysis, and a theme that says what it asks:

- win now: exactly one cell completes a line;
- make a fork: one cell wins and no other, in three moves (both sides'
  counted, the first and the last included, as the engine counts them: the
  learner's move, the reply, the learner's win), so it makes two threats at once;
- win in three: one cell wins and no other, with the learner's third move;
- a longer win: the same, later still (only from played games, when asked);
- block: the opponent threatens to win, the block is the one move that does
  not lose, and it keeps the draw;
- save a draw: nobody threatens to win at once, yet exactly one move keeps
  the draw and every other loses.

Played games are searched for the win themes (:func:`puzzle_in`), made
positions for every theme (:func:`themed_puzzle_in`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games import engine

#: The themes, as stored: what each puzzle asks of the learner.
WIN_NOW, BLOCK, FORK, WIN_IN_THREE, SAVE_DRAW, LONG_WIN = (
    "win_now", "block", "fork", "win_in_three", "save_draw", "long_win"
)  # fmt: skip
#: The themes whose answer keeps the draw; the others' wins.
DRAW_THEMES = (BLOCK, SAVE_DRAW)
#: How fast each win theme wins, in moves of both sides (a longer win: slower than these).
WIN_IN = {WIN_NOW: 1, FORK: 3, WIN_IN_THREE: 5}

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
    win_in: int | None  # None when the answer keeps the draw
    solution: tuple[int, ...]
    theme: str


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


@cache
def lines(size: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``k`` cells in a row, column or diagonal of a ``size`` board."""
    out = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    out.append(tuple((r + dr * i) * size + c + dc * i for i in range(k)))
    return tuple(out)


def puzzle_in(board: engine.Board, max_win_in: int = DEFAULT_MAX_WIN_IN) -> Found | None:
    """The win puzzle ``board`` makes, or None: one winning cell, winning in
    ``SHORTEST_WIN`` to ``max_win_in`` moves, all proven by the engine."""
    if board.is_game_over() or not could_win_within(board, max_win_in):
        return None
    return _win_puzzle(board, engine.move_outcomes(board, budget=FINDING_BUDGET), max_win_in)


def _win_puzzle(board: engine.Board, outcomes: dict, max_win_in: int) -> Found | None:
    if not all(evaluation.exact for evaluation in outcomes.values()):
        return None
    winning = [cell for cell, evaluation in outcomes.items() if evaluation.outcome == "win"]
    if len(winning) != 1:
        return None
    cell = winning[0]
    win_in = outcomes[cell].plies
    if not SHORTEST_WIN <= win_in <= max_win_in:
        return None
    # The defender resists longest, as it will when the puzzle is played.
    line = engine.principal_variation(board, budget=FINDING_BUDGET, resisting=engine.other_side(board.to_move))
    if not line.complete or line.cells[0] != cell or len(line.cells) != win_in:
        return None  # cannot happen with an exact analysis; a puzzle is kept only when all agrees
    return Found(str(board), board.variant, board.to_move, cell, win_in, line.cells, win_theme(win_in))


def win_theme(win_in: int) -> str:
    """The theme of a puzzle won in ``win_in`` moves (odd: the learner plays the last)."""
    return next((theme for theme, moves in WIN_IN.items() if moves == win_in), LONG_WIN)


def immediate_wins(board: engine.Board, side: str) -> list[int]:
    """The cells where ``side`` would complete a line at once, lowest first."""
    marks = str(board)
    cells = set()
    for line in lines(board.size, engine.VARIANTS[board.variant][1]):
        empty = [cell for cell in line if marks[cell] == "."]
        if len(empty) == 1 and all(marks[cell] in (side, ".") for cell in line):
            cells.add(empty[0])
    return sorted(cells)


def themed_puzzle_in(board: engine.Board, max_win_in: int = WIN_IN[WIN_IN_THREE]) -> Found | None:
    """The puzzle ``board`` makes, of any theme (the module's docstring says
    which), or None; a win within ``max_win_in`` moves is preferred to a
    block when the block also wins. Every answer is proven by the engine."""
    if len(board.legal_moves) < 2:
        return None  # no choice, no puzzle
    me, them = board.to_move, engine.other_side(board.to_move)
    mine = immediate_wins(board, me)
    if mine:
        # A line completed is a win by the rules themselves: no search needed.
        return Found(str(board), board.variant, me, mine[0], 1, (mine[0],), WIN_NOW) if len(mine) == 1 else None
    theirs = immediate_wins(board, them)
    if len(theirs) > 1:
        return None  # two threats: every move loses
    outcomes = engine.move_outcomes(board, budget=FINDING_BUDGET)
    if not all(evaluation.exact for evaluation in outcomes.values()):
        return None  # never guessed
    if any(evaluation.outcome == "win" for evaluation in outcomes.values()):
        return _win_puzzle(board, outcomes, max_win_in)  # None for two ways to win, or only a slow one
    holding = [cell for cell, evaluation in outcomes.items() if evaluation.outcome == "draw"]
    if len(holding) != 1:
        return None
    cell = holding[0]
    # The stored line: the answer and the defender's longest resistance to it.
    after = board.play(cell)
    line = (cell,) if after.is_game_over() else (cell, engine.toughest_reply(after, budget=FINDING_BUDGET))
    return Found(str(board), board.variant, me, cell, None, line, BLOCK if theirs else SAVE_DRAW)


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
