"""Review of a finished game: every move labelled from exact outcomes.

Each move is judged against the exact evaluation of its position and labelled
the way chess sites do (:data:`LABELS`), and the move that decided the result
is named. Where time is left once every move is labelled, a move that kept its
position's outcome also gets its traps counted (the opponent's replies that
would give up part of its outcome, ``games.search.analysis.count_traps``),
beside the most traps any best move would have left: the labels stay exact,
the traps say which of the equal moves gave the opponent more ways to go wrong.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Sequence

from games.rules import Board
from games.search.analysis import UNSOLVED, Evaluation, count_traps, evaluation
from games.search.registry import solver_for
from games.search.solver import Timeout, child_score_3

#: The labels of a reviewed move, best first, as chess sites use them.
LABELS = ("best", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class MoveReview:
    """One move of a game judged against the exact evaluation of its position."""

    ply: int  # 0 for the first move
    player: str  # "X" or "O"
    cell: int
    label: str  # one of LABELS, or "unsolved" when the position was not solved in time
    played: Evaluation
    best: Evaluation
    best_cells: tuple[int, ...]
    # For a move that kept the outcome (best or inaccuracy), when there was
    # time to count them: the traps it left, and the most any best cell left,
    # at ``most_traps_cell`` (the lowest such cell). None otherwise.
    traps: int | None = None
    most_traps: int | None = None
    most_traps_cell: int | None = None

    def to_dict(self) -> dict:
        """As plain values (for JSON): :meth:`from_dict` gives the same MoveReview back."""
        return {
            "ply": self.ply,
            "player": self.player,
            "cell": self.cell,
            "label": self.label,
            "played": self.played.to_dict(),
            "best": self.best.to_dict(),
            "best_cells": list(self.best_cells),
            "traps": self.traps,
            "most_traps": self.most_traps,
            "most_traps_cell": self.most_traps_cell,
        }

    @classmethod
    def from_dict(cls, data: dict) -> MoveReview:
        """The MoveReview :meth:`to_dict` made ``data`` of."""
        return cls(
            data["ply"],
            data["player"],
            data["cell"],
            data["label"],
            Evaluation.from_dict(data["played"]),
            Evaluation.from_dict(data["best"]),
            tuple(data["best_cells"]),
            # Reviews stored before traps were counted have none.
            data.get("traps"),
            data.get("most_traps"),
            data.get("most_traps_cell"),
        )


@dataclass(frozen=True)
class Review:
    """Every move labelled, and the ply of the move that decided the result (or None)."""

    moves: tuple[MoveReview, ...]
    decisive_ply: int | None
    exact: bool

    def to_dict(self) -> dict:
        """As plain values (for JSON): :meth:`from_dict` gives the same Review back."""
        return {
            "moves": [move.to_dict() for move in self.moves],
            "decisive_ply": self.decisive_ply,
            "exact": self.exact,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Review:
        """The Review :meth:`to_dict` made ``data`` of."""
        return cls(tuple(MoveReview.from_dict(move) for move in data["moves"]), data["decisive_ply"], data["exact"])

    def counts(self) -> dict[str, int]:
        out = {label: 0 for label in LABELS}
        for move in self.moves:
            if move.label in out:
                out[move.label] += 1
        return out


def _label(played: Evaluation, best: Evaluation) -> str:
    """best; inaccuracy (same outcome, slower win or sooner loss); mistake (a
    win thrown to a draw); blunder (a win or a draw thrown to a loss)."""
    if played.score == best.score:
        return "best"
    if played.outcome == best.outcome:
        return "inaccuracy"
    if played.outcome == "loss":
        return "blunder"
    return "mistake"


def _judge(board: Board, cell: int, deadline: float) -> tuple[Evaluation, Evaluation, tuple[int, ...]]:
    """(the played cell's evaluation, the best one, every best cell) for ``board``."""
    geo = board._geo
    ply_after = board.ply + 1
    if geo.size == 3:
        scores = {c: child_score_3(board, c) for c in board.legal_moves}
        top = max(scores.values())
        best_cells = tuple(sorted(c for c, s in scores.items() if s == top))
        return evaluation(scores[cell], ply_after, geo.cells), evaluation(top, ply_after, geo.cells), best_cells
    solver = solver_for(geo.size)
    me, opp = board._mover_masks()
    with solver.lock:
        solver.deadline = deadline
        try:
            value = solver.exact(me, opp)
            played = solver.score_move(me, opp, cell, value - 1, value + 1)
            if played >= value:
                played = value
            else:
                played = solver.score_move(me, opp, cell)
            best_cells = tuple(sorted(solver.best_cells(me, opp, value, board.legal_moves)))
        finally:
            solver.deadline = None
    return evaluation(played, ply_after, geo.cells), evaluation(value, ply_after, geo.cells), best_cells


#: Default time budget of a whole review on 4x4 and 5x5, in seconds.
REVIEW_BUDGET = 10.0


def review(moves: Sequence[int], size: int = 3, budget: float | None = None) -> Review:
    """Label every move of a game from exact outcomes: best, inaccuracy, mistake or blunder.

    The decisive move is the last one that changed the outcome under perfect
    play: in a lost game, the move that really lost it. On 4x4 and 5x5 the
    positions are solved from the last move back, within ``budget`` seconds
    for the whole game (default :data:`REVIEW_BUDGET`); a move whose position
    was not solved in time is labelled "unsolved", never guessed.
    """
    boards = [Board.empty(size)]
    for cell in moves:
        boards.append(boards[-1].play(cell))  # raises the precise error for a bad or illegal cell
    deadline = time.perf_counter() + (REVIEW_BUDGET if budget is None else budget)
    reviewed: list[MoveReview] = []
    out_of_time = False
    for ply in reversed(range(len(moves))):
        board, cell = boards[ply], moves[ply]
        if not out_of_time:
            try:
                played, best, best_cells = _judge(board, cell, deadline)
            except Timeout:
                out_of_time = True
        if out_of_time:
            reviewed.append(MoveReview(ply, board.to_move, cell, "unsolved", UNSOLVED, UNSOLVED, ()))
        else:
            reviewed.append(MoveReview(ply, board.to_move, cell, _label(played, best), played, best, best_cells))
    reviewed.reverse()
    if not out_of_time:
        reviewed = _with_traps(boards, reviewed, deadline)
    decisive = next((m.ply for m in reversed(reviewed) if m.label in ("mistake", "blunder")), None)
    return Review(tuple(reviewed), decisive, exact=not out_of_time)


def _with_traps(boards: list[Board], reviewed: list[MoveReview], deadline: float) -> list[MoveReview]:
    """``reviewed`` with the traps of every move that kept its position's
    outcome, first move first, as far as ``deadline`` allows; the moves past
    it keep their labels and no traps."""
    counted = []
    for move in reviewed:
        if move.label in ("best", "inaccuracy") and move.played.outcome == move.best.outcome:
            evaluations = {cell: move.best for cell in move.best_cells}
            evaluations[move.cell] = move.played
            try:
                traps = count_traps(boards[move.ply], evaluations, sorted(evaluations), deadline)
            except Timeout:
                return counted + reviewed[len(counted) :]
            most_cell = max(move.best_cells, key=lambda cell: (traps[cell], -cell))
            move = replace(move, traps=traps[move.cell], most_traps=traps[most_cell], most_traps_cell=most_cell)
        counted.append(move)
    return counted
