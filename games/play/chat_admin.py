"""The chat in the admin: staff read games' chats and delete what should not be there.

Messages and mutes are written by playing (games.play.chat_services), so
nothing is added or edited here; deleting a message or a mute is the one change.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games.play.chat_models import ChatMessage, ChatMute


def _game_link(game_id: int):
    url = reverse("admin:games_game_change", args=[game_id])
    return format_html('<a href="{}">Game {}</a>', url, game_id)


class ReadAndDeleteOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadAndDeleteOnly):
    list_display = ("created_at", "game_shown", "side", "author_shown", "text")
    list_display_links = ("created_at",)
    list_filter = ("side",)
    search_fields = ("text", "author__username", "=game__id")
    search_help_text = "Words of a message, its author's username, or a game's number."
    date_hierarchy = "created_at"
    list_select_related = ("game__x_player", "game__o_player", "author")
    ordering = ("-created_at", "-id")
    fields = ("game_shown", "side", "author_shown", "text", "created_at", "chat_of_the_game")
    readonly_fields = fields

    @admin.display(description="game", ordering="game")
    def game_shown(self, message: ChatMessage):
        return _game_link(message.game_id)

    @admin.display(description="author", ordering="author__username")
    def author_shown(self, message: ChatMessage) -> str:
        return message.author_name

    @admin.display(description="the game's chat")
    def chat_of_the_game(self, message: ChatMessage):
        url = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={message.game_id}"
        return format_html('<a href="{}">Every message of game {}</a>', url, message.game_id)


@admin.register(ChatMute)
class ChatMuteAdmin(ReadAndDeleteOnly):
    list_display = ("created_at", "game_shown", "muted_by", "muted_player")
    list_filter = ("muted_by",)
    search_fields = ("=game__id",)
    list_select_related = ("game__x_player", "game__o_player")
    fields = ("game_shown", "muted_by", "muted_player", "created_at")
    readonly_fields = fields

    @admin.display(description="game", ordering="game")
    def game_shown(self, mute: ChatMute):
        return _game_link(mute.game_id)

    @admin.display(description="muted")
    def muted_player(self, mute: ChatMute) -> str:
        return mute.game.player_name(mute.muted_side)
