"""The learning pages' addresses, in the ``games`` namespace like every page."""

from django.urls import path

from games.learn import mistakes

urlpatterns: list = [
    # Learn from your mistakes: a finished game's mistakes and blunders, tried again.
    path("games/<int:pk>/learn/", mistakes.mistakes_page, name="mistakes"),
]
