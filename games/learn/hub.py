"""/learn/: where learning minimax starts, one card per way in."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.learn import puzzle_selectors


@require_GET
def learn(request):
    """The analysis board, the search step by step, the two scorings side by
    side, puzzles (with how many each board has, boards without any left out) and learning from a game."""
    boards = [board for board in puzzle_selectors.puzzles_by_board() if board["count"]]
    return render(request, "learn/learn.html", {"boards": boards, "puzzles": sum(b["count"] for b in boards)})
