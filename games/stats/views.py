"""The public statistics pages: the whole site's figures, and the leaderboard.

Both read only the counter tables (games.stats keeps them), so they cost the
same few queries with ten games or a million.
"""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.play.models import Level, Variant
from games.stats import charts, selectors


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
    """Players by rating, 50 a page; provisional ones (fewer than 10 rated games) are marked."""
    page = Paginator(selectors.leaderboard(), selectors.LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {
            "page": page,
            "players": page.object_list,
            "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
        },
    )
