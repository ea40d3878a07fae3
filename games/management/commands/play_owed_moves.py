"""``python manage.py play_owed_moves``: make every move the AI still owes.

On 4x4 and 5x5 the AI thinks after the person's move is stored; a server
stopped in between leaves its reply owed. ``scripts/run`` and ``scripts/serve``
run this before serving, so such a game carries on after the restart (a player
can also ask from the game page: "Let the AI move").
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.play import selectors, services


class Command(BaseCommand):
    help = "Let the AI make the moves it owes in games in progress (left unmade by a stopped server)."

    def handle(self, *args, **options):
        owed = list(selectors.games_owing_ai_move())
        for game_id in owed:
            services.game_play_ai_move(game_id=game_id)
        if owed or options["verbosity"] > 1:
            self.stdout.write(f"The AI made {len(owed)} owed move(s).")
