"""The statistics pages: the whole site's figures, the leaderboard, and a
signed-in player's own games with their record.

The site's figures and the leaderboard read only the counter tables
(games.stats keeps them), so they cost the same few queries with ten games or
a million.
"""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.play import selectors as play_selectors
from games.play.forms import HistoryFilterForm
from games.play.models import Level, Variant
from games.stats import charts, selectors

GAMES_PER_PAGE = 20


@require_GET
def stats(request):
    """Games played, results, the perfect AI's record, endings, games per day and
    the first-move heat map of ``?variant=`` (3x3 unless it names another)."""
    variant = request.GET.get("variant", "")
    if variant not in Variant.values:
        variant = Variant.THREE
    figures = selectors.site_stats()
    days = figures["days"]
    heatmap = selectors.first_move_heatmap(variant)
    for cell, box in zip(heatmap, charts.grid(Variant(variant).size), strict=True):
        cell.update(box)
    return render(
        request,
        "games/stats.html",
        {
            "figures": figures,
            "kind_labels": ["Human", *Level.labels],
            "days_chart": charts.bar_chart([(d["day"].isoformat(), d["games"]) for d in days], left=0),
            "variant": Variant(variant),
            "variants": Variant.choices,
            "heatmap": heatmap,
            "heatmap_size": Variant(variant).size,
            "heatmap_games": sum(cell["games"] for cell in heatmap),
        },
    )


@require_GET
def leaderboard(request):
    """Players by their rating on one board (``?board=``, 3x3 by default), 50
    a page; provisional ones (fewer than 10 rated games there) are marked.
    People's by default, the bots' with ``?bots=1``: the two are never mixed.
    A board it does not know is 3x3's."""
    bots = request.GET.get("bots") == "1"
    board = request.GET.get("board")
    variant = board if board in Variant.values else Variant.THREE
    players = selectors.leaderboard(variant=variant, bots=bots)
    page = Paginator(players, selectors.LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {
            "bots": bots,
            "variant": variant,
            "boards": Variant.choices,
            "page": page,
            "players": page.object_list,
            "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
        },
    )


@require_GET
@login_required
def history(request):
    """My games, newest first, filtered and paginated, above my record. A
    filter with a value it does not know is reported on the form and left
    out; the others still apply."""
    form = HistoryFilterForm(request.GET)
    form.is_valid()
    filters = {name: value for name, value in form.cleaned_data.items() if value}
    games = play_selectors.PlayerGamesNewestFirst(request.user, **filters)
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
            "record": selectors.player_record(request.user),
        },
    )
