"""Reviews in the admin: staff look through them and may delete one. A review
is made only from what the engine proved (the background worker's), so none is
added or edited by hand; one deleted here is made again by the worker."""

from __future__ import annotations

from django.contrib import admin

from games.play.review_models import GameReview
from games.play.reviews import ReviewedGame


@admin.register(GameReview)
class GameReviewAdmin(admin.ModelAdmin):
    list_display = ["game", "labels", "decisive_move", "exact", "reviewed_at"]
    list_select_related = ["game__x_player", "game__o_player"]  # the game's name names its players
    readonly_fields = ["game", "labels", "decisive_move", "exact", "reviewed_at", "review"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="labels")
    def labels(self, obj: GameReview) -> str:
        counts = ReviewedGame.from_json(obj.review).review.counts()
        return ", ".join(f"{count} {label}" for label, count in counts.items() if count) or "no moves"

    @admin.display(description="decided by move")
    def decisive_move(self, obj: GameReview) -> str:
        ply = obj.review["decisive_ply"]
        return "" if ply is None else str(ply + 1)

    @admin.display(description="exact", boolean=True)
    def exact(self, obj: GameReview) -> bool:
        return obj.review["exact"]
