"""Receivers that connect Django's events to the games' services."""

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games.accounts import services
from games.play.players import GUEST_SESSION_KEY


@receiver(user_logged_in, dispatch_uid="games.adopt_guest_games")
def adopt_guest_games(sender, request, user, **kwargs):
    """A guest who signs up or logs in keeps the games they played as a guest."""
    if request is None or not hasattr(request, "session"):
        return
    guest_key = request.session.pop(GUEST_SESSION_KEY, "")
    adopted = services.games_adopt_guest(user=user, guest_key=guest_key)
    if adopted == 1:
        messages.info(request, "The game you played as a guest is in your history now.")
    elif adopted:
        messages.info(request, f"The {adopted} games you played as a guest are in your history now.")
