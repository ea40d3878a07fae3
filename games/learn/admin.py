"""Puzzles in the admin: staff look through them and may delete one; they are
made only from what the engine proved (``manage.py make_puzzles``), so none is
added or edited by hand. A starter puzzle deleted stays deleted: the starter
set is made once per board."""

from __future__ import annotations

from django.contrib import admin

from games.learn.models import Puzzle


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ["id", "variant", "theme", "side", "win_in", "cell", "position", "origin", "game", "created_at"]
    list_filter = ["variant", "theme", "origin", "side"]
    search_fields = ["position"]
    list_select_related = ["game"]
    readonly_fields = [
        "position", "variant", "side", "theme", "cell", "win_in", "solution", "origin", "game", "created_at"
    ]  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
