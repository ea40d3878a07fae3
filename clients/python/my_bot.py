"""Your bot: write choose_move, then run `python my_bot.py exam` (docs/bots.md).

This one is minimax with depth-aware scores, written as negamax and
remembering the positions it has scored: a win sooner is worth more, a loss
later costs less. It is quick on 3x3; 4x4 and 5x5 need alpha-beta and more
(that is the exercise)."""

import sys
from functools import cache

from tttbot import main

LINES_3X3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def wins(board: str, mark: str) -> bool:
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES_3X3)


def after(board: str, cell: int, mark: str) -> str:
    return board[:cell] + mark + board[cell + 1 :]


@cache
def move_score(board: str, cell: int, mark: str) -> int:
    """What playing ``cell`` is worth to ``mark``: 10 − k for a win k moves
    from now (9 at once), −(10 − k) for a loss k moves away, 0 for a draw."""
    played = after(board, cell, mark)
    if wins(played, mark):
        return 9
    if "." not in played:
        return 0
    reply = -best_score(played, "O" if mark == "X" else "X")
    return reply - 1 if reply > 0 else reply + 1 if reply < 0 else 0  # one move further away


@cache
def best_score(board: str, mark: str) -> int:
    return max(move_score(board, cell, mark) for cell, here in enumerate(board) if here == ".")


def choose_move(board: str, to_move: str) -> int:
    free = [cell for cell, mark in enumerate(board) if mark == "."]
    return max(free, key=lambda cell: move_score(board, cell, to_move))


if __name__ == "__main__":
    sys.exit(main(choose_move))
