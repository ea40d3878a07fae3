"""Exams in the admin: to look through, never to edit (answers come through the API)."""

from __future__ import annotations

from django.contrib import admin

from games.exams.models import Exam, ExamGame
from games.play.admin import ReadOnlyInline


class ExamGameInline(ReadOnlyInline):
    """The exam's games, each linking to the game in the admin."""

    model = ExamGame
    fields = ["game", "level", "side"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")


@admin.register(Exam)
class ExamAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "owner",
        "variant",
        "positions_count",
        "answered",
        "best",
        "losses",
        "games_count",
        "games_lost",
        "created_at",
        "finished_at",
    ]
    list_filter = ["variant"]
    search_fields = ["owner__username", "key"]
    list_select_related = ["owner"]
    readonly_fields = [
        "owner",
        "variant",
        "seed",
        "key",
        "created_at",
        "finished_at",
        "positions_count",
        "answered",
        "games_per_side",
        "games_count",
        "games_won",
        "games_drawn",
        "games_lost",
        "games_aborted",
    ]
    inlines = [ExamGameInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
