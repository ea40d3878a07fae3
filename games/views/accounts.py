from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games import charts, selectors
from games.forms import SignUpForm


def on_signed_up(request, user):
    """Run once a visitor's new account exists: sign them in. Logging in hands
    them the games they played as a guest (games.signals)."""
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")


def _next_url(request) -> str:
    """Where to go after signing up (?next=, as the login page takes it), if it is on this site."""
    url = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return url if safe else ""


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account with Django's UserCreationForm, sign in, go home
    (or back to ?next=, say an invite link)."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "games:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            on_signed_up(request, user)
            messages.success(request, f"Welcome, {user.username}! Your account is ready.")
            return redirect(next_url or "games:home")
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def profile(request, username):
    """A player's public page: who they are, since when, their record, rating and
    streaks, records by opponent, and latest games."""
    try:
        player = selectors.active_player(username)
    except get_user_model().DoesNotExist:
        raise Http404("No such player.") from None
    ratings = selectors.rating_history(player)
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "is_owner": request.user == player,
            "record": selectors.player_record(player),
            "recent_games": selectors.player_recent_games(player, limit=10),
            "stats": selectors.player_stats(player),
            "records": selectors.player_records(player),
            "ratings": ratings,
            "rating_chart": charts.line_chart([ratings[0].before, *(c.after for c in ratings)], left=0)
            if ratings
            else None,
        },
    )
