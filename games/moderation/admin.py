"""Moderation in the admin: the queue of waiting reports, with the actions
a moderator answers them with, and the record of every sanction.

A decision goes through a page of its own (the reason the player is told,
and for a mute or suspension how long), as Django's own "delete selected"
asks before it acts. Members of the "moderator" group, who are staff but not
superusers, hold exactly the permissions these pages need.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import F
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import ngettext

from games.errors import GameError
from games.moderation import services
from games.moderation.forms import SanctionForm
from games.moderation.models import Decision, Report, Sanction


def decide(modeladmin, request, queryset, *, title: str, timed: bool, carry_out) -> TemplateResponse | None:
    """An action's page between choosing it and carrying it out: the reason,
    and how long for a mute or a suspension. ``carry_out(reason, duration)``
    runs once the page is sent back valid; the changelist follows."""
    form = SanctionForm(request.POST if "apply" in request.POST else None, timed=timed)
    if form.is_valid():
        try:
            carry_out(form.cleaned_data["reason"], form.duration)
        except GameError as refusal:
            modeladmin.message_user(request, refusal.message[:1].upper() + refusal.message[1:] + ".", messages.ERROR)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "opts": modeladmin.model._meta,
        "queryset": queryset,
        "form": form,
        "action": request.POST.get("action", ""),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/moderation/decide.html", context)


def _player_link(user):
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())


class WaitingFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("waiting", "Waiting"), ("handled", "Handled")]

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return queryset.waiting()
        if self.value() == "handled":
            return queryset.exclude(handled_at=None)
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The queue: waiting reports first, oldest first, each with the player's
    earlier sanctions a click away. Reports are made by players, so nothing
    is added or edited here; the actions decide."""

    list_display = ("created_at", "player_shown", "reason", "message_text", "note", "reporter", "status")
    list_display_links = ("created_at",)
    list_filter = (WaitingFilter, "reason", "decision")
    list_select_related = ("player", "reporter", "handled_by")
    search_fields = ("player__username", "reporter__username", "message_text", "note")
    search_help_text = "The reported player's or the reporter's username, or words of the message or note."
    ordering = (F("handled_at").desc(nulls_first=True), "created_at")
    actions = ["dismiss", "warn", "mute", "suspend", "close"]
    fields = (
        "player_shown",
        "reason",
        "message_text",
        "message_in_its_game",
        "note",
        "reporter",
        "created_at",
        "status",
        "handled_by",
        "handled_at",
        "sanction",
        "earlier_sanctions",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_handle_permission(self, request):
        return request.user.has_perm("games.handle_report")

    @admin.display(description="player", ordering="player__username")
    def player_shown(self, report: Report):
        return _player_link(report.player)

    @admin.display(description="status", ordering="handled_at")
    def status(self, report: Report) -> str:
        return "Waiting" if report.is_waiting else report.get_decision_display()

    @admin.display(description="in its game")
    def message_in_its_game(self, report: Report):
        if report.message is None:
            return "-"
        url = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={report.message.game_id}"
        return format_html('<a href="{}">The whole chat of game {}</a>', url, report.message.game_id)

    @admin.display(description="earlier sanctions")
    def earlier_sanctions(self, report: Report):
        count = Sanction.objects.filter(player=report.player_id).count()
        url = reverse("admin:games_sanction_changelist") + f"?player__id__exact={report.player_id}"
        return format_html('<a href="{}">{}</a>', url, ngettext("%d sanction", "%d sanctions", count) % count)

    def _handle(self, request, queryset, decision: str, reason: str = "", duration=None) -> None:
        handled = services.reports_handle(
            report_ids=list(queryset.values_list("pk", flat=True)),
            decision=decision,
            reason=reason,
            by=request.user,
            duration=duration,
        )
        skipped = queryset.count() - len(handled)
        said = ngettext("%d report handled", "%d reports handled", len(handled)) % len(handled)
        if skipped:
            said += ngettext("; %d was handled already", "; %d were handled already", skipped) % skipped
        self.message_user(request, f"{said}: {Decision(decision).label.lower()}.")

    def _decide(self, request, queryset, decision: str, title: str):
        timed = decision in (Decision.MUTE, Decision.SUSPEND)
        return decide(
            self,
            request,
            queryset.select_related("player", "reporter"),
            title=title,
            timed=timed,
            carry_out=lambda reason, duration: self._handle(request, queryset, decision, reason, duration),
        )

    @admin.action(description="Dismiss: no action", permissions=["handle"])
    def dismiss(self, request, queryset):
        self._handle(request, queryset, Decision.DISMISS)

    @admin.action(description="Warn the reported players", permissions=["handle"])
    def warn(self, request, queryset):
        return self._decide(request, queryset, Decision.WARN, "Warn the reported players")

    @admin.action(description="Mute the reported players in chat, for a time", permissions=["handle"])
    def mute(self, request, queryset):
        return self._decide(request, queryset, Decision.MUTE, "Mute the reported players in chat")

    @admin.action(description="Suspend the reported players, for a time", permissions=["handle"])
    def suspend(self, request, queryset):
        return self._decide(request, queryset, Decision.SUSPEND, "Suspend the reported players")

    @admin.action(description="Close the reported players' accounts", permissions=["handle"])
    def close(self, request, queryset):
        return self._decide(request, queryset, Decision.CLOSE, "Close the reported players' accounts")


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """Every decision about a player: who decided it, when and why. Given from
    the report queue or the users' list; lifted early from here."""

    list_display = ("created_at", "player_shown", "kind", "reason", "ends_at", "created_by", "in_force_shown")
    list_display_links = ("created_at",)
    list_filter = ("kind", ("created_by", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("player", "created_by")
    search_fields = ("player__username", "reason")
    actions = ["lift"]
    fields = (
        "player_shown",
        "kind",
        "reason",
        "ends_at",
        "created_by",
        "created_at",
        "lifted_at",
        "lifted_by",
        "in_force_shown",
        "reports_shown",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the record stays; a sanction given in error is lifted

    def has_lift_permission(self, request):
        return request.user.has_perm("games.change_sanction")

    @admin.display(description="player", ordering="player__username")
    def player_shown(self, sanction: Sanction):
        return _player_link(sanction.player)

    @admin.display(description="in force", boolean=True)
    def in_force_shown(self, sanction: Sanction) -> bool:
        return sanction.in_force()

    @admin.display(description="reports")
    def reports_shown(self, sanction: Sanction):
        count = sanction.reports.count()
        url = reverse("admin:games_report_changelist") + f"?sanction__id__exact={sanction.pk}"
        return format_html('<a href="{}">{}</a>', url, ngettext("%d report", "%d reports", count) % count)

    @admin.action(description="Lift the selected sanctions now", permissions=["lift"])
    def lift(self, request, queryset):
        lifted = sum(services.sanction_lift(sanction=sanction, by=request.user) for sanction in queryset)
        self.message_user(request, ngettext("%d sanction lifted.", "%d sanctions lifted.", lifted) % lifted)
