from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from games import selectors
from games.forms import SignUpForm


def on_signed_up(request, user):
    """Run once a visitor's new account exists: sign them in. Logging in hands
    them the games they played as a guest (games.signals)."""
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account with Django's UserCreationForm, sign in, go home."""
    if request.user.is_authenticated:
        return redirect("games:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            on_signed_up(request, user)
            messages.success(request, f"Welcome, {user.username}! Your account is ready.")
            return redirect("games:home")
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form})


def profile(request, username):
    """A player's public page: who they are, since when, their record and latest games."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "is_owner": request.user == player,
            "record": selectors.player_record(player),
            "recent_games": selectors.player_recent_games(player, limit=10),
        },
    )
