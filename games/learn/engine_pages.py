"""What a learning page shows while the engine works for it, or when it refuses.

The pages that set the engine searching (the analysis board, puzzles) ask
through games/engine_work/, which never makes a page wait: a search under way
is answered with a page that says so and reloads itself a moment later (202,
Retry-After), and a search refused past the visitor's budget or with the
engine's queue full gets the site's own page with the reason (429 or 503,
Retry-After).
"""

from __future__ import annotations

from functools import wraps

from django.shortcuts import render

from games.engine_work import budget
from games.errors import EngineRefused, EngineWorking
from games.serving.http import status_of


def answers_for_the_engine(view):
    """A page view decorator: the "working" page while a search runs, the
    styled refusal when the engine refuses."""

    @wraps(view)
    def answered(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except EngineWorking as working:
            return _answer(request, "learn/engine_working.html", working, {})
        except EngineRefused as refusal:
            return _answer(request, "learn/rate_limited.html", refusal, {"rates": budget_in_words()})

    return answered


def budget_in_words() -> dict[str, str]:
    """The engine's budgets as the refusal page states them: "30 seconds per minute"."""
    words = {}
    for whom, rate in budget.rates().items():
        seconds, period = budget.parse_rate(rate)
        words[whom] = f"{budget.seconds_words(seconds)} per {budget.period_words(period)}"
    return words


def _answer(request, template: str, refusal: EngineRefused, extra: dict):
    status = status_of(refusal)
    context = {"seconds": refusal.retry_after, "message": refusal.message, "response_status": status, **extra}
    response = render(request, template, context, status=status)
    response["Retry-After"] = str(refusal.retry_after)
    return response
