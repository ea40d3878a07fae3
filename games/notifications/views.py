"""The notifications page, marking them read, the account page's choices,
and the unsubscribe link a turn mail carries."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import InvalidInput
from games.notifications import selectors, services
from games.notifications.forms import NotificationSettingsForm


@login_required
@require_GET
def notifications(request):
    """The player's notifications of the last 30 days, newest first; seeing them marks them read."""
    shown = [(notification, selectors.can_answer(notification)) for notification in selectors.latest(request.user)]
    # Read first, so the bell on this page says so; the list still marks what was new.
    services.notifications_read(user=request.user)
    return render(request, "notifications/list.html", {"notifications": shown})


@login_required
@require_POST
def notifications_read(request):
    """Mark every notification read (the bell's "Mark all read"); a page reload, or 204 for a script."""
    services.notifications_read(user=request.user)
    if request.headers.get("X-Partial"):
        return HttpResponse(status=204)
    return redirect("games:notifications")


@login_required
@require_POST
def notification_settings(request):
    """The account page's notification choices."""
    form = NotificationSettingsForm(request.POST)
    if form.is_valid():
        services.notification_settings_set(user=request.user, **form.cleaned_data)
        messages.success(request, "Notification settings saved.")
    else:
        messages.error(request, "Those settings could not be saved.")
    return redirect("games:account")


@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """A turn mail's link: works without signing in. GET asks, POST does it
    (a mail client that opens links must not unsubscribe anyone)."""
    done, error = False, ""
    if request.method == "POST":
        try:
            services.unsubscribe(token=token)
            done = True
        except InvalidInput as refusal:
            error = refusal.message
    status = 400 if error else 200
    return render(request, "notifications/unsubscribe.html", {"done": done, "error": error}, status=status)
