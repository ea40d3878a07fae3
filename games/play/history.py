"""A signed-in player's games: every one of them, newest first, filtered and paginated."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.play import selectors
from games.play.forms import HistoryFilterForm
from games.stats import selectors as stats_selectors

GAMES_PER_PAGE = 20


@require_GET
@login_required
def history(request):
    """My games. A filter with a value it does not know is reported on the
    form and left out; the others still apply."""
    form = HistoryFilterForm(request.GET)
    form.is_valid()
    filters = {name: value for name, value in form.cleaned_data.items() if value}
    games = selectors.PlayerGamesNewestFirst(request.user, **filters)
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/history.html",
        {
            "form": form,
            "page": page,
            "games": page.object_list,
            "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
            "filtered": bool(filters),
            "record": stats_selectors.player_record(request.user),
        },
    )
