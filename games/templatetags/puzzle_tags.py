"""How puzzles read on a page: today's puzzle for any page that shows it, and
the words for a learner's move."""

from django import template

from games.learn import puzzle_selectors

register = template.Library()


@register.simple_tag
def daily_puzzle():
    """Today's puzzle, or None while none are stored: read by
    templates/learn/_daily_puzzle.html, so the home page's view needs no change."""
    return puzzle_selectors.daily_puzzle()


#: A learner's move in the review's own words: a move that keeps the win on
#: course, or the draw where that is asked, is "best"; one that wins slower is an "inaccuracy", one that lets
#: the opponent draw a "mistake", one that loses a "blunder".
_VERDICT_LABELS = {
    "wins": "best",
    "solved": "best",
    "holds": "best",
    "slower": "inaccuracy",
    "draws": "mistake",
    "loses": "blunder",
    "unsolved": "unsolved",
}


@register.filter
def verdict_label(verdict: str) -> str:
    return _VERDICT_LABELS.get(verdict, verdict)
