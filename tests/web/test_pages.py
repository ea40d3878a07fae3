"""Home page, error pages and what every page shares."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.template.loader import render_to_string
from django.urls import include, path, reverse

from games import engine
from games.play.models import Level

pytestmark = pytest.mark.django_db


def boom(request):
    raise RuntimeError("boom")


def forbidden(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("bad")


# Used through @pytest.mark.urls(__name__): the site plus views that fail.
urlpatterns = [
    path("boom/", boom),
    path("forbidden/", forbidden),
    path("suspicious/", suspicious),
    path("", include("tttsite.urls")),
]


def test_home_invites_a_visitor_to_play_and_sign_up(client):
    response = client.get(reverse("games:home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Play tic-tac-toe against an AI that cannot be beaten" in html
    assert "Sign up to play" in html
    assert f'href="{reverse("games:signup")}"' in html
    assert f'href="{reverse("login")}"' in html


def test_home_says_play_now_starts_the_perfect_level_the_one_that_cannot_be_beaten(client):
    html = client.get(reverse("games:home")).content.decode()
    play_now = html[html.index('aria-label="Play now"') :]
    assert '<input type="hidden" name="level" value="perfect">' in play_now[: play_now.index("</form>")]
    assert "<em>Play now</em> starts the Perfect level" in html
    assert "Easy, Medium and Hard" in html and "weaker on purpose" in html


@pytest.mark.parametrize("url_name", ["games:home", "games:new", "games:leaderboard", "login"])
def test_the_footer_says_only_the_perfect_level_never_loses(client, url_name):
    html = client.get(reverse(url_name)).content.decode()
    footer = html[html.index('<footer class="site-footer">') : html.index("</footer>")]
    assert "The Perfect AI never loses, on any board; Easy, Medium and Hard are weaker on purpose." in footer
    assert "The AI never loses" not in html
    assert engine.UNBEATABLE_LEVEL == Level.PERFECT  # the level the footer names is the engine's


def test_home_greets_a_signed_in_player_without_sign_up_buttons(client_logged_in, user):
    html = client_logged_in.get(reverse("games:home")).content.decode()

    assert (
        f'Signed in as <a href="{reverse("games:profile", args=[user.username])}"><strong>{user.username}</strong>'
        in html
    )
    assert "Sign up to play" not in html


@pytest.mark.parametrize("url_name", ["games:home", "games:signup", "login", "password_reset", "password_change"])
def test_pages_have_no_inline_scripts(client_logged_in, client, url_name):
    """A Content-Security-Policy without 'unsafe-inline' is coming; pages must not need it."""
    if url_name == "password_change":
        response = client_logged_in.get(reverse(url_name))
    else:
        client.logout()
        response = client.get(reverse(url_name))
    scripts = re.findall(r"<script\b[^>]*>", response.content.decode())

    assert scripts, "expected the site script"
    assert all("src=" in tag and "defer" in tag for tag in scripts), scripts
    assert 'style="' not in response.content.decode()


def test_stylesheet_and_script_exist():
    assert finders.find("games/site.css")
    assert finders.find("games/site.js")
    assert finders.find("games/favicon.svg")


def test_unknown_page_is_a_styled_404(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    html = response.content.decode()
    assert "This square is empty" in html
    assert "games/site.css" in html
    assert 'class="site-header"' in html


@pytest.mark.urls(__name__)
def test_permission_denied_is_a_styled_403(client):
    response = client.get("/forbidden/")

    assert response.status_code == 403
    assert "Not your move" in response.content.decode()


@pytest.mark.urls(__name__)
def test_bad_request_is_a_styled_400(client):
    response = client.get("/suspicious/")

    assert response.status_code == 400
    assert "That move does not make sense" in response.content.decode()


@pytest.mark.urls(__name__)
def test_server_error_is_a_styled_500(client):
    client.raise_request_exception = False
    response = client.get("/boom/")

    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert "/static/games/site.css" in html


def test_500_page_renders_without_a_request_or_context():
    html = render_to_string("500.html")

    assert "Something went wrong on our side" in html


def test_csrf_failure_page_explains_what_happened(client, user, password):
    client.handler.enforce_csrf_checks = True
    response = client.post(reverse("login"), {"username": user.username, "password": password})

    assert response.status_code == 403
    assert "That form has expired" in response.content.decode()
