"""The positions of an exam and how an answer is graded: pure Python on the
engine's exact outcomes, no database.

3x3: every position reachable in play and not over, each move's outcome from
one table made once per process. 4x4 and 5x5: positions sampled from random
play (reproducible from a seed), each move's outcome solved by the engine when
the exam is made; a position the engine does not solve within its budget is
skipped for another, so every stored outcome is exact.
"""

from __future__ import annotations

import random
import time
from functools import cache

from games import engine
from games.engine import Board

BEST = "best"
SLOWER_WIN = "slower_win"
WIN_TO_DRAW = "win_to_draw"
LOSS = "loss"
QUICKER_LOSS = "quicker_loss"

#: Seconds the engine may spend on one position of a 4x4 or 5x5 exam: most
#: 5x5 positions take a few milliseconds (the tablebase answers up to six
#: marks), a few just past the table take a few tenths; one not solved in time
#: is skipped for another, so a sampled exam leans slightly away from them.
POSITION_BUDGET = 0.5
#: The most positions a sampled exam asks.
MOST_POSITIONS = 1000
#: Seconds of engine time the sampling of one exam may take, in the engine's
#: processes (never a request's thread): past them the exam has the positions
#: found so far.
SAMPLE_SECONDS = 30.0


def outcomes_of(board: Board, budget: float | None = None) -> dict[str, dict] | None:
    """``{"cell": {"outcome", "plies"}}`` for every legal cell, or None when
    the engine did not solve every one within ``budget`` seconds."""
    found = engine.move_outcomes(board, budget=budget)
    if any(not evaluation.exact for evaluation in found.values()):
        return None
    return {str(cell): {"outcome": e.outcome, "plies": e.plies} for cell, e in sorted(found.items())}


@cache
def every_position_3x3() -> tuple[tuple[str, dict[str, dict]], ...]:
    """Every 3x3 position reachable in play and not over, with each move's
    outcome, in order of marks then board string: made once per process."""
    seen = {str(Board.empty(3)): Board.empty(3)}
    frontier = list(seen.values())
    while frontier:
        following = []
        for board in frontier:
            if board.is_game_over():
                continue
            for cell in board.legal_moves:
                child = board.play(cell)
                if str(child) not in seen:
                    seen[str(child)] = child
                    following.append(child)
        frontier = following
    open_positions = sorted((b for b in seen.values() if not b.is_game_over()), key=lambda b: (b.ply, str(b)))
    return tuple((str(board), outcomes_of(board)) for board in open_positions)


def sampled_positions(size: int, count: int, seed: int, seconds: float) -> list[tuple[str, dict[str, dict]]]:
    """Up to ``count`` different positions of a ``size`` board reached by
    random play from ``seed``, none over, each with every move's exact
    outcome: those found within ``seconds``."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    found: dict[str, dict[str, dict]] = {}
    attempts = 0
    while len(found) < count and attempts < count * 50 and time.monotonic() < deadline:
        attempts += 1
        board = Board.empty(size)
        for _ in range(rng.randrange(size * size)):
            board = board.play(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if board.is_game_over() or str(board) in found:
            continue
        outcomes = outcomes_of(board, min(POSITION_BUDGET, max(0.0, deadline - time.monotonic())))
        if outcomes is not None:
            found[str(board)] = outcomes
    return list(found.items())


def sample_job(size: int, count: int, seed: int, seconds: float) -> tuple[list, float]:
    """:func:`sampled_positions` as a job of the engine's pool
    (games.engine_work.asking.ask): the positions, and the seconds they took."""
    start = time.perf_counter()
    return sampled_positions(size, count, seed, seconds), time.perf_counter() - start


def _rank(result: dict) -> tuple[int, int]:
    """Higher is better for the mover: a win sooner, a draw, a loss later."""
    if result["outcome"] == "win":
        return (2, -result["plies"])
    if result["outcome"] == "draw":
        return (1, 0)
    return (0, result["plies"])


def best_cells(outcomes: dict[str, dict]) -> list[int]:
    """The depth-aware best moves: the fastest win, a draw, or the slowest loss."""
    top = max(_rank(result) for result in outcomes.values())
    return sorted(int(cell) for cell, result in outcomes.items() if _rank(result) == top)


def grade(outcomes: dict[str, dict], cell: int) -> str:
    """The grade of answering ``cell`` where the moves are worth ``outcomes``."""
    best = max(outcomes.values(), key=_rank)
    answer = outcomes[str(cell)]
    if _rank(answer) == _rank(best):
        return BEST
    if best["outcome"] == "win":
        return {"win": SLOWER_WIN, "draw": WIN_TO_DRAW}.get(answer["outcome"], LOSS)
    if best["outcome"] == "draw":
        return LOSS
    return QUICKER_LOSS


@cache
def _lines(size: int) -> tuple[tuple[int, ...], ...]:
    """Every run of cells that wins on a ``size`` board (three in a row on 3x3, four on 4x4 and 5x5)."""
    k = 3 if size == 3 else 4
    lines = []
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if 0 <= end_row < size and 0 <= end_col < size:
                    lines.append(tuple((row + d_row * i) * size + col + d_col * i for i in range(k)))
    return tuple(lines)


def immediate_wins(board: str, side: str) -> list[int]:
    """The empty cells of ``board`` (its string) that would complete a line for ``side`` at once."""
    size = round(len(board) ** 0.5)
    wins = set()
    for line in _lines(size):
        marks = [board[cell] for cell in line]
        if marks.count(side) == len(line) - 1 and marks.count(".") == 1:
            wins.add(line[marks.index(".")])
    return sorted(wins)


def missed_pattern(board: str, to_move: str, cell: int) -> str | None:
    """Why a losing answer lost, when the position shows it plainly:
    "missed_win" (a line could be completed at once, and was not), "missed_block"
    (the opponent threatened to complete one next move, and the answer let it),
    else None."""
    wins = immediate_wins(board, to_move)
    if wins and cell not in wins:
        return "missed_win"
    threats = immediate_wins(board, engine.other_side(to_move))
    if threats and cell not in threats:
        return "missed_block"
    return None
