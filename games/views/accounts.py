from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from games import services
from games.forms import SignUpForm
from games.views.play import GUEST_SESSION_KEY


def on_signed_up(request, user):
    """Run once a visitor's new account exists: the games they played as a guest
    become the account's, then they are signed in."""
    guest_key = request.session.get(GUEST_SESSION_KEY, "")
    adopted = services.games_adopt_guest(user=user, guest_key=guest_key)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if adopted:
        word = "game" if adopted == 1 else "games"
        messages.info(request, f"The {adopted} {word} you played as a guest are in your history now.")


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
    """A player's public page: who they are and since when."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(
        request,
        "games/profile.html",
        {"player": player, "is_owner": request.user == player},
    )
