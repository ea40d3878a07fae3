"""Challenges and quick-pairing requests in the admin: to look at, never to edit."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games.lobby.models import Challenge, PairingRequest


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    """Challenges are read-only here too: they are created, accepted, declined and
    cancelled by the players through the services."""

    list_display = (
        "id",
        "challenger",
        "kind",
        "opponent",
        "variant",
        "challenger_side",
        "time_limit",
        "status",
        "game_link",
        "created_at",
    )
    list_filter = ("status", "kind", "variant")
    search_fields = ("challenger__username", "opponent__username")
    list_select_related = ("challenger", "opponent", "game")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)

    @admin.display(description="time per move", ordering="move_time_limit")
    def time_limit(self, challenge):
        return challenge.time_limit_label

    @admin.display(description="game", ordering="game")
    def game_link(self, challenge):
        if challenge.game_id is None:
            return "—"
        url = reverse("admin:games_game_change", args=[challenge.game_id])
        return format_html('<a href="{}">Game {}</a>', url, challenge.game_id)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PairingRequest)
class PairingRequestAdmin(admin.ModelAdmin):
    """Quick-pairing requests, to look at: made, matched, cancelled and expired
    by the players and the worker through the services."""

    list_display = ("id", "player", "variant", "time_control_key", "rating", "status", "game_link", "created_at")
    list_filter = ("status", "variant")
    search_fields = ("player__username",)
    list_select_related = ("player", "game")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)

    @admin.display(description="time control")
    def time_control_key(self, request):
        return request.time_control.key

    @admin.display(description="game", ordering="game")
    def game_link(self, request):
        if request.game_id is None:
            return "—"
        url = reverse("admin:games_game_change", args=[request.game_id])
        return format_html('<a href="{}">Game {}</a>', url, request.game_id)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
