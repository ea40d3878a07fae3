"""Your account: download every game you played, or delete the account."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from asgiref.sync import sync_to_async

from games import exports, selectors, services
from games.forms import AccountDeleteForm


@require_GET
@login_required
@never_cache
def account(request):
    """What the site keeps about you, the downloads, and the way out."""
    return render(request, "games/account.html", {"record": selectors.player_record(request.user)})


async def _pieces_async(pieces):
    """A generator of text read in Django's thread, one piece at a time: under
    ASGI a plain generator would be read whole into memory before sending."""
    next_piece = sync_to_async(next)
    try:
        while (piece := await next_piece(pieces, None)) is not None:
            yield piece
    finally:
        await sync_to_async(pieces.close)()


def _download(request, pieces, extension: str, content_type: str) -> StreamingHttpResponse:
    if isinstance(request, ASGIRequest):
        pieces = _pieces_async(pieces)
    response = StreamingHttpResponse(pieces, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=exports.export_filename(request.user, extension)
    )
    return response


def _site_url(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@require_GET
@login_required
@never_cache
def account_games_json(request):
    """Every game you played, and your account, as a JSON file."""
    games = selectors.player_games_for_export(request.user)
    pieces = exports.games_json(request.user, games, site_url=_site_url(request))
    return _download(request, pieces, "json", "application/json")


@require_GET
@login_required
@never_cache
def account_games_csv(request):
    """Every game you played, one row each, as a CSV file."""
    games = selectors.player_games_for_export(request.user)
    pieces = exports.games_csv(request.user, games, site_url=_site_url(request))
    return _download(request, pieces, "csv", "text/csv; charset=utf-8")


@require_http_methods(["GET", "POST"])
@login_required
@never_cache
def account_delete(request):
    """Ask for the password, then delete the account (services.account_delete),
    sign out and go home. A wrong password, or the last superuser, changes nothing."""
    form = AccountDeleteForm(request.user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_delete(user=request.user)
        except services.AccountRefused as error:
            form.add_error(None, f"Your account was not deleted: {error.message}.")
        else:
            logout(request)
            messages.success(request, "Your account has been deleted.")
            return redirect("games:home")
    return render(
        request,
        "games/account_delete.html",
        {"form": form, "record": selectors.player_record(request.user)},
        status=400 if form.errors else 200,
    )
