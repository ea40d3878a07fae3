"""The fatalist and the depth-aware player, on positions where they part.

A minimax that scores every win +1 and every loss -1 (the classroom lab's
first try) plays perfectly and still looks careless: a win now and a win in
three moves are worth the same to it, and so are losing now and losing later,
so it takes the first such move in its order. Scoring a win ``WIN_SCORE - d``
plies below the root (``games.search.tree``) makes it win fastest and lose
slowest. :func:`fatalist_examples` finds positions where the difference shows,
by searching every reachable 3x3 position: nothing here is typed in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from games.rules import Board
from games.search.nodes import WIN_SCORE
from games.search.tree import move_values

#: What the fatalist does wrong, by the outcome it cannot avoid anyway.
KINDS = ("slower win", "sooner loss")


@dataclass(frozen=True)
class Choice:
    """A move one scoring picks at the root, what it scored there, and how the
    game then goes with best play: ``result`` ("x_won", "o_won", "draw") after
    ``plies`` moves, this one included."""

    cell: int
    value: int
    result: str
    plies: int


@dataclass(frozen=True)
class FatalistExample:
    """A position where the fatalist's choice ends the game worse than the depth-aware one's."""

    position: str
    kind: str
    fatalist: Choice
    depth_aware: Choice
    fatalist_values: dict[int, int]
    depth_values: dict[int, int]


def choice(board: Board, scoring: str) -> Choice:
    """The move plain minimax picks with ``scoring`` (the first best in cell
    order, as the classroom's loop does) and how the game then goes."""
    values = move_values(board, scoring)
    pick = max if board.to_move == "X" else min
    best = pick(values.values())
    cell = next(cell for cell, value in values.items() if value == best)
    truth = move_values(board, "depth")[cell]
    if truth == 0:
        return Choice(cell, values[cell], "draw", len(board.legal_moves))
    return Choice(cell, values[cell], "x_won" if truth > 0 else "o_won", WIN_SCORE - abs(truth))


def _example(board: Board) -> FatalistExample | None:
    fatalist, depth_aware = choice(board, "fatalist"), choice(board, "depth")
    if fatalist.plies == depth_aware.plies or fatalist.result == "draw":
        return None
    winning = fatalist.result == ("x_won" if board.to_move == "X" else "o_won")
    return FatalistExample(
        position=str(board),
        kind="slower win" if winning else "sooner loss",
        fatalist=fatalist,
        depth_aware=depth_aware,
        fatalist_values=move_values(board, "fatalist"),
        depth_values=move_values(board, "depth"),
    )


@functools.cache
def fatalist_examples() -> tuple[FatalistExample, ...]:
    """One 3x3 position of each kind in :data:`KINDS`, found by searching every
    reachable position: the one with the fewest free cells, so that its whole
    tree fits on a page, ties going to the first position string."""
    found: dict[str, FatalistExample] = {}
    for board in sorted(_reachable_3x3(), key=lambda b: (-b.ply, str(b))):
        if board.is_game_over():
            continue
        example = _example(board)
        if example is not None and example.kind not in found:
            found[example.kind] = example
        if len(found) == len(KINDS):
            break
    return tuple(found[kind] for kind in KINDS if kind in found)


def _reachable_3x3() -> set[Board]:
    seen = {Board.empty(3)}
    frontier = list(seen)
    while frontier:
        board = frontier.pop()
        for cell in board.legal_moves:
            child = board.play(cell)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen
