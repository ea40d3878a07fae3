"""Tic-tac-toe rules, perfect play, weaker play on purpose, and explanations.

Pure Python: nothing here imports Django, touches a database or keeps mutable
state that a caller can see. The rules of the three variants (3x3, three in a
row; 4x4 and 5x5, four in a row) and the immutable :class:`Board` live in
``games.rules``; this module is the one the rest of the site imports.

The searches live in ``games.search``: the exact solver and its depth-aware
scores in ``games.search.solver``.

Every board is solved exactly: 3x3 by a table made at import, 4x4 and 5x5 by
alpha-beta with a transposition table, and on 5x5 an opening book of solved
positions near the start (``games.search.book``, built by ``scripts/build_book``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Sequence

from games.rules import (
    VARIANTS,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    completes_line,
)
from games.search.analysis import DEFAULT_BUDGET as DEFAULT_BUDGET
from games.search.analysis import OUTCOMES, UNSOLVED, Analysis, Evaluation, SearchStats, analyse, evaluation, recalled
from games.search.counts import TEXTBOOK_COUNT_LIMIT as TEXTBOOK_COUNT_LIMIT
from games.search.solver import WIN as WIN
from games.search.solver import BEST_3, ExactSolver, Timeout, child_score_3, solver_for

__all__ = [
    "Board",
    "Evaluation",
    "UNSOLVED",
    "Analysis",
    "SearchStats",
    "MoveReview",
    "Review",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LABELS",
    "LEVELS",
    "OUTCOMES",
    "UNBEATABLE_LEVEL",
    "START_MODES",
    "VARIANTS",
    "best_move",
    "analyse",
    "review",
    "opening_move",
]

LEVELS = ("easy", "medium", "hard", "perfect")
START_MODES = ("centre", "random", "minimax")


_rng = random.Random()


def _random_for(seed: int | None) -> random.Random:
    return _rng if seed is None else random.Random(seed)


def _perfect_move(board: Board, rng: random.Random, deadline: float | None = None) -> int:
    """One of the best cells for the mover: never worse, fastest win, slowest loss.

    An analysis already made answers at once. Otherwise the position is solved
    once and the first cell, in random order, that keeps its score is played:
    proving one good cell is far cheaper than proving all. On 5x5 the cell
    the opening book plays is tried first, then the cells whose positions the
    book knows, so the engine stays on the book's line while it can. Past
    ``deadline`` (perf_counter time), ``Timeout``.
    """
    known = recalled(board)
    if known is not None:
        return rng.choice(known.best_cells)
    solver = solver_for(board._geo.size)
    me, opp = board._mover_masks()
    cells = board.legal_moves
    rng.shuffle(cells)
    if solver.book:
        cells.sort(key=lambda cell: _book_rank(solver, board, cell))
    with solver.lock:
        solver.deadline = deadline
        try:
            value = solver.exact(me, opp)
            for cell in solver.best_cells(me, opp, value, cells):
                return cell
        finally:
            solver.deadline = None
    raise AssertionError(f'no cell reaches the score of "{board}"')  # cannot happen: value is some cell's score


def _book_rank(solver: ExactSolver, board: Board, cell: int) -> int:
    """0 for the book's own move, 1 for a cell whose position the book knows, 2 otherwise."""
    if board.ply + 1 > solver.book_plies:
        return 2
    me, opp = board._mover_masks()
    key = solver.canonical(opp | (me | 1 << cell) << board._geo.cells)
    if key in solver.book_line:
        return 0
    return 1 if key in solver.book else 2


def _tactical_cells(board: Board) -> tuple[list[int], list[int]]:
    """(cells that win at once, cells the opponent would win on next)."""
    me, opp = board._mover_masks()
    legal = board.legal_moves
    geo = board._geo
    return (
        [c for c in legal if completes_line(geo, me, c)],
        [c for c in legal if completes_line(geo, opp, c)],
    )


# What each level does, in the order its checks are tried. Strength comes from
# two dials: how often it plays the perfect move, and whether it at least takes
# a win in one and blocks a loss in one when it does not. Only "perfect" never
# loses; the others are weaker on purpose.
_LEVEL_SKILL = {
    # level: (chance of the perfect move, takes wins in one, blocks losses in one)
    "easy": (0.0, False, False),
    "medium": (0.0, True, True),
    "hard": (0.7, True, True),
    "perfect": (1.0, True, True),
}

#: The one level that never loses, on every board.
UNBEATABLE_LEVEL = "perfect"
#: Seconds a weaker level looks for the perfect move before it settles for its
#: own (only far from the 5x5 book does that take longer).
WEAKER_LEVEL_BUDGET = 1.0


def best_move(board: Board, level: str = "perfect", seed: int | None = None, budget: float | None = None) -> int:
    """The cell the engine plays at ``level`` ("easy", "medium", "hard", "perfect").

    ``perfect`` never loses on any board, wins fastest and, when lost, loses
    slowest, choosing among equally good cells at random (``seed`` makes that
    repeatable). Weaker levels mix in random moves: ``easy`` plays at random,
    ``medium`` takes a win in one and blocks a loss in one but otherwise plays
    at random, ``hard`` plays the perfect move most of the time, when it finds
    it within ``budget`` seconds (default :data:`WEAKER_LEVEL_BUDGET`), and
    ``medium``'s move otherwise. ``perfect`` has no budget: it always finds
    the perfect move.
    """
    if level == "perfect" and board._geo.size == 3:
        # The hot path: one look-up in the solved table.
        cells = BEST_3.get(board._x | board._o << 9)
        if not cells:
            raise IllegalMoveError(f'there is no move to make: the game is over in "{board}"')
        if len(cells) == 1:
            return cells[0]
        return _random_for(seed).choice(cells)
    if level not in _LEVEL_SKILL:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    legal = board.legal_moves
    if not legal:
        raise IllegalMoveError(f'there is no move to make: the game is over in "{board}"')
    rng = _random_for(seed)
    skill, takes_wins, blocks = _LEVEL_SKILL[level]
    if skill == 1.0:
        return _perfect_move(board, rng)
    if skill and rng.random() < skill:
        if board._geo.size == 3:
            return rng.choice(BEST_3[board._x | board._o << 9])
        try:
            return _perfect_move(board, rng, time.perf_counter() + (WEAKER_LEVEL_BUDGET if budget is None else budget))
        except Timeout:
            pass  # a weaker level settles for less
    wins, threats = _tactical_cells(board)
    if takes_wins and wins:
        return rng.choice(wins)
    if blocks and threats:
        return rng.choice(threats)
    return rng.choice(legal)


def opening_move(board: Board, mode: str, level: str = "perfect", seed: int | None = None) -> int:
    """The AI's first move by the seeds' start modes: "centre", "random" or "minimax"."""
    if mode not in START_MODES:
        raise ValueError(f"unknown start mode {mode!r}; modes are {', '.join(START_MODES)}")
    if board.ply:
        return best_move(board, level, seed)
    rng = _random_for(seed)
    if mode == "centre":
        return rng.choice(board._geo.centre)
    if mode == "random":
        return rng.choice(board.legal_moves)
    return best_move(board, level, seed)


# --------------------------------------------------------------------------
# Review of a finished game.

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


@dataclass(frozen=True)
class Review:
    """Every move labelled, and the ply of the move that decided the result (or None)."""

    moves: tuple[MoveReview, ...]
    decisive_ply: int | None
    exact: bool

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
    decisive = next((m.ply for m in reversed(reviewed) if m.label in ("mistake", "blunder")), None)
    return Review(tuple(reviewed), decisive, exact=not out_of_time)
