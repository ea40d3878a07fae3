"""Links into the analysis board from other pages (games/learn/analysis.py)."""

from django import template
from django.urls import reverse

from games import engine
from games.learn.positions import analysis_query

register = template.Library()


@register.filter
def analysis_url(game, ply) -> str:
    """The analysis board for ``game`` at ``ply``: the whole game from the empty
    board, so the learner can step back and forward through it there too."""
    return reverse("games:analysis") + analysis_query(engine.Board.empty(game.size), game.cells, ply)
