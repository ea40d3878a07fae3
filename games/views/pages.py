from django.shortcuts import render

from games import selectors
from games.forms import NewGameForm
from games.views.play import current_player


def home(request):
    """The front page: an invitation to play, and your games in progress."""
    player = current_player(request)
    in_progress = selectors.games_in_progress(player.user, player.guest_key)
    recent = selectors.recent_results(request.user) if request.user.is_authenticated else []
    return render(
        request,
        "games/home.html",
        {"in_progress": in_progress, "recent": recent, "form": NewGameForm()},
    )
