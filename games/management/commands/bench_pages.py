"""``python manage.py bench_pages [--requests 200]``: latency and queries of the heaviest pages.

Run it against a database filled by ``make_sample_games``; the work is in games.devtools.bench_pages.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.devtools.bench_pages import bench_pages


class Command(BaseCommand):
    help = "Time the statistics, leaderboard, profile and history pages, cold and warm (p50/p95/p99, queries)."

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=200, help="Timed requests per page and mode.")

    def handle(self, *args, requests, **options):
        if requests < 1:
            raise CommandError("--requests must be at least 1")
        bench_pages(requests, log=self.stdout.write)
