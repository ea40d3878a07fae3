"""``python manage.py verify_games [--game ID ...]``: replay stored games and report any that disagree.

Exits with status 1 when a game is corrupt; the checks are in games.play.integrity.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.play.integrity import verify_games
from games.play.models import Game


class Command(BaseCommand):
    help = "Replay every stored game (or the given ones) and check its moves, move count, status and result agree."

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, action="append", dest="game_ids", help="Only this game (repeatable).")

    def handle(self, *args, game_ids=None, **options):
        games = Game.objects.filter(pk__in=game_ids).order_by("pk") if game_ids else None
        checked = Game.objects.filter(pk__in=game_ids).count() if game_ids else Game.objects.count()
        problems = 0
        for problem in verify_games(games):
            problems += 1
            self.stderr.write(str(problem))
        if problems:
            raise CommandError(f"{problems} problem(s) in {checked} games")
        self.stdout.write(f"{checked} games replay to what is stored about them.")
