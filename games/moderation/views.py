"""The report form: a player reports another player, or one of their chat messages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.errors import GameError
from games.moderation import selectors, services
from games.moderation.forms import ReportForm
from games.serving.http import status_of


def _target(request):
    """The player or the chat message the address names: ``?player=`` or ``?message=``."""
    source = request.POST if request.method == "POST" else request.GET
    username, message_id = source.get("player", ""), source.get("message", "")
    if message_id:
        message = selectors.message_to_report(int(message_id)) if message_id.isdigit() else None
        if message is None:
            raise Http404("No such message.")
        return None, message
    player = selectors.player_to_report(username)
    if player is None:
        raise Http404("No such player.")
    return player, None


@login_required
@require_http_methods(["GET", "POST"])
def report(request):
    """Report a player (from their profile) or a chat message (from the game's
    chat). A refusal is shown on the form, with nothing stored."""
    player, message = _target(request)
    status = 200
    form = ReportForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            services.report_make(reporter=request.user, player=player, message=message, **form.cleaned_data)
        except GameError as refusal:
            form.add_error(None, refusal.message[:1].upper() + refusal.message[1:] + ".")
            status = status_of(refusal)
        else:
            messages.success(
                request, "Thank you: your report is with the moderators. You will be told what they decide."
            )
            if message is not None:
                return redirect(message.game)
            return redirect("games:profile", username=player.get_username())
    elif form.is_bound:
        status = 400
    reported = message.author if message else player
    return render(
        request,
        "moderation/report.html",
        {"form": form, "player": player, "message": message, "reported": reported},
        status=status,
    )
