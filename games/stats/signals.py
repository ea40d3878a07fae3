"""Receivers that keep the counters as games end (connected in games/apps.py)."""

from django.dispatch import receiver

from games.play.signals import game_finished
from games.stats import counters


@receiver(game_finished, dispatch_uid="games.stats.count_finished_game")
def count_finished_game(sender, game, **kwargs):
    counters.count_as_it_finishes(game)
