"""Exams in the admin: to look through, never to edit (answers come through the API)."""

from __future__ import annotations

from django.contrib import admin

from games.exams.models import Exam


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
        "created_at",
        "finished_at",
    ]
    list_filter = ["variant"]
    search_fields = ["owner__username", "key"]
    list_select_related = ["owner"]
    readonly_fields = ["owner", "variant", "seed", "key", "created_at", "finished_at", "positions_count", "answered"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
