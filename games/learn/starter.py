"""The starter set: puzzles of every theme on every board, made from exact
solutions rather than from played games, so a new site has puzzles from its
first minute.

Pure Python over the engine, no Django. Games are played out from the empty
board by a seeded random player that likes to build on its own lines (a
purely random one rarely threatens anything on 5x5); every position on the
way is offered to :func:`games.learn.finding.themed_puzzle_in`, and the first
puzzles of each theme are kept, one per position turned or mirrored. The
seed is fixed, so every site gets the same set, and making it again gives
the same puzzles.
"""

from __future__ import annotations

import random
from functools import cache

from games import engine
from games.learn import finding

#: The themes of the starter set, in the order a learner meets them.
STARTER_THEMES = (finding.WIN_NOW, finding.BLOCK, finding.FORK, finding.SAVE_DRAW, finding.WIN_IN_THREE)
#: Puzzles of each theme on each board: 40 a board.
PER_THEME = 8
#: The seed of the random player: the same set on every site.
STARTER_SEED = 1
#: Games played out at most, per board, before settling for what was found
#: (4x4 has few positions where only one move saves the draw: it looks longer).
MOST_GAMES = {3: 2000, 4: 2000, 5: 400}
#: Marks beyond which a position is not offered: the puzzles are found early
#: in a game, and later positions of a random game rarely make one.
MOST_MARKS = {3: 8, 4: 12, 5: 11}
#: How often the player builds on its own lines rather than playing anywhere.
BUILDING = 0.7


@cache
def starter_puzzles(variant: str, per_theme: int = PER_THEME, seed: int = STARTER_SEED) -> tuple[finding.Found, ...]:
    """Up to ``per_theme`` puzzles of each starter theme on ``variant``'s board
    ("3x3", "4x4", "5x5"), theme by theme, the same ones for the same seed
    (made once a process: the answer never changes)."""
    size = engine.VARIANTS[variant][0]
    rng = random.Random(f"{seed}:{variant}")
    found: dict[str, list[finding.Found]] = {theme: [] for theme in STARTER_THEMES}
    seen: set[str] = set()
    for _ in range(MOST_GAMES[size]):
        if all(len(puzzles) >= per_theme for puzzles in found.values()):
            break
        board = engine.Board.empty(size)
        while not board.is_game_over() and board.ply <= MOST_MARKS[size]:
            position = str(board)
            if position not in seen:
                seen |= finding.symmetric_positions(position)
                puzzle = finding.themed_puzzle_in(board)
                if puzzle is not None and len(found.get(puzzle.theme, ())) < per_theme:
                    found[puzzle.theme].append(puzzle)
            board = board.play(_next_cell(board, rng))
    return tuple(puzzle for theme in STARTER_THEMES for puzzle in found[theme])


def _next_cell(board: engine.Board, rng: random.Random) -> int:
    """A cell on one of the mover's open lines most of the time (more marks
    of its own, more likely), otherwise any free cell."""
    legal = board.legal_moves
    if rng.random() >= BUILDING:
        return rng.choice(legal)
    me, them = board.to_move, engine.other_side(board.to_move)
    marks = str(board)
    weight = dict.fromkeys(legal, 0)
    for line in finding.lines(board.size, engine.VARIANTS[board.variant][1]):
        if any(marks[cell] == them for cell in line):
            continue
        own = sum(marks[cell] == me for cell in line)
        for cell in line:
            if marks[cell] == ".":
                weight[cell] += own
    if not any(weight.values()):
        return rng.choice(legal)
    return rng.choices(legal, weights=[weight[cell] for cell in legal])[0]
