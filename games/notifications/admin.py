"""Notifications in the admin: to look through when a player asks what they were told."""

from __future__ import annotations

from django.contrib import admin

from games.notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "kind", "text", "read_at", "mailed_at"]
    list_filter = ["kind", ("read_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "text"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"
    readonly_fields = ["user", "kind", "text", "url", "game", "challenge", "ply", "created_at", "read_at", "mailed_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
