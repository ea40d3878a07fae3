"""The engine's answers in a learner's words: who wins, and in how many moves.

The engine speaks for the player to move ("win in 3", "loss in 4"). A learner
looking at a board thinks of the players: "X wins in 3", "O wins in 4",
"draw". The analysis board, the API's documentation and ``manage.py play``'s
``why`` all say it the same way, from here. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine

#: What a cell says when the search ran out of time on it: never a guess.
NOT_SOLVED = "not solved in time"


def cell_name(cell: int, size: int) -> str:
    """ "row 1, column 3": a cell as a person counts, from 1."""
    row, column = divmod(cell, size)
    return f"row {row + 1}, column {column + 1}"


def winner_and_distance(evaluation: engine.Evaluation, mover: str) -> tuple[str, str]:
    """The two halves of an outcome, for a cell too small for one line:
    ("X wins", "in 3"), ("draw", ""), ("not solved", "in time")."""
    if evaluation.outcome == "win":
        return f"{mover} wins", f"in {evaluation.plies}"
    if evaluation.outcome == "loss":
        return f"{engine.other_side(mover)} wins", f"in {evaluation.plies}"
    if evaluation.outcome == "draw":
        return "draw", ""
    return "not solved", "in time"


def outcome_words(evaluation: engine.Evaluation, mover: str) -> str:
    """What ``mover`` playing a cell leads to with perfect play from both sides:
    "X wins in 3" (three moves, this one included), "O wins in 4", "draw",
    or "not solved in time"."""
    if evaluation.outcome == "unsolved":
        return NOT_SOLVED
    return " ".join(part for part in winner_and_distance(evaluation, mover) if part)


@dataclass(frozen=True)
class LineMove:
    """One move of a line of best play."""

    number: int  # 1 for the first move of the line
    ply: int  # the position's ply once it is played
    side: str
    cell: int


def line_moves(board: engine.Board, line: engine.Line) -> list[LineMove]:
    """The moves of ``line`` from ``board``, each with who plays it."""
    moves = []
    for number, cell in enumerate(line.cells, start=1):
        moves.append(LineMove(number, board.ply + 1, board.to_move, cell))
        board = board.play(cell)
    return moves


def end_of_line(board: engine.Board, line: engine.Line) -> engine.Board:
    """The position once every move of ``line`` is played from ``board``."""
    for cell in line.cells:
        board = board.play(cell)
    return board


def line_end(board: engine.Board, line: engine.Line) -> str:
    """How the line of best play from ``board`` ends: "X wins in 5", "draw",
    or "not solved in time" when the search stopped before the end."""
    if not line.complete:
        return NOT_SOLVED
    end = end_of_line(board, line)
    if end.winner:
        return f"{end.winner} wins in {len(line.cells)}"
    return "draw"


def position_value(board: engine.Board, analysis: engine.Analysis, line: engine.Line) -> str:
    """What the position is worth with perfect play from both sides, in words.

    From the analysis when every cell was solved; else from the line of best
    play when it reached the end (it is proven move by move); else
    "not solved in time". Never from the solved cells alone: an unsolved one
    might be better.
    """
    if board.is_game_over():
        return f"{board.winner} won" if board.winner else "draw"
    if analysis.exact and analysis.best_cells:
        return outcome_words(analysis[analysis.best_cells[0]], board.to_move)
    return line_end(board, line)
