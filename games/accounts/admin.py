"""Users in the admin: Django's user admin, with each user's games, deleting
an account the way the player would (:func:`games.accounts.services.account_delete`),
and the moderators' bulk actions: closing accounts and muting players in chat,
each with the reason they are told (games.moderation)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import ngettext
from rest_framework.authtoken.models import TokenProxy

from games.accounts import selectors, services
from games.accounts.models import ApiToken
from games.errors import AccountRefused, GameError
from games.moderation import services as moderation
from games.moderation.admin import decide
from games.moderation.models import SanctionKind
from games.play.admin import PlayerFilter

User = get_user_model()

admin.site.unregister(User)
# DRF's one token per user is no longer what the API reads (ApiToken below).
admin.site.unregister(TokenProxy)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin, plus each user's games: a count that links to them."""

    list_display = UserAdmin.list_display + ("games_played",)
    actions = ["close_accounts", "mute_in_chat"]
    readonly_fields = ("games_played",)
    fieldsets = UserAdmin.fieldsets + (("Games", {"fields": ("games_played",)}),)

    def get_queryset(self, request):
        return selectors.users_with_games_played(super().get_queryset(request))

    # Deleting a user here is the player deleting their account: their games
    # in progress end and their challenges close first (services.account_delete).

    def has_delete_permission(self, request, obj=None):
        if obj is not None and selectors.is_last_superuser(obj):
            return False  # nobody could manage the site after
        return super().has_delete_permission(request, obj)

    def has_sanction_permission(self, request):
        return request.user.has_perm("games.add_sanction")

    def _sanction(self, request, queryset, kind: str, reason: str, duration) -> None:
        given = 0
        for user in queryset:
            try:
                moderation.sanction_give(player=user, kind=kind, reason=reason, by=request.user, duration=duration)
                given += 1
            except GameError as refusal:
                self.message_user(request, f"{user.get_username()}: {refusal.message}.", messages.ERROR)
        done = "closed" if kind == SanctionKind.CLOSE else "muted in chat"
        self.message_user(request, ngettext("%d account %s.", "%d accounts %s.", given) % (given, done))

    @admin.action(description="Close the selected accounts (they can no longer sign in)", permissions=["sanction"])
    def close_accounts(self, request, queryset):
        return decide(
            self,
            request,
            queryset,
            title="Close the selected accounts",
            timed=False,
            carry_out=lambda reason, _: self._sanction(request, queryset, SanctionKind.CLOSE, reason, None),
        )

    @admin.action(description="Mute the selected players in every chat, for a time", permissions=["sanction"])
    def mute_in_chat(self, request, queryset):
        return decide(
            self,
            request,
            queryset,
            title="Mute the selected players in chat",
            timed=True,
            carry_out=lambda reason, duration: self._sanction(request, queryset, SanctionKind.MUTE, reason, duration),
        )

    def delete_model(self, request, obj):
        services.account_delete(user=obj)

    def delete_queryset(self, request, queryset):
        for user in queryset:
            try:
                services.account_delete(user=user)
            except AccountRefused as error:
                self.message_user(request, f"{user.get_username()} was not deleted: {error.message}.", messages.ERROR)

    @admin.display(description="games", ordering="games_played")
    def games_played(self, user) -> str:
        url = reverse("admin:games_game_changelist") + f"?{PlayerFilter.parameter_name}={user.pk}"
        count = user.games_played
        return format_html('<a href="{}">{}</a>', url, ngettext("%d game", "%d games", count) % count)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Players' API tokens: who holds which, when made and last used; deleting
    one revokes it. Tokens are made by players (only they see the key)."""

    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("user", "name", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
