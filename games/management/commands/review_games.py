"""``python manage.py review_games``: review every finished game that has no review yet.

The background worker reviews each game a moment after it ends; this does the
same for a database whose games ended before reviews were stored, or while no
worker ran. Running it again reviews only what is still missing.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.play import review_services


class Command(BaseCommand):
    help = "Review every finished game that has no review yet, and store each review with its game."

    def handle(self, *args, **options):
        reviewed = review_services.games_review()
        self.stdout.write(f"Reviewed {reviewed} game{'' if reviewed == 1 else 's'}.")
