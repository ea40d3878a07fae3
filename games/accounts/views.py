"""Accounts: signing up, a player's public page, and your own account: what
the site keeps about you, your games to download, and deleting the account."""

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header, url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.accounts import exports, selectors, services
from games.accounts.forms import AccountDeleteForm, SignUpForm
from games.errors import AccountRefused, GameError
from games.exams import selectors as exam_selectors
from games.lobby.forms import ChallengeForm
from games.moderation import selectors as moderation_selectors
from games.notifications import selectors as notification_selectors
from games.play import selectors as play_selectors
from games.play.models import is_bot
from games.serving.action_limits import limit_posts
from games.stats import charts
from games.stats import selectors as stats_selectors


def on_signed_up(request, user):
    """Run once a visitor's new account exists: sign them in. Logging in hands
    them the games they played as a guest (games.signals)."""
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")


def _next_url(request) -> str:
    """Where to go after signing up (?next=, as the login page takes it), if it is on this site."""
    url = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return url if safe else ""


def _go_on(next_url: str):
    """To ``next_url`` as it was given (an address, never a URL name, as
    Django's LoginView does), or home."""
    return HttpResponseRedirect(next_url) if next_url else redirect("games:home")


@require_http_methods(["GET", "POST"])
@limit_posts("signup")
def signup(request):
    """Create an account with Django's UserCreationForm, sign in, go home
    (or back to ?next=, say an invite link)."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return _go_on(next_url)
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            on_signed_up(request, user)
            messages.success(request, f"Welcome, {user.username}! Your account is ready.")
            return _go_on(next_url)
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_GET
def profile(request, username):
    """A player's public page: who they are, since when, their record, rating and
    streaks, records by opponent, and latest games."""
    try:
        player = selectors.active_player(username)
    except get_user_model().DoesNotExist:
        closed = selectors.closed_account(username)
        if closed is None:
            raise Http404("No such player.") from None
        # Their games still name them: the link says the account is closed, not a 404.
        return render(request, "games/profile_closed.html", {"player": closed})
    board_ratings = stats_selectors.board_ratings(player)
    # The chart follows the board the player has played most rated games on.
    chart_board = max(board_ratings, key=lambda board: board.rated_games)
    ratings = stats_selectors.rating_history(player, chart_board.variant) if chart_board.rated_games else []
    bot = player.bot if is_bot(player) else None
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "bot": bot,
            # Anyone is challenged from their page, through the lobby's challenge form.
            "challenge_form": ChallengeForm(initial={"kind": "direct", "opponent_username": player.get_username()})
            if request.user.is_authenticated and request.user != player
            else None,
            "declines_you": bot is not None and not bot.accepts_people and not is_bot(request.user),
            # A game between a person and a bot is never rated; two people or two bots choose.
            "rated_choice": is_bot(request.user) == (bot is not None),
            "is_owner": request.user == player,
            "exams": exam_selectors.exams_of(player)[:5] if request.user == player else (),
            "record": stats_selectors.player_record(player),
            "recent_games": play_selectors.player_recent_games(player, limit=10),
            "stats": stats_selectors.player_stats(player),
            "records": stats_selectors.player_records(player),
            "ratings": ratings,
            "board_ratings": board_ratings,
            "chart_board": chart_board,
            "rating_chart": charts.line_chart([ratings[0].before, *(c.after for c in ratings)], left=0)
            if ratings
            else None,
        },
    )


@require_GET
@login_required
@never_cache
def account(request):
    """What the site keeps about you, the downloads, your bot settings, and the way out."""
    context = {
        "record": stats_selectors.player_record(request.user),
        "bot": selectors.bot_of(request.user),
        "notification_settings": notification_selectors.settings_of(request.user),
        "reports": moderation_selectors.reports_of(request.user),
        "decisions": moderation_selectors.decisions_about(request.user),
    }
    return render(request, "games/account.html", context)


@require_POST
@login_required
def account_bot(request):
    """Make the account a bot (only before its first game, for good), or, for
    a bot, say whether people may challenge it."""
    accepts_people = request.POST.get("accepts_people") == "on"
    try:
        if request.POST.get("become") == "bot":
            services.account_become_bot(user=request.user, accepts_people=accepts_people)
            messages.success(request, "This account is a bot now: it plays through the API and the sockets.")
        else:
            services.bot_settings_update(user=request.user, accepts_people=accepts_people)
            said = "People may challenge it." if accepts_people else "It declines challenges from people."
            messages.success(request, f"Bot settings saved. {said}")
    except GameError as refusal:
        messages.error(request, f"{refusal.message[0].upper()}{refusal.message[1:]}.")
    return redirect("games:account")


@require_GET
@login_required
@never_cache
def account_tokens(request):
    """Your API tokens: when each was made and last used, a button to revoke
    each, and one to revoke them all."""
    return render(request, "games/account_tokens.html", {"tokens": selectors.api_tokens(request.user)})


@require_POST
@login_required
def account_token_revoke(request, pk: int):
    """Revoke one token; a second click (or another tab) finds it gone and says so."""
    if services.api_token_revoke(user=request.user, token_id=pk):
        messages.success(request, "The token is revoked: programs using it are signed out of the API.")
    else:
        messages.info(request, "That token was revoked already.")
    return redirect("games:account_tokens")


@require_POST
@login_required
def account_tokens_revoke_all(request):
    """Revoke every token of the account."""
    count = services.api_tokens_revoke_all(user=request.user)
    if count:
        messages.success(request, f"All your API tokens ({count}) are revoked.")
    else:
        messages.info(request, "You had no API tokens to revoke.")
    return redirect("games:account_tokens")


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
    """Your account, every game you played and every chat message you wrote, as a JSON file."""
    games = selectors.player_games_for_export(request.user)
    chat = selectors.player_chat_for_export(request.user)
    pieces = exports.games_json(request.user, games, chat, site_url=_site_url(request))
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
        except AccountRefused as error:
            form.add_error(None, f"Your account was not deleted: {error.message}.")
        else:
            logout(request)
            messages.success(request, "Your account has been deleted.")
            return redirect("games:home")
    return render(
        request,
        "games/account_delete.html",
        {"form": form, "record": stats_selectors.player_record(request.user)},
        status=400 if form.errors else 200,
    )
