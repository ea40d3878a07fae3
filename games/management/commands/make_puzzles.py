"""``python manage.py make_puzzles``: puzzles from the games played on the site,
or, with ``--starter``, the starter set every site begins with.

    python manage.py make_puzzles [--variant 3x3|4x4|5x5] [--limit N] [--win-in N]
    python manage.py make_puzzles --starter

The work is in games.learn.puzzle_services; this parses the options and says
what was made. Running it again adds only new puzzles; ``--starter`` makes a
board's set once (scripts/serve runs it at every start: a second run only
checks).
"""

from __future__ import annotations

import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from games.learn import finding, puzzle_services
from games.learn.models import LONGEST_WIN
from games.play.models import Variant


class Command(BaseCommand):
    help = (
        "Find puzzles in finished games: positions where exactly one move wins, within a few moves, "
        "as the engine proves. Adds only puzzles not stored yet."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--starter",
            action="store_true",
            help="Make the starter set instead: puzzles of every theme on every board, from exact solutions, "
            "on each board that has none of it yet. Takes seconds once, then nothing.",
        )
        parser.add_argument("--variant", choices=Variant.values, help="Only this board (default: every board).")
        parser.add_argument("--limit", type=int, help="Store at most this many new puzzles.")
        parser.add_argument(
            "--win-in",
            type=int,
            default=finding.DEFAULT_MAX_WIN_IN,
            help="The slowest win a puzzle may ask for, in moves of both sides, the first and the last "
            f"included (odd; default {finding.DEFAULT_MAX_WIN_IN}: three of the learner's).",
        )

    def handle(self, *args, starter, variant, limit, win_in, **options):
        if starter:
            if variant or limit is not None or win_in != finding.DEFAULT_MAX_WIN_IN:
                raise CommandError("--starter makes the whole starter set: it takes no other option")
            self._make_starter()
            return
        if limit is not None and limit < 1:
            raise CommandError("--limit must be 1 or more")
        if not finding.SHORTEST_WIN <= win_in <= LONGEST_WIN or win_in % 2 == 0:
            raise CommandError(f"--win-in must be odd, from {finding.SHORTEST_WIN} to {LONGEST_WIN}")
        started = time.perf_counter()
        result = puzzle_services.puzzles_make(variant=variant, limit=limit, max_win_in=win_in)
        by_board = Counter(puzzle.variant for puzzle in result.made)
        boards = ", ".join(f"{board}: {count}" for board, count in sorted(by_board.items()))
        self.stdout.write(
            f"Made {len(result.made)} new puzzle{'' if len(result.made) == 1 else 's'}"
            f"{f' ({boards})' if boards else ''} from {result.games} finished game{'' if result.games == 1 else 's'}, "
            f"{result.positions} new position{'' if result.positions == 1 else 's'} looked at, "
            f"in {time.perf_counter() - started:.1f} s."
        )

    def _make_starter(self):
        started = time.perf_counter()
        made = puzzle_services.puzzles_make_starter()
        by_board = Counter(puzzle.variant for puzzle in made)
        boards = ", ".join(f"{board}: {count}" for board, count in sorted(by_board.items()))
        if made:
            self.stdout.write(
                f"Made the starter set: {len(made)} puzzle{'' if len(made) == 1 else 's'} ({boards}), "
                f"in {time.perf_counter() - started:.1f} s."
            )
        else:
            self.stdout.write("The starter set is made already: nothing to do.")
