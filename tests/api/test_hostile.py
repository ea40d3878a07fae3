"""Malformed and hostile input, to the API and to the pages' forms: never a 500,
and a refused request stores nothing.

What is covered elsewhere: the one error shape and a first malformed body
(test_errors.py), who may act on which game or challenge (test_permissions.py:
Carol, who plays in none of them, on every endpoint), a missing CSRF token
(test_csrf.py here and in tests/web), and thousands of generated requests
(test_schema.py, more with scripts/fuzz).
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.lobby import services
from games.play import services as play_services
from games.play.players import Player
from tests.api.conftest import assert_error, stored
from tests.api.test_permissions import ENDPOINTS

pytestmark = pytest.mark.django_db

LIMIT = 64 * 1024  # settings.DATA_UPLOAD_MAX_MEMORY_SIZE
POSTS = [e for e in ENDPOINTS if e.method == "post"]
TAKES_A_BODY = [e for e in POSTS if e.body]
ID_PATHS = [e for e in ENDPOINTS if "{" in e.path]


def _id(endpoint):
    return endpoint.name


@pytest.fixture
def world(alice, bob, human_game):
    """Alice (X, to move) against Bob, and Alice's direct challenge to Bob (as in test_permissions.py)."""
    challenge = services.challenge_create(challenger=alice, kind="direct", opponent_username="bob")
    return {"game": human_game, "challenge": challenge}


def _path(endpoint, world, game=None, challenge=None):
    return endpoint.path.format(game=game or world["game"].pk, challenge=challenge or world["challenge"].pk)


def _body(endpoint, world):
    return {k: (world["challenge"].token if v == "{token}" else v) for k, v in (endpoint.body or {}).items()}


def _post_raw(client, endpoint, world, data, content_type="application/json"):
    return client.post(_path(endpoint, world), data, content_type=content_type)


# -- size --------------------------------------------------------------------------------------


def test_the_limit_is_what_the_settings_say(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == LIMIT


@pytest.mark.parametrize("endpoint", POSTS, ids=_id)
def test_a_body_over_the_limit_is_a_413_before_it_is_read(as_alice, world, endpoint):
    before = stored()
    body = json.dumps({**_body(endpoint, world), "padding": "x" * LIMIT})
    response = _post_raw(as_alice, endpoint, world, body)
    body = assert_error(response, 413, "request_too_large")
    assert str(LIMIT) in body["message"]
    assert stored() == before


def test_a_body_just_under_the_limit_is_read(as_alice):
    body = '{"opponent": "ai"' + " " * (LIMIT - 100) + "}"  # padded with whitespace: no unknown field
    assert as_alice.post("/api/games/", body, content_type="application/json").status_code == 201


@pytest.mark.parametrize("path", ["/play/", "/accounts/login/", "/accounts/signup/", "/challenges/new/"])
def test_a_form_over_the_limit_is_a_413_page(client_logged_in, path):
    before = stored()
    response = client_logged_in.post(path, {"variant": "3x3", "username": "x" * (LIMIT + 1)})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "too much to send" in response.content.decode()
    assert stored() == before


# -- content types and malformed bodies ------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "multipart/form-data; boundary=xyz",
        "application/x-www-form-urlencoded",
        "application/xml",
        "application/jsonp",
        "text/json",
    ],
)
@pytest.mark.parametrize("endpoint", TAKES_A_BODY, ids=_id)
def test_a_body_that_is_not_json_is_a_415(as_alice, world, endpoint, content_type):
    before = stored()
    response = _post_raw(as_alice, endpoint, world, json.dumps(_body(endpoint, world)), content_type)
    assert_error(response, 415, "unsupported_media_type")
    assert stored() == before


MALFORMED = {
    "truncated": b'{"cell": 4,',
    "trailing": b'{"cell": 4} {}',
    "nan": b'{"cell": NaN, "ply": 0}',
    "single-quotes": b"{'cell': 4}",
    "not-utf8": b'{"cell": "\xff\xfe"}',
    # A few tens of kilobytes, far deeper than Python's parser can go.
    "nested-arrays": b"[" * 20_000 + b"]" * 20_000,
    "nested-objects": b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    "five-thousand-digits": b'{"cell": 1' + b"0" * 5000 + b', "ply": 0}',
}


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
@pytest.mark.parametrize("endpoint", TAKES_A_BODY, ids=_id)
def test_malformed_json_is_a_400(as_alice, world, endpoint, raw):
    before = stored()
    assert_error(_post_raw(as_alice, endpoint, world, raw), 400, "malformed_json")
    assert stored() == before


WELL_FORMED_BUT_WRONG = {
    "array": [4, 0],
    "string": "move",
    "null": None,
    "number": 4,
    "huge-int": {"cell": 10**30, "ply": 10**30, "opponent": 10**30, "board": 10**30, "username": 10**30},
    "negative": {"cell": -1, "ply": -1, "opponent": -1, "board": -1, "username": -1, "token": -1, "kind": -1},
    "nested-values": {"cell": {"cell": [4]}, "ply": [[0]], "opponent": {"$gt": ""}, "username": ["alice"]},
    "nul-bytes": {
        "cell": "4\x00",
        "ply": "\x00",
        "opponent": "bob\x00",
        "username": "alice\x00",
        "password": "\x00",
        "board": "....\x00....",
        "token": "\x00",
        "kind": "open\x00",
    },
    "wrong-kinds": {"kind": "everyone", "side": "Z", "variant": "9x9", "opponent": "robot", "move_time_limit": -5},
}


@pytest.mark.parametrize("data", WELL_FORMED_BUT_WRONG.values(), ids=WELL_FORMED_BUT_WRONG.keys())
@pytest.mark.parametrize("endpoint", TAKES_A_BODY, ids=_id)
def test_well_formed_json_of_the_wrong_shape_is_refused(as_alice, world, endpoint, data):
    before = stored()
    response = _post_raw(as_alice, endpoint, world, json.dumps(data))
    body = assert_error(response, 400, "invalid")  # not a 404, 409 or 500 that happens to be JSON
    if isinstance(data, dict):
        assert body["fields"], body  # the fields at fault are named
    assert stored() == before


# -- CSRF: forged tokens (a missing one: tests/api/test_csrf.py, tests/web/test_csrf.py) ----------------


@pytest.fixture
def session_api(alice):
    """Alice through the site's session cookie, as a page's script calls the API."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


@pytest.mark.parametrize(
    "token", ["forged-token-forged-token-forged-", "a" * 64, "\x00" * 32], ids=["forged", "wrong", "nul"]
)
@pytest.mark.parametrize("endpoint", [e for e in POSTS if not e.public], ids=_id)
def test_a_session_request_with_a_forged_csrf_token_is_refused(session_api, world, endpoint, token):
    session_api.cookies["csrftoken"] = "b" * 32  # a cookie of the attacker's choosing, not matching
    before = stored()
    response = session_api.post(_path(endpoint, world), _body(endpoint, world), format="json", HTTP_X_CSRFTOKEN=token)
    body = assert_error(response, 403, "csrf_failed")
    assert "CSRF" in body["message"]
    assert stored() == before


PAGE_FORMS = [
    ("/play/", {"variant": "3x3", "side": "X", "level": "easy", "start_mode": "minimax"}),
    ("/games/{game}/move/", {"cell": 4, "ply": 0}),
    ("/games/{game}/resign/", {}),
    ("/challenges/new/", {"kind": "open", "side": "X", "variant": "3x3"}),
]


@pytest.mark.parametrize("path, data", PAGE_FORMS, ids=[p for p, _ in PAGE_FORMS])
def test_a_page_form_with_a_forged_csrf_token_is_refused(alice, world, path, data):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.cookies["csrftoken"] = "c" * 32
    before = stored()
    response = client.post(path.format(game=world["game"].pk), {**data, "csrfmiddlewaretoken": "d" * 32})
    assert response.status_code == 403
    assert "That form has expired" in response.content.decode()
    assert stored() == before


# -- ids that are not yours, or not anyone's -----------------------------------------------------


NO_SUCH_IDS = ["999999", "0", "99999999999999999999999", "9223372036854775808"]


@pytest.mark.parametrize("pk", NO_SUCH_IDS)
@pytest.mark.parametrize("endpoint", ID_PATHS, ids=_id)
def test_an_id_that_names_nothing_is_a_json_404(as_alice, world, endpoint, pk):
    before = stored()
    path = endpoint.path.format(game=pk, challenge=pk)
    response = getattr(as_alice, endpoint.method)(path, _body(endpoint, world) or None, format="json")
    assert_error(response, 404, "not_found")
    assert stored() == before


@pytest.mark.parametrize("pk", ["-1", "abc", "1.5", "%00", "1e3", "４"])
@pytest.mark.parametrize("endpoint", ID_PATHS, ids=_id)
def test_an_id_that_is_not_a_number_is_a_json_404(as_alice, world, endpoint, pk):
    before = stored()
    response = getattr(as_alice, endpoint.method)(endpoint.path.format(game=pk, challenge=pk))
    assert_error(response, 404, "not_found")
    assert stored() == before


GAME_PAGES = [
    ("get", "/games/{game}/"),
    ("post", "/games/{game}/move/"),
    ("post", "/games/{game}/resign/"),
    ("post", "/games/{game}/rematch/"),
    ("post", "/games/{game}/claim/"),
    ("post", "/games/{game}/abort/"),
    ("post", "/games/{game}/rematch/offer/"),
    ("post", "/games/{game}/rematch/accept/"),
    ("post", "/games/{game}/rematch/decline/"),
    ("post", "/games/{game}/rematch/cancel/"),
    ("post", "/challenges/{challenge}/accept/"),
    ("post", "/challenges/{challenge}/decline/"),
    ("post", "/challenges/{challenge}/cancel/"),
]


@pytest.mark.parametrize("pk", NO_SUCH_IDS)
@pytest.mark.parametrize("method, path", GAME_PAGES, ids=[p for _, p in GAME_PAGES])
def test_a_page_for_an_id_that_names_nothing_is_a_404(client_logged_in, world, method, path, pk):
    before = stored()
    response = getattr(client_logged_in, method)(path.format(game=pk, challenge=pk), {"cell": 4, "ply": 0})
    assert response.status_code == 404
    assert "This square is empty" in response.content.decode()
    assert stored() == before


@pytest.fixture
def finished_between_people(alice, bob):
    """A finished game between Alice and Bob, with Bob's rematch offer open."""
    challenge = services.challenge_create(challenger=alice, kind="direct", side="X", opponent_username="bob")
    game = services.challenge_accept(user=bob, challenge_id=challenge.pk)
    play_services.game_resign(game_id=game.pk, player=Player(user=alice))
    services.game_offer_rematch(game_id=game.pk, player=Player(user=bob))
    return game


NOT_YOURS = "you are not playing in this game."
NOT_SENT_TO_YOU = "Could not decline: only the player a challenge was sent to can decline it."
NOT_YOUR_CHALLENGE = "Could not cancel: only the challenger can cancel a challenge."
#: What Carol sees after each action on (the game in progress, the finished one
#: with Bob's rematch offer open): sent back to the game, or to the lobby for a
#: challenge, with the reason.
REFUSALS = {
    "/games/{game}/move/": (f"Move refused: {NOT_YOURS}",) * 2,
    "/games/{game}/resign/": (f"Could not resign: {NOT_YOURS}",) * 2,
    "/games/{game}/rematch/": ("No rematch: only a player can ask for a rematch.",) * 2,
    "/games/{game}/claim/": (f"No win on time: {NOT_YOURS}",) * 2,
    "/games/{game}/abort/": (f"Could not abort: {NOT_YOURS}",) * 2,
    "/games/{game}/rematch/offer/": ("No rematch: only a player can offer a rematch.",) * 2,
    "/games/{game}/rematch/accept/": (
        "There is no rematch offer waiting.",
        "No rematch: this challenge was sent to someone else.",
    ),
    "/games/{game}/rematch/decline/": ("There is no rematch offer waiting.", NOT_SENT_TO_YOU),
    "/games/{game}/rematch/cancel/": ("There is no rematch offer waiting.", NOT_YOUR_CHALLENGE),
    "/challenges/{challenge}/accept/": ("Could not accept: this challenge was sent to someone else.",) * 2,
    "/challenges/{challenge}/decline/": (NOT_SENT_TO_YOU,) * 2,
    "/challenges/{challenge}/cancel/": (NOT_YOUR_CHALLENGE,) * 2,
}


def _messages(response) -> list[str]:
    return [
        " ".join(m.split()) for m in re.findall(r'<li class="message[^"]*">(.*?)</li>', response.content.decode(), re.S)
    ]


@pytest.mark.parametrize("who", ["carol", "anonymous"])
@pytest.mark.parametrize(
    "method, path", [p for p in GAME_PAGES if p[0] == "post"], ids=[p for m, p in GAME_PAGES if m == "post"]
)
def test_someone_elses_game_from_the_pages_changes_nothing(carol, world, finished_between_people, method, path, who):
    """Carol (or someone signed out) posts each action at Alice and Bob's
    games: refused with the reason, or sent to sign in; never a 500."""
    client = Client()
    if who == "carol":
        client.force_login(carol)
    before = stored()
    for game, reason in zip((world["game"], finished_between_people), REFUSALS[path], strict=True):
        url = path.format(game=game.pk, challenge=world["challenge"].pk)
        response = client.post(url, {"cell": 4, "ply": 0})
        assert response.status_code == 302, (path, response.status_code)
        if path.startswith("/challenges/"):
            expected = "/lobby/" if who == "carol" else f"/accounts/login/?next={url}"
        else:
            expected = game.get_absolute_url()  # a game is public: anyone is sent back to it
        assert response["Location"] == expected, path
        if who == "carol":
            assert _messages(client.get(response["Location"])) == [reason], path
    assert stored() == before
