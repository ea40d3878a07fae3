"""Games in the admin: staff look at games, find a player's games and tidy up stuck ones.

A game's history is its moves, written only by playing (games.play.services).
The admin therefore shows games without letting anyone edit them: the change
page is a view page with the final board and the moves, and the one write it
offers, aborting unfinished games, goes through :func:`games.play.services.game_abort`.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import ngettext

from games.play import clocks, services
from games.play.models import Game, Move, TakenBack

User = get_user_model()


# --------------------------------------------------------------------------
# Filters


class OpponentFilter(admin.SimpleListFilter):
    """Games against the AI, or between two people."""

    title = "opponent"
    parameter_name = "opponent"

    def lookups(self, request, model_admin):
        return [("ai", "The AI"), ("human", "Another person")]

    def queryset(self, request, queryset):
        if self.value() == "ai":
            return queryset.against_ai()
        if self.value() == "human":
            return queryset.against_humans()
        return queryset


class PlayerFilter(admin.SimpleListFilter):
    """The games of one user, on either side: ``?player=<user id>``.

    Reached from the user admin's game counts. Listing every user in the
    sidebar would not scale, so the filter shows only the chosen player, with
    "All" to drop it.
    """

    title = "player"
    parameter_name = "player"

    def _user_id(self) -> int | None:
        value = self.value()
        if value is None:
            return None
        if not (value.isascii() and value.isdigit()):
            raise IncorrectLookupParameters(f"player {value!r} is not a user id")
        return int(value)

    def lookups(self, request, model_admin):
        user_id = self._user_id()
        if user_id is None:
            return []
        user = User._default_manager.filter(pk=user_id).first()
        name = user.get_username() if user else f"Deleted user {user_id}"
        return [(str(user_id), name)]

    def queryset(self, request, queryset):
        user_id = self._user_id()
        if user_id is None:
            return queryset
        return queryset.of_player(user_id)


# --------------------------------------------------------------------------
# Games and their moves


def _cell_name(cell: int, size: int) -> str:
    row, column = divmod(cell, size)
    return f"row {row + 1}, column {column + 1}"


class ReadOnlyInline(admin.TabularInline):
    """Rows shown under their parent to look through, never added, changed or
    deleted here: the services write them. A subclass names its ``fields``."""

    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields


class TakenBackInline(ReadOnlyInline):
    """The moves taken back, and by whom: gone from the moves, kept here."""

    model = TakenBack
    fields = ("created_at", "ply", "cells", "side", "agreed_by")


class MoveInline(ReadOnlyInline):
    """The moves in order, read-only: they are the game's history."""

    model = Move
    fields = ("ply", "mark", "cell", "row_and_column", "created_at")

    def get_queryset(self, request):
        # The game comes along so that row_and_column knows the board size
        # without a query per move.
        return super().get_queryset(request).select_related("game").order_by("ply")

    @admin.display(description="row and column")
    def row_and_column(self, move: Move) -> str:
        return _cell_name(move.cell, move.game.size)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "x_name",
        "o_name",
        "variant",
        "ai_level",
        "status",
        "result",
        "termination",
        "move_count",
        "created_at",
        "finished_at",
    )
    list_display_links = ("id", "x_name", "o_name")
    list_filter = ("status", "result", "variant", "ai_level", "termination", OpponentFilter, PlayerFilter)
    search_fields = ("x_player__username", "o_player__username")
    date_hierarchy = "created_at"
    list_select_related = ("x_player", "o_player")
    ordering = ("-created_at", "-id")
    inlines = (MoveInline, TakenBackInline)
    actions = ("abort_unfinished",)

    # Everything on a game is history or the rules it was played under; even
    # the settings (variant, AI side) are read-only because replaying the
    # moves under different ones gives another game, or none at all.
    fieldsets = (
        (None, {"fields": ("final_board", "variant", "status", "result", "termination", "move_count")}),
        ("Players", {"fields": ("x_player_shown", "o_player_shown", "ai_side", "ai_level", "start_mode", "seed")}),
        ("Dates", {"fields": ("created_at", "updated_at", "finished_at", "rematch_of")}),
        (
            "Time",
            {
                "fields": (
                    "time_control_shown",
                    "x_clock_shown",
                    "o_clock_shown",
                    "turn_started_at",
                    "deadline",
                    "draw_offer",
                    "takeback_offer",
                    "takebacks_allowed",
                )
            },
        ),
    )
    # Every field shown is read-only: the same list, not a second copy of it.
    readonly_fields = tuple(name for _, options in fieldsets for name in options["fields"])

    class Media:
        css = {"all": ("games/admin.css",)}

    # -- the time ------------------------------------------------------------------

    @admin.display(description="time control")
    def time_control_shown(self, game: Game) -> str:
        return game.time_control.label

    @admin.display(description="X's clock")
    def x_clock_shown(self, game: Game) -> str:
        return clocks.format_ms(game.clock_ms("X")) or "–"

    @admin.display(description="O's clock")
    def o_clock_shown(self, game: Game) -> str:
        return clocks.format_ms(game.clock_ms("O")) or "–"

    # -- columns -----------------------------------------------------------------

    @admin.display(description="X", ordering="x_player__username")
    def x_name(self, game: Game) -> str:
        return game.player_name("X")

    @admin.display(description="O", ordering="o_player__username")
    def o_name(self, game: Game) -> str:
        return game.player_name("O")

    def _player_shown(self, game: Game, side: str):
        """The player's account, linked; or the AI, a guest, a deleted player by name."""
        user = game.player(side)
        if user is None:
            return game.player_name(side)
        url = reverse(f"admin:{user._meta.app_label}_{user._meta.model_name}_change", args=[user.pk])
        return format_html('<a href="{}">{}</a>', url, user.get_username())

    @admin.display(description="X player")
    def x_player_shown(self, game: Game):
        return self._player_shown(game, "X")

    @admin.display(description="O player")
    def o_player_shown(self, game: Game):
        return self._player_shown(game, "O")

    @admin.display(description="final position")
    def final_board(self, game: Game):
        """The board as a small grid, the winning line marked, and its string form."""
        try:
            board = game.board
        except ValueError as error:  # stored moves that do not replay: show why, not a 500
            return format_html('<p class="errornote">The moves do not replay: {}</p>', error)
        line = set(board.winning_line or ())
        size = board.size
        rows = format_html_join(
            "",
            "<tr>{}</tr>",
            (
                (
                    format_html_join(
                        "",
                        '<td class="{}" title="{}">{}</td>',
                        (
                            (
                                " ".join(
                                    ["ttt-cell", f"ttt-{mark.lower()}" if mark != "." else "ttt-empty"]
                                    + (["ttt-win"] if cell in line else [])
                                ),
                                f"cell {cell}: {_cell_name(cell, size)}",
                                mark if mark != "." else "",
                            )
                            for cell in range(row * size, (row + 1) * size)
                            for mark in [board.cell(cell)]
                        ),
                    ),
                )
                for row in range(size)
            ),
        )
        if board.winner:
            caption = f"{board.winner} won with the highlighted line."
        elif board.is_draw():
            caption = "A draw: the board is full."
        elif game.result:
            caption = f"{game.get_result_display()} by {game.get_termination_display().lower()}."
        else:
            caption = f"{game.get_status_display()} after {board.ply} moves."
        return format_html(
            '<table class="ttt-board ttt-board-{}" aria-label="{}">{}</table>'
            '<p class="ttt-position">{} Position: <code>{}</code></p>',
            size,
            f"Final position {board}",
            rows,
            caption,
            str(board),
        )

    # -- a game is made by playing, not by typing ------------------------------------

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        # A finished game is in both players' histories, the statistics and
        # the ratings; abort an unfinished one instead.
        return False

    def has_change_permission(self, request, obj=None):
        # Without an object Django asks whether the changelist's actions may
        # run; with one, whether the form may save. Only the first is allowed:
        # the change page is a view page.
        if obj is not None:
            return False
        return super().has_change_permission(request)

    @admin.action(description="Abort selected unfinished games", permissions=["change"])
    def abort_unfinished(self, request, queryset):
        aborted = over = 0
        for game_id in queryset.values_list("pk", flat=True):
            if services.game_abort(game_id=game_id):
                aborted += 1
            else:
                over += 1
        message = ngettext("Aborted %(aborted)d game", "Aborted %(aborted)d games", aborted) % {"aborted": aborted}
        if over:
            message += ngettext(
                "; %(over)d was already over and was left alone.",
                "; %(over)d were already over and were left alone.",
                over,
            ) % {"over": over}
        else:
            message += "."
        self.message_user(request, message, messages.SUCCESS if aborted else messages.WARNING)
