"""The engine's moves: perfect play, and weaker play on purpose.

:func:`best_move` plays at one of :data:`LEVELS`: ``perfect`` never loses on
any board; the others lose on purpose, each less often. :func:`opening_move`
is the AI's first move by the seeds' start modes (:data:`START_MODES`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.rules import Board, IllegalMoveError, completes_line
from games.search.analysis import recalled
from games.search.registry import solver_for
from games.search.solver import BEST_3, Timeout

LEVELS = ("easy", "medium", "hard", "perfect")
START_MODES = ("centre", "random", "minimax")


_rng = random.Random()


def _random_for(seed: int | None) -> random.Random:
    return _rng if seed is None else random.Random(seed)


def _perfect_move(board: Board, rng: random.Random, deadline: float | None = None) -> int:
    """One of the best cells for the mover: never worse, fastest win, slowest loss.

    An analysis already made answers at once. Otherwise the position is solved
    once and the first cell, in random order, that keeps its score is played:
    proving one good cell is far cheaper than proving all. Past ``deadline``
    (perf_counter time), ``Timeout``.
    """
    known = recalled(board)
    cells = list(known.best_cells) if known is not None else board.legal_moves
    rng.shuffle(cells)
    if known is not None:
        return cells[0]  # every one of them is best
    return _search_perfect_cells(board, deadline, cells, first_only=True)[0]


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
#: own.
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


@dataclass(frozen=True)
class Line:
    """A line of best play: ``cells`` played in turn from a position, each the
    mover's perfect move (fastest win, slowest loss; among equals the lowest
    cell, so a line is the same every time it is asked for). ``complete`` is
    True when the line reaches the end of the game, False when the budget ran
    out first (the cells then are the moves proven so far)."""

    cells: tuple[int, ...]
    complete: bool

    def to_dict(self) -> dict:
        """As plain values (for JSON): :meth:`from_dict` gives the same Line back."""
        return {"cells": list(self.cells), "complete": self.complete}

    @classmethod
    def from_dict(cls, data: dict) -> Line:
        """The Line :meth:`to_dict` made ``data`` of."""
        return cls(tuple(data["cells"]), data["complete"])


#: Seconds a principal variation may take in all, by default.
LINE_BUDGET = 3.0


def principal_variation(board: Board, budget: float | None = None, *, resisting: str | None = None) -> Line:
    """The line of best play from ``board`` to the end of the game: what
    perfect play by both sides looks like from here. Exact on every board;
    within ``budget`` seconds (default :data:`LINE_BUDGET`) on 4x4 and 5x5.
    The ``resisting`` side ("X" or "O"), if given, plays its
    :func:`toughest_reply` each time, as a defender in a puzzle does."""
    deadline = time.perf_counter() + (LINE_BUDGET if budget is None else budget)
    cells: list[int] = []
    while not board.is_game_over():
        try:
            if board.to_move == resisting:
                cell = _toughest_cell(board, deadline)
            else:
                cell = _perfect_cells(board, deadline, first_only=True)[0]
        except Timeout:
            return Line(tuple(cells), complete=False)
        cells.append(cell)
        board = board.play(cell)
    return Line(tuple(cells), complete=True)


def toughest_reply(board: Board, budget: float | None = None) -> int:
    """The move that resists longest: of the mover's best cells (in a lost
    position, the slowest losses), the one after which the other side has
    the fewest moves that keep its best score, so the right answer is the
    hardest to find; the lowest such cell among equals. It blocks a threat
    where the lowest best cell would not bother. Always one of the best
    cells: when ``budget`` seconds (default :data:`LINE_BUDGET`) run out on
    4x4 or 5x5 before the choice is made, the perfect move."""
    if not board.legal_moves:
        raise IllegalMoveError(f'there is no move to make: the game is over in "{board}"')
    try:
        return _toughest_cell(board, time.perf_counter() + (LINE_BUDGET if budget is None else budget))
    except Timeout:
        return _perfect_move(board, _rng)


def _toughest_cell(board: Board, deadline: float) -> int:
    """:func:`toughest_reply`'s choice; Timeout past ``deadline``."""
    best = _perfect_cells(board, deadline)
    if len(best) == 1:
        return best[0]
    return min(best, key=lambda cell: (_good_answers(board.play(cell), deadline), cell))


def _good_answers(board: Board, deadline: float) -> int:
    """How many moves keep the mover's best score (none once the game is over)."""
    return 0 if board.is_game_over() else len(_perfect_cells(board, deadline))


def _perfect_cells(board: Board, deadline: float, first_only: bool = False) -> list[int]:
    """The mover's best cells, lowest first (perhaps only the lowest, with
    ``first_only``); Timeout past ``deadline``."""
    if board._geo.size == 3:
        return list(BEST_3[board._x | board._o << 9])
    known = recalled(board)
    if known is not None:
        return known.best_cells
    return _search_perfect_cells(board, deadline, first_only=first_only)


def _search_perfect_cells(
    board: Board, deadline: float | None, cells: list[int] | None = None, first_only: bool = False
) -> list[int]:
    """The mover's best cells on 4x4 or 5x5 among ``cells`` (every free cell
    by default), in their order (only the first with ``first_only``: proving
    one good cell is far cheaper than proving all); Timeout past ``deadline``."""
    solver = solver_for(board._geo.size)
    me, opp = board._mover_masks()
    with solver.lock:
        solver.deadline = deadline
        try:
            value = solver.exact(me, opp)  # some cell always reaches it
            found = solver.best_cells(me, opp, value, board.legal_moves if cells is None else cells)
            cells = [next(found)] if first_only else list(found)
        finally:
            solver.deadline = None
    return cells
