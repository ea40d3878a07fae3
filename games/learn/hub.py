"""/learn/: where learning minimax starts, the steps of a course in order."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.learn import puzzle_selectors


@require_GET
def learn(request):
    """Minimax, the scoring lesson, alpha-beta, move order, depth limits, then
    practice: puzzles (with how many each board has, boards without any left
    out), learning from a game and the analysis board."""
    boards = [board for board in puzzle_selectors.puzzles_by_board() if board["count"]]
    return render(request, "learn/learn.html", {"boards": boards, "puzzles": sum(b["count"] for b in boards)})
