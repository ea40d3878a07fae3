"""Random unfinished positions as games reach them: the engine benchmark and
the engine's tests draw the positions they analyse from here."""

from __future__ import annotations

import random

from games.engine import Board


def random_position(rng: random.Random, marks: int, clustered: bool = False, size: int = 5) -> Board:
    """An unfinished position with ``marks`` marks played at random; a
    clustered one puts each mark beside an earlier one, as people play."""
    while True:
        board = Board.empty(size)
        while board.ply < marks and not board.is_game_over():
            moves = board.legal_moves
            if clustered and board.ply:
                taken = [cell for cell in range(size * size) if str(board)[cell] != "."]
                near = [
                    move
                    for move in moves
                    if any(abs(move // size - t // size) <= 1 and abs(move % size - t % size) <= 1 for t in taken)
                ]
                moves = near or moves
            board = board.play(rng.choice(moves))
        if not board.is_game_over():
            return board
