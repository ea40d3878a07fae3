"""PostgreSQL or Redis stops for a while: pages and the API answer 503 with
Retry-After and no stack trace, and the next request after the service is back
works, with nothing restarted.

The database is stopped by making Django's connection fail where every query
starts (ensure_connection), or only the session's lookup or save; Redis by
pointing the cache at a port where nothing listens.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import InterfaceError, OperationalError
from django.test import Client, override_settings

from games.play import services
from games.play.players import Player
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

REDIS_NOBODY_HOME = "redis://127.0.0.1:1/0"
NEW_GAME = {"variant": "3x3", "side": "X", "level": "easy", "start_mode": "minimax"}
TRACE_WORDS = ("Traceback", "OperationalError", "InterfaceError", "ConnectionError", "psycopg", "redis.exceptions")


@contextmanager
def database_down(error=None):
    """Every new query fails as it would with PostgreSQL stopped."""
    error = error or OperationalError(
        'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused'
    )
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", side_effect=error):
        yield


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_NOBODY_HOME}
    }


@pytest.fixture
def browser_client(user):
    """A signed-in browser whose requests come back as responses, as in
    production: Django's test client would otherwise re-raise what the
    server logged (the outage) instead of returning the page."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def game(user):
    return services.game_create_against_ai(player=Player(user=user), side="X", level="easy", seed=1)


def assert_503_page(response):
    assert response.status_code == 503, response.content[:500]
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == "5"
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert "Back in a moment" in html
    assert not any(word in html for word in TRACE_WORDS), html
    return html


def assert_503_json(response, service="database"):
    assert response.status_code == 503, response.content[:500]
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "service_unavailable"
    assert set(body) == {"code", "message"}
    assert {"database": "The database is not answering", "redis": "Redis is not answering"}[service] in body["message"]
    return body


# -- the database --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/leaderboard/", "/stats/", "/games/", "/lobby/", "/play/"])
def test_a_page_is_a_503_while_the_database_is_down(browser_client, path):
    with database_down():
        response = browser_client.get(path)
    html = assert_503_page(response)
    assert f'href="{path}"' in html  # "Try again" comes back to the same page
    assert browser_client.get(path).status_code == 200  # back: the next request works


def test_a_game_page_and_a_move_while_the_database_is_down(browser_client, game):
    with database_down():
        assert_503_page(browser_client.get(game.get_absolute_url()))
        html = assert_503_page(browser_client.post(f"/games/{game.pk}/move/", {"cell": 4, "ply": 0}))
    assert "Try again" not in html  # a POST is not repeated by a link
    game.refresh_from_db()
    assert game.move_count == 0
    # Back: the same move is played.
    response = browser_client.post(f"/games/{game.pk}/move/", {"cell": 4, "ply": 0})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.move_count == 2  # with the AI's answer


def test_an_interface_error_is_an_outage_too(browser_client):
    with database_down(InterfaceError("connection already closed")):
        assert_503_page(browser_client.get("/leaderboard/"))


def test_sqlite_locked_past_its_timeout_is_an_outage(browser_client, game):
    with mock.patch("games.play.services.game_play_move", side_effect=OperationalError("database is locked")):
        assert_503_page(browser_client.post(f"/games/{game.pk}/move/", {"cell": 4, "ply": 0}))
    game.refresh_from_db()
    assert game.move_count == 0


def test_the_session_lookup_failing_is_a_503(browser_client):
    # The session is read lazily: here by the page's header (base.html shows who is signed in).
    with mock.patch.object(SessionStore, "load", side_effect=OperationalError("server closed the connection")):
        assert_503_page(browser_client.get("/accounts/login/"))  # a TemplateResponse, drawn after the view
        assert_503_page(browser_client.get("/games/"))
    assert browser_client.get("/games/").status_code == 200


def test_the_session_failing_inside_djangos_own_error_pages_is_a_503(browser_client):
    """The 404 and CSRF pages extend base.html, drawn by Django's handlers
    outside any view: the outage surfaces as a 500 there and is swapped."""
    csrf_checked = Client(enforce_csrf_checks=True, raise_request_exception=False)
    csrf_checked.cookies = browser_client.cookies
    with mock.patch.object(SessionStore, "load", side_effect=OperationalError("server closed the connection")):
        assert_503_page(browser_client.get("/no/such/page/"))
        assert_503_page(csrf_checked.post("/play/", {"variant": "3x3"}))  # no CSRF token: the 403 page
    # Back: the site's own pages again.
    not_found = browser_client.get("/no/such/page/")
    assert not_found.status_code == 404 and "This square is empty" in not_found.content.decode()
    refused = csrf_checked.post("/play/", {"variant": "3x3"})
    assert refused.status_code == 403 and "That form has expired" in refused.content.decode()


def test_the_session_save_failing_after_the_view_is_a_503():
    guest = Client(raise_request_exception=False)
    with mock.patch.object(SessionStore, "save", side_effect=OperationalError("server closed the connection")):
        # A guest's first game writes its key into the session, saved by the
        # session middleware on the way out.
        assert_503_page(guest.post("/play/", NEW_GAME))


def test_an_outage_is_logged_in_one_line_without_a_trace(browser_client, caplog):
    with caplog.at_level(logging.ERROR, logger="games.serving.middleware"), database_down():
        browser_client.get("/leaderboard/")
    records = [r for r in caplog.records if r.name == "games.serving.middleware"]
    assert len(records) == 1
    assert records[0].exc_info is None
    assert "database is down, answering GET /leaderboard/ from 127.0.0.1 with 503" in records[0].getMessage()
    assert "Connection refused" in records[0].getMessage()


def test_other_failures_stay_500s(browser_client):
    with mock.patch.object(SessionStore, "load", side_effect=ValueError("a bug in the session")):
        response = browser_client.get("/games/")
    assert response.status_code == 500
    assert "Retry-After" not in response
    html = response.content.decode()
    assert "Something went wrong on our side" in html and "Back in a moment" not in html


def test_the_api_is_a_json_503_while_the_database_is_down(user, game):
    api = client_for(user)
    with database_down():
        assert_503_json(api.get("/api/games/"))  # the token lookup fails first
        assert_503_json(api.post(f"/api/games/{game.pk}/moves/", {"cell": 4, "ply": 0}, format="json"))
        assert_503_json(api.get("/api/leaderboard/"))
        assert_503_json(client_for(None).post("/api/auth/token/", {"username": "alice", "password": "x"}))
    game.refresh_from_db()
    assert game.move_count == 0
    assert api.get("/api/games/").status_code == 200


def test_the_apis_session_lookup_failing_is_a_json_503(browser_client):
    with mock.patch.object(SessionStore, "load", side_effect=OperationalError("server closed the connection")):
        response = browser_client.get("/api/games/")
    assert_503_json(response)


# -- Redis ---------------------------------------------------------------------------------------


def test_the_api_is_a_json_503_while_redis_is_down(user, game, redis_down):
    # Every API request counts against a rate limit, and the counts live in Redis.
    assert_503_json(client_for(user).get("/api/games/"), "redis")
    assert_503_json(client_for(None).post("/api/analyse/", {"board": "........."}, format="json"), "redis")
    response = client_for(user).post(f"/api/games/{game.pk}/moves/", {"cell": 4, "ply": 0}, format="json")
    assert_503_json(response, "redis")
    game.refresh_from_db()
    assert game.move_count == 0


def test_pages_need_no_redis(browser_client, user, redis_down):
    finished = services.game_create_against_ai(player=Player(user=user), side="X", level="easy", seed=1)
    services.game_play_move(game_id=finished.pk, player=Player(user=user), cell=4, ply=0)
    services.game_resign(game_id=finished.pk, player=Player(user=user))
    # A finished game's review is read from the database: no Redis needed.
    for path in ["/", "/leaderboard/", "/games/", finished.get_absolute_url()]:
        assert browser_client.get(path).status_code == 200, path
    page = browser_client.get(finished.get_absolute_url()).content.decode()
    assert "The AI won" in page and "by resignation" in page
    assert "Back in a moment" not in page


def test_redis_back_and_the_api_answers_again(user):
    api = client_for(user)
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_NOBODY_HOME}}
    ):
        assert_503_json(api.get("/api/games/"), "redis")
    assert api.get("/api/games/").status_code == 200
