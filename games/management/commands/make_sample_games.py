"""``python manage.py make_sample_games``: a database full of realistic games, for measuring.

    python manage.py make_sample_games --games 1000000 --users 5000 [--days 365] [--seed N] [--batch 20000]

The work is in games.devtools.sample_games; this parses the options and prints progress.
Every player it creates signs in with the password "player-password".
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from games.devtools.sample_games import PASSWORD, make_sample_games


class Command(BaseCommand):
    help = "Fill the database with realistic games and players, then recount the statistics."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000, help="Games to create (default 1000).")
        parser.add_argument("--users", type=int, default=100, help="Players to create (default 100).")
        parser.add_argument("--days", type=int, default=365, help="Spread the games over this many days.")
        parser.add_argument("--seed", type=int, default=0, help="Seed of every random choice (default 0).")
        parser.add_argument("--batch", type=int, default=20000, help="Games written per transaction.")
        parser.add_argument("--no-recount", action="store_true", help="Leave the statistics alone.")

    def handle(self, *args, games, users, days, seed, batch, no_recount, **options):
        if games < 0 or users < 2 or days < 1 or batch < 1:
            raise CommandError("need --games >= 0, --users >= 2, --days >= 1 and --batch >= 1")
        started = time.perf_counter()
        report = make_sample_games(
            games=games,
            users=users,
            days=days,
            seed=seed,
            batch=batch,
            recount=not no_recount,
            log=lambda message: self.stdout.write(message),
        )
        statuses = ", ".join(f"{status}: {count:,}" for status, count in sorted(report.by_status.items()))
        self.stdout.write(
            f"Created {report.users:,} players (password {PASSWORD!r}), {report.games:,} games ({statuses}) "
            f"and {report.moves:,} moves in {time.perf_counter() - started:.1f} s."
        )
