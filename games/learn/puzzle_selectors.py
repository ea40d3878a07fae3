"""Reads about puzzles: one puzzle, a board's puzzles (of one theme or all),
today's puzzle, and the finished games puzzles are found in.

A board's puzzles come theme by theme, easiest first (the order of
:class:`Theme`: win now, block, make a fork, save a draw, win in three, a
longer win), then the fastest wins, then as they were found."""

from __future__ import annotations

import hashlib
from datetime import date

from django.db.models import Case, Count, IntegerField, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.learn.models import THEME_DESCRIPTIONS, Origin, Puzzle, Theme
from games.play.models import Game, Status, Variant


def puzzle_detail(puzzle_id: int) -> Puzzle:
    """One puzzle; raises Puzzle.DoesNotExist."""
    return Puzzle.objects.get(pk=puzzle_id)


#: Each theme's place in a board's list.
_THEME_RANK = Case(
    *(When(theme=theme, then=Value(rank)) for rank, theme in enumerate(Theme)), output_field=IntegerField()
)


def _in_order(puzzles):
    """``puzzles`` theme by theme, the fastest wins first, then as they were found."""
    return puzzles.annotate(theme_rank=_THEME_RANK, moves=Coalesce("win_in", 0)).order_by("theme_rank", "moves", "id")


def puzzles_on(variant: str, theme: str | None = None):
    """A board's puzzles (of ``theme`` only, if given), theme by theme, easiest first."""
    puzzles = Puzzle.objects.filter(variant=variant)
    return _in_order(puzzles.filter(theme=theme) if theme else puzzles)


def every_puzzle(theme: str | None = None):
    """Every puzzle (of ``theme`` only, if given), board by board (3x3 first), theme by theme."""
    puzzles = _in_order(Puzzle.objects.filter(theme=theme) if theme else Puzzle.objects.all())
    return puzzles.order_by("variant", "theme_rank", "moves", "id")


def puzzles_by_board() -> list[dict]:
    """Every board with how many puzzles it has, 3x3 first (boards without any too)."""
    counts = dict(Puzzle.objects.order_by().values_list("variant").annotate(n=Count("id")))
    return [{"variant": v.value, "label": v.label, "count": counts.get(v.value, 0)} for v in Variant]


def puzzles_by_theme(variant: str | None = None) -> list[dict]:
    """Every theme with how many puzzles it has (on ``variant``'s board, or on
    all) and on each board, in the lists' order; a longer win only where
    there is one."""
    rows = Puzzle.objects.order_by().values_list("theme", "variant").annotate(n=Count("id"))
    counts = {(theme, board): n for theme, board, n in rows}
    themes = []
    for theme in Theme:
        boards = [
            {"variant": v.value, "label": v.label, "count": counts.get((theme.value, v.value), 0)} for v in Variant
        ]
        count = sum(board["count"] for board in boards if variant in (None, board["variant"]))
        if theme == Theme.LONG_WIN and not count:
            continue
        themes.append(
            {
                "theme": theme.value,
                "label": theme.label,
                "description": THEME_DESCRIPTIONS[theme],
                "count": count,
                "boards": boards,
            }
        )
    return themes


def next_puzzle(puzzle: Puzzle, theme: str | None = None) -> Puzzle | None:
    """The puzzle after ``puzzle`` on its board (among ``theme``'s, if given),
    in the board's order, the first again after the last; None when it is the
    only one."""
    board = puzzles_on(puzzle.variant, theme)
    rank, moves = list(Theme).index(puzzle.theme), puzzle.win_in or 0
    later = (
        Q(theme_rank__gt=rank) | Q(theme_rank=rank, moves__gt=moves) | Q(theme_rank=rank, moves=moves, id__gt=puzzle.pk)
    )
    following = board.filter(later).first() or board.first()
    return None if following is None or following.pk == puzzle.pk else following


def has_starter_set(variant: str) -> bool:
    """Whether a board has any puzzle of the starter set."""
    return Puzzle.objects.filter(variant=variant, origin=Origin.STARTER).exists()


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
