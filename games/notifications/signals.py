"""Receivers that tell players what happened in the lobby and their games
(connected in games/apps.py). Each runs in the transaction that made the
change, so a notification is stored only if the change is."""

from django.dispatch import receiver

from games.lobby.signals import challenge_sent
from games.notifications import telling
from games.play.signals import offer_answered, turn_passed


@receiver(challenge_sent, dispatch_uid="games.notifications.challenge_sent")
def tell_the_challenged(sender, challenge, **kwargs):
    telling.challenge_sent(challenge)


@receiver(turn_passed, dispatch_uid="games.notifications.turn_passed")
def tell_whose_turn(sender, game, to_move, **kwargs):
    telling.turn_passed(game, to_move)


@receiver(offer_answered, dispatch_uid="games.notifications.offer_answered")
def tell_the_offerer(sender, game, offer, accepted, side, **kwargs):
    telling.offer_answered(game, offer, accepted, side)
