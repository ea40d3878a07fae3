"""Receivers that count an exam's games as they end (connected in games/apps.py)."""

from django.dispatch import receiver

from games.exams import services
from games.play.signals import game_aborted, game_finished


@receiver(game_finished, dispatch_uid="games.exams.count_finished_game")
def count_finished_game(sender, game, **kwargs):
    services.exam_game_ended(game=game)


@receiver(game_aborted, dispatch_uid="games.exams.count_aborted_game")
def count_aborted_game(sender, game, **kwargs):
    services.exam_game_ended(game=game)
