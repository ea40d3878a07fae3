"""``python manage.py run_worker``: the background worker (games/worker.py).

Ends games whose clock ran out, whether or not anyone is on the site, makes
the moves the AI owes, reviews the games that have just ended, makes new
puzzles every hour, mails players whose correspondence turn waits while they
are away, and forgets old notifications. Run one beside the web
servers (``scripts/run`` does); several are safe. Ctrl-C or SIGTERM stops it.

    python manage.py run_worker [--once]
"""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from games import worker


class Command(BaseCommand):
    help = "Run the background worker: games ended on time, the AI's owed moves, reviews, new puzzles, turn mails."

    def add_arguments(self, parser):
        parser.add_argument(
            "--once", action="store_true", help="End the games out of time now, then stop (for cron or a check)."
        )

    def handle(self, *args, once, **options):
        if once:
            ended = worker.end_games_out_of_time()
            self.stdout.write(f"Ended {ended} game(s) on time.")
            return
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        self.stdout.write(
            "==> The worker is running: clocks, the AI's owed moves, reviews, puzzles, turn mails, suspensions (Ctrl-C stops it)"
        )
        worker.run(stop, report=self.stdout.write)
        self.stdout.write("The worker stopped.")
