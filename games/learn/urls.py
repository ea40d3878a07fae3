"""The learning pages' addresses, in the ``games`` namespace like every page."""

from django.urls import path

from games.learn import puzzles

urlpatterns: list = [
    # Puzzles (games/learn/puzzles.py).
    path("puzzles/", puzzles.puzzles, name="puzzles"),
    path("puzzles/<int:pk>/", puzzles.puzzle, name="puzzle"),
    path("puzzles/<str:variant>/", puzzles.puzzle_board, name="puzzle_board"),
]
