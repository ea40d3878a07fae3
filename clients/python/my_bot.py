"""Your bot: write choose_move, then run `python my_bot.py exam` (docs/bots.md).

This one is plain minimax with depth-aware scores, fine for 3x3 (4x4 and 5x5
need alpha-beta and more: that is the exercise)."""

import sys

from tttbot import main

LINES_3X3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board: str) -> str | None:
    for a, b, c in LINES_3X3:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def score(board: str, to_move: str, me: str, depth: int) -> int:
    """The position's value for ``me``: a win sooner is worth more, a loss later costs less."""
    won = winner(board)
    if won:
        return (10 - depth) if won == me else (depth - 10)
    if "." not in board:
        return 0
    other = "O" if to_move == "X" else "X"
    values = [
        score(board[:cell] + to_move + board[cell + 1 :], other, me, depth + 1)
        for cell, mark in enumerate(board)
        if mark == "."
    ]
    return max(values) if to_move == me else min(values)


def choose_move(board: str, to_move: str) -> int:
    other = "O" if to_move == "X" else "X"
    free = [cell for cell, mark in enumerate(board) if mark == "."]
    return max(free, key=lambda cell: score(board[:cell] + to_move + board[cell + 1 :], other, to_move, 1))


if __name__ == "__main__":
    sys.exit(main(choose_move))
