"""Reads about puzzles: one puzzle, a board's puzzles, today's puzzle, and the
finished games puzzles are found in."""

from __future__ import annotations

import hashlib
from datetime import date

from django.db.models import Count, Q
from django.utils import timezone

from games.learn.models import Puzzle
from games.play.models import Game, Status, Variant


def puzzle_detail(puzzle_id: int) -> Puzzle:
    """One puzzle; raises Puzzle.DoesNotExist."""
    return Puzzle.objects.get(pk=puzzle_id)


def puzzles_on(variant: str):
    """A board's puzzles, fastest wins first (the easiest), then as they were found."""
    return Puzzle.objects.filter(variant=variant).order_by("win_in", "id")


def every_puzzle():
    """Every puzzle, board by board (3x3 first), the fastest wins first."""
    return Puzzle.objects.order_by("variant", "win_in", "id")


def puzzles_by_board() -> list[dict]:
    """Every board with how many puzzles it has, 3x3 first (boards without any too)."""
    counts = dict(Puzzle.objects.order_by().values_list("variant").annotate(n=Count("id")))
    return [{"variant": v.value, "label": v.label, "count": counts.get(v.value, 0)} for v in Variant]


def next_puzzle(puzzle: Puzzle) -> Puzzle | None:
    """The puzzle after ``puzzle`` on its board, in the board's order, the first
    again after the last; None when it is the board's only one."""
    board = puzzles_on(puzzle.variant)
    later = Q(win_in=puzzle.win_in, id__gt=puzzle.pk) | Q(win_in__gt=puzzle.win_in)
    following = board.filter(later).first() or board.first()
    return None if following is None or following.pk == puzzle.pk else following


def daily_puzzle(day: date | None = None) -> Puzzle | None:
    """Today's puzzle (or ``day``'s), the same for everyone all day: the date's
    hash picks one of the stored puzzles. None while there are none."""
    day = day or timezone.localdate()
    count = Puzzle.objects.count()
    if not count:
        return None
    index = int.from_bytes(hashlib.sha256(day.isoformat().encode()).digest()[:8], "big") % count
    return Puzzle.objects.order_by("pk")[index]


def known_positions(variant: str) -> set[str]:
    """The positions of a board's stored puzzles."""
    return set(Puzzle.objects.filter(variant=variant).values_list("position", flat=True))


def finished_games(variant: str | None = None):
    """Finished games with their moves, oldest first, a batch at a time: where
    puzzles are looked for."""
    games = Game.objects.filter(status=Status.FINISHED).prefetch_related("moves").order_by("pk")
    if variant:
        games = games.filter(variant=variant)
    return games.iterator(chunk_size=200)
