"""Security headers, cookies and Django's deployment checks, as a deployment
starts the site (a clean process with the production environment) and as a
browser receives the pages (the test client)."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import ai_game, human_game

BASE_DIR = Path(__file__).resolve().parents[2]

#: What a real deployment sets (docs/operations.md, "Settings"). Nothing here connects to
#: the database or Redis: the checks only read the settings.
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "HTTPS": "1",
    "ALLOWED_HOSTS": "example.com",
    "DATABASE_URL": "postgres://tttsite:secret@db.internal:5432/tttsite",
    "REDIS_URL": "redis://cache.internal:6379/0",
}

#: The Content-Security-Policy, directive by directive (django-csp writes them in no set order).
CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(header: str) -> dict:
    """A Content-Security-Policy header as {directive: sources}."""
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def run(args, **env):
    """Run ``args`` in the project folder with only ``env`` (and PATH) set."""
    return subprocess.run(
        args,
        cwd=BASE_DIR,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args, **env):
    return run([sys.executable, "manage.py", *args], **env)


# -- manage.py check ---------------------------------------------------------------------


def test_the_deployment_checks_find_nothing_in_production(collected_static):
    """The documented production environment (docs/operations.md), static files collected as the run commands do."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV, STATIC_ROOT=str(collected_static))

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced).", result.stdout
    assert result.stderr == ""


def test_without_collectstatic_the_deployment_checks_say_to_run_it(tmp_path):
    result = manage("check", "--deploy", **PRODUCTION_ENV, STATIC_ROOT=str(tmp_path))

    assert result.returncode == 1
    assert "games.E001" in result.stderr
    assert f"The static files manifest {tmp_path}/staticfiles.json is missing" in result.stderr
    assert "Run `python manage.py collectstatic --noinput`" in result.stderr


@pytest.mark.parametrize("entry", ["tttsite.asgi", "tttsite.wsgi"])
def test_without_collectstatic_the_server_refuses_to_start_rather_than_fail_every_page(tmp_path, entry):
    result = run(
        [sys.executable, "-c", f"import {entry}"],
        **PRODUCTION_ENV,
        STATIC_ROOT=str(tmp_path),
        DJANGO_SETTINGS_MODULE="tttsite.settings",
    )

    assert result.returncode == 1
    assert "ImproperlyConfigured: The static files manifest" in result.stderr
    assert "Run `python manage.py collectstatic --noinput`" in result.stderr


def test_with_static_files_collected_the_server_starts(collected_static):
    result = run(
        [sys.executable, "-c", "import tttsite.asgi"],
        **PRODUCTION_ENV,
        STATIC_ROOT=str(collected_static),
        DJANGO_SETTINGS_MODULE="tttsite.settings",
    )

    assert result.returncode == 0, result.stderr


def test_the_checks_are_silent_in_development():
    result = manage("check", DEBUG="1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert result.stderr == ""


def test_a_site_with_plain_http_subdomains_can_leave_them_out_of_hsts_and_is_told_so(collected_static):
    result = manage(
        "check",
        "--deploy",
        **PRODUCTION_ENV,
        STATIC_ROOT=str(collected_static),
        SECURE_HSTS_INCLUDE_SUBDOMAINS="0",
        SECURE_HSTS_PRELOAD="0",
    )

    assert result.returncode == 0, result.stderr
    assert "security.W005" in result.stderr and "security.W021" in result.stderr


def test_the_migrations_are_all_made(tmp_path):
    result = manage("makemigrations", "--check", "--dry-run", DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path}/db")

    assert result.returncode == 0, result.stdout + result.stderr


# -- cookies and headers under HTTPS -----------------------------------------------------

# Signs in through the login form of a site started with HTTPS=1, over https,
# on a fresh in-memory database, and prints what the browser was sent.
SIGN_IN_OVER_HTTPS = """
import json, re, django
django.setup()
from django.core.management import call_command
from django.test.utils import setup_test_environment
setup_test_environment()
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
get_user_model().objects.create_user("alice", password="correct-horse-battery-staple")
from django.test import Client
client = Client(enforce_csrf_checks=True)
form = client.get("/accounts/login/", secure=True)
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.content.decode()).group(1)
signed_in = client.post("/accounts/login/", {"username": "alice", "password": "correct-horse-battery-staple",
                        "csrfmiddlewaretoken": token}, secure=True, headers={"Origin": "https://testserver"})
plain = Client().get("/accounts/login/")
cookies = {name: {key: morsel[key] for key in ("secure", "httponly", "samesite")}
           for response in (form, signed_in) for name, morsel in response.cookies.items()}
print(json.dumps({"status": signed_in.status_code, "cookies": cookies, "headers": dict(form.headers),
                  "plain_http": [plain.status_code, plain.get("Location")]}))
"""


@pytest.fixture(scope="module")
def signed_in_over_https(collected_static):
    env = {**PRODUCTION_ENV, "ALLOWED_HOSTS": "testserver", "DATABASE_URL": "sqlite://:memory:", "REDIS_URL": ""}
    # Production pages name static files by their hashed names.
    env["STATIC_ROOT"] = str(collected_static)
    result = run([sys.executable, "-c", SIGN_IN_OVER_HTTPS], **env, DJANGO_SETTINGS_MODULE="tttsite.settings")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_under_https_the_session_and_csrf_cookies_are_secure_httponly_and_lax(signed_in_over_https):
    assert signed_in_over_https["status"] == 302  # signed in
    cookies = signed_in_over_https["cookies"]
    assert set(cookies) >= {"sessionid", "csrftoken"}
    for name in ("sessionid", "csrftoken"):
        assert cookies[name] == {"secure": True, "httponly": True, "samesite": "Lax"}, name


def test_under_https_pages_carry_hsts_and_plain_http_is_redirected(signed_in_over_https):
    headers = signed_in_over_https["headers"]
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert directives(headers["Content-Security-Policy"]) == CSP
    assert signed_in_over_https["plain_http"] == [301, "https://testserver/accounts/login/"]


# -- headers on every page ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/accounts/login/", "/api/games/", "/api/docs/", "/admin/login/", "/no-such-page/"]
)
def test_every_answer_carries_the_security_headers(client, url):
    response = client.get(url)

    assert directives(response["Content-Security-Policy"]) == CSP
    assert response["Permissions-Policy"] == "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_the_production_server_path_sends_them_too(async_client):
    """uvicorn serves through Django's ASGI handler, where middleware runs async."""
    response = await async_client.get("/")

    assert directives(response["Content-Security-Policy"]) == CSP
    assert response["Permissions-Policy"] == "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
    assert response["X-Frame-Options"] == "DENY"


def _through_the_policy_middleware(rf, view):
    from csp.middleware import CSPMiddleware

    return CSPMiddleware(view)(rf.get("/somewhere/"))


def test_a_view_that_asks_django_csp_for_more_gets_it_and_the_others_do_not(rf, settings):
    """A view with needs of its own (django-csp's decorators, a template's
    ``request.csp_nonce``) gets them in its header; the others get the policy."""
    from csp.constants import NONCE
    from csp.decorators import csp_update
    from django.http import HttpResponse

    @csp_update({"img-src": ["https://images.example.com"]})
    def with_images(request):
        return HttpResponse("ok")

    def with_a_nonce(request):
        return HttpResponse(f"<script nonce='{request.csp_nonce}'></script>")

    widened = directives(_through_the_policy_middleware(rf, with_images)["Content-Security-Policy"])
    assert widened["img-src"].split() == ["'self'", "data:", "https://images.example.com"]
    policy = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {**policy, "script-src": ["'self'", NONCE]}}
    nonce = _through_the_policy_middleware(rf, with_a_nonce)
    sent = re.search(r"nonce='([^']+)'", nonce.content.decode()).group(1)
    assert f"'nonce-{sent}'" in directives(nonce["Content-Security-Policy"])["script-src"]
    plain = _through_the_policy_middleware(rf, lambda request: HttpResponse("ok"))
    assert directives(plain["Content-Security-Policy"])["script-src"] == "'self'"  # no nonce asked for, none sent


@pytest.mark.django_db
def test_the_policy_allows_no_inline_script_or_style_and_no_eval(client):
    sent = directives(client.get("/")["Content-Security-Policy"])
    for directive in ("default-src", "script-src", "style-src"):
        assert "'unsafe-inline'" not in sent[directive]
        assert "'unsafe-eval'" not in sent[directive]


@pytest.mark.django_db
def test_pages_open_their_sockets_on_their_own_address_only(client):
    assert directives(client.get("/learn/")["Content-Security-Policy"])["connect-src"] == "'self'"


@pytest.mark.django_db
def test_without_https_the_cookies_are_still_httponly_and_lax(client, user, password):
    response = client.post(reverse("login"), {"username": user.username, "password": password})

    assert response.status_code == 302
    for name in ("sessionid", "csrftoken"):
        morsel = response.cookies[name]
        assert (morsel["httponly"], morsel["samesite"], morsel["secure"]) == (True, "Lax", ""), name


# -- nothing inline that the policy would block ------------------------------------------

INLINE = [
    (re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"\sstyle=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+=", re.I), "an event handler attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


@pytest.fixture
def site_with_games(db, user, django_user_model, password):
    """Enough games that every chart, table and panel is drawn."""
    bob = django_user_model.objects.create_user("bob", password=password)
    admin = django_user_model.objects.create_superuser("root", password=password)
    human_game(user, bob)
    human_game(bob, user)
    playing = human_game(user, bob, cells=[4])
    ai_game(user)
    return {"user": user, "bob": bob, "admin": admin, "game": playing}


def test_no_page_needs_inline_script_or_style(client, site_with_games):
    user, admin, game = site_with_games["user"], site_with_games["admin"], site_with_games["game"]
    client.force_login(user)
    pages = [
        "/",
        "/play/",
        game.get_absolute_url(),
        "/games/",
        "/lobby/",
        "/challenges/new/",
        "/stats/",
        "/leaderboard/",
        f"/players/{user.username}/",
        "/api/docs/",
    ]
    for url in pages:
        _assert_no_inline(client, url)
    # The charts, whose tick labels once needed style attributes, were drawn.
    assert "chart-frame__axis" in _assert_no_inline(client, "/stats/")
    assert "chart-frame__axis" in _assert_no_inline(client, f"/players/{user.username}/")
    client.logout()
    for url in ["/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"]:
        _assert_no_inline(client, url)
    assert "This square is empty" in _assert_no_inline(client, "/no-such-page/", status=404)
    client.force_login(admin)
    for url in ["/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/", "/admin/axes/accessattempt/"]:
        _assert_no_inline(client, url)


def _assert_no_inline(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    html = response.content.decode()
    for pattern, what in INLINE:
        match = pattern.search(html)
        assert match is None, f"{url} has {what}: {html[max(match.start() - 80, 0) : match.end() + 80]}"
    return html


def test_the_api_docs_start_swagger_ui_from_a_file(client):
    page = client.get("/api/docs/").content.decode()
    script = re.search(r'<script src="(/api/docs/\?[^"]*script=[^"]*)"', page)
    assert script, page

    response = client.get(script.group(1).replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in response.content.decode()
