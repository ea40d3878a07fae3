"""Making puzzles (``manage.py make_puzzles``): the starter set, and those
found in the games played on the site.

The starter set (``games.learn.starter``) is made once per board: a board
that has any of its puzzles is left as it is, so a rerun costs one query and
a starter puzzle staff deleted stays deleted. From played games, every
position of every finished game is offered to the engine
(``games.learn.finding``); those where exactly one move wins, and fast, are
stored. Either way a position already stored, or one that is a stored puzzle
turned or mirrored, is passed over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from games import engine
from games.learn import finding, puzzle_selectors, starter
from games.learn.models import Origin, Puzzle
from games.play.models import Game, Variant


@dataclass
class PuzzlesMade:
    """What a run found: the new puzzles, and how much it looked at."""

    made: list[Puzzle] = field(default_factory=list)
    games: int = 0
    positions: int = 0


def puzzles_make(
    *, variant: str | None = None, limit: int | None = None, max_win_in: int = finding.DEFAULT_MAX_WIN_IN
) -> PuzzlesMade:
    """Look through the finished games (of ``variant``, or every board) and store
    each new puzzle found, at most ``limit`` of them; each one is stored on its
    own, so a run stopped half-way keeps what it found."""
    result = PuzzlesMade()
    known = {v.value: _with_their_images(puzzle_selectors.known_positions(v.value)) for v in Variant}
    looked_at = set()  # positions many games share are asked about once a run
    for game in puzzle_selectors.finished_games(variant):
        if limit is not None and len(result.made) >= limit:
            break
        result.games += 1
        board = engine.Board.empty(game.size)
        for cell in game.cells:
            if limit is not None and len(result.made) >= limit:
                break
            position = str(board)
            if position not in known[game.variant] and position not in looked_at:
                looked_at.add(position)
                result.positions += 1
                found = finding.puzzle_in(board, max_win_in)
                if found is not None:
                    puzzle = _store(found, game)
                    if puzzle is not None:
                        result.made.append(puzzle)
                    known[game.variant] |= finding.symmetric_positions(position)
            board = board.play(cell)
    return result


def puzzles_make_starter() -> list[Puzzle]:
    """Make the starter set on every board that has none of it yet, and return
    the puzzles stored (none when every board has its set)."""
    made = []
    for variant in Variant:
        if puzzle_selectors.has_starter_set(variant.value):
            continue
        known = _with_their_images(puzzle_selectors.known_positions(variant.value))
        for found in starter.starter_puzzles(variant.value):
            if found.position in known:
                continue
            puzzle = _store(found, None)
            if puzzle is not None:
                made.append(puzzle)
    return made


def _with_their_images(positions: set[str]) -> set[str]:
    return set().union(positions, *(finding.symmetric_positions(p) for p in positions))


@transaction.atomic
def _store(found: finding.Found, game: Game | None) -> Puzzle | None:
    """The new puzzle, found in ``game`` or (None) made for the starter set;
    None when another run stored its position meanwhile."""
    puzzle, created = Puzzle.objects.get_or_create(
        position=found.position,
        defaults={
            "variant": found.variant,
            "side": found.side,
            "theme": found.theme,
            "cell": found.cell,
            "win_in": found.win_in,
            "solution": ",".join(map(str, found.solution)),
            "game": game,
            "origin": Origin.GAME if game is not None else Origin.STARTER,
        },
    )
    return puzzle if created else None
