"""The API under a browser's session: every POST needs the CSRF token (in the
X-CSRFToken header, as the page's form carries it) and is refused without it
in the API's one error shape, storing nothing. A token (Authorization header)
needs no CSRF token: no browser sends it by itself.

The endpoints are read from games/api/urls.py, so one added later is walked too."""

import re

import pytest
from django.urls.converters import IntConverter, StringConverter
from rest_framework.test import APIClient

from games.api.urls import urlpatterns
from games.play.models import Game
from tests.api.conftest import assert_error, client_for, stored

pytestmark = pytest.mark.django_db

STAND_INS = {IntConverter: 999999, StringConverter: "no-such-thing"}


def post_endpoints() -> list[str]:
    """Every /api/ address whose view takes a POST, with stand-ins for its arguments."""
    urls = []
    for pattern in urlpatterns:
        view = getattr(pattern.callback, "view_class", None)
        if view is None or not hasattr(view, "post") or pattern.name == "not-found":
            continue
        path = str(pattern.pattern)
        for arg, converter in pattern.pattern.converters.items():
            path = re.sub(rf"<(\w+:)?{arg}>", str(STAND_INS[type(converter)]), path)
        urls.append("/api/" + path)
    return urls


@pytest.fixture
def session(alice):
    """A signed-in browser, with Django's CSRF checks on."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def csrf_token(client) -> str:
    """The token as a page's form carries it (the cookie is HttpOnly)."""
    html = client.get("/play/").content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_the_walk_finds_the_writing_endpoints():
    assert {"/api/games/", "/api/games/999999/moves/", "/api/challenges/", "/api/analyse/"} <= set(post_endpoints())


@pytest.mark.parametrize("url", [url for url in post_endpoints() if url != "/api/auth/token/"])
def test_a_session_post_without_the_csrf_token_is_refused_and_stores_nothing(session, url, ai_game):
    before = stored()

    body = assert_error(session.post(url, {"cell": 4, "ply": 0}, format="json"), 403, "csrf_failed")

    assert body["message"].startswith("CSRF Failed")
    assert stored() == before


#: What each endpoint answers an empty JSON body once past the CSRF check: a
#: stand-in id is a 404, a body missing what the endpoint needs a 400 naming
#: it, and the two that need nothing make a game or a challenge with the
#: defaults. An endpoint added later must be given its answer here.
PAST_THE_CHECK = {
    "/api/auth/token/": (400, "invalid"),
    "/api/account/bot/": (201, None),  # a new account becomes a bot
    "/api/games/": (201, None),
    "/api/reports/": (400, "invalid"),
    "/api/games/999999/moves/": (400, "invalid"),
    "/api/games/999999/resign/": (404, "not_found"),
    "/api/games/999999/rematch/": (404, "not_found"),
    "/api/games/999999/rematch-offer/": (404, "not_found"),
    "/api/games/999999/abort/": (404, "not_found"),
    "/api/games/999999/claim-timeout/": (404, "not_found"),
    "/api/games/999999/chat/": (400, "invalid"),  # no text sent, checked before the game is looked up
    "/api/games/999999/chat/mute/": (404, "not_found"),
    "/api/games/999999/draw/": (404, "not_found"),
    "/api/games/999999/draw/accept/": (404, "not_found"),
    "/api/games/999999/draw/decline/": (404, "not_found"),
    "/api/games/999999/takeback/": (404, "not_found"),
    "/api/games/999999/takeback/accept/": (404, "not_found"),  # the ply is optional: the game is looked up
    "/api/games/999999/takeback/decline/": (404, "not_found"),
    "/api/challenges/": (201, None),
    "/api/challenges/accept/": (400, "invalid"),
    "/api/challenges/999999/accept/": (404, "not_found"),
    "/api/challenges/999999/decline/": (404, "not_found"),
    "/api/challenges/999999/cancel/": (404, "not_found"),
    "/api/analyse/": (400, "invalid"),
    "/api/pairing/": (400, "invalid"),  # no board or time control
    "/api/puzzles/999999/attempt/": (400, "invalid"),  # no moves sent, checked before the puzzle is looked up
    "/api/exams/": (400, "invalid"),  # no board or number of positions
    "/api/exams/999999/answers/": (400, "invalid"),  # no answers sent, checked before the exam is looked up
    "/api/notifications/read/": (200, None),  # nothing named: every one (none here) marked read
}


def test_every_endpoint_has_its_answer_past_the_check():
    assert set(PAST_THE_CHECK) == set(post_endpoints())


def assert_past_the_check(response, url):
    status, code = PAST_THE_CHECK[url]
    if code is None:
        assert response.status_code == status, response.content
    else:
        assert_error(response, status, code)


@pytest.mark.parametrize("url", post_endpoints())
def test_a_session_post_with_the_csrf_token_gets_past_the_check(session, url):
    response = session.post(url, {}, format="json", HTTP_X_CSRFTOKEN=csrf_token(session))

    assert_past_the_check(response, url)


def test_a_session_plays_a_move_with_the_csrf_token(session, ai_game):
    response = session.post(
        f"/api/games/{ai_game.pk}/moves/", {"cell": 4, "ply": 0}, format="json", HTTP_X_CSRFTOKEN=csrf_token(session)
    )

    assert response.status_code == 201
    assert Game.objects.get(pk=ai_game.pk).move_count == 2  # with the AI's reply


def test_the_token_endpoint_does_not_use_the_session_so_needs_no_csrf_token(password, alice):
    """It answers to the username and password in its body alone; a forged
    cross-site POST learns nothing it did not send."""
    client = APIClient(enforce_csrf_checks=True)
    response = client.post("/api/auth/token/", {"username": "alice", "password": password}, format="json")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("url", [url for url in post_endpoints() if url != "/api/auth/token/"])
def test_a_token_needs_no_csrf_token(alice, url):
    client = client_for(alice)
    client.handler.enforce_csrf_checks = True

    response = client.post(url, {}, format="json")

    assert_past_the_check(response, url)
