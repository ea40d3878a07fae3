"""The learning pages' addresses, in the ``games`` namespace like every page."""

from django.urls import path

from games.learn import analysis

urlpatterns: list = [
    # The analysis board (games/learn/analysis.py).
    path("analysis/", analysis.analysis, name="analysis"),
]
