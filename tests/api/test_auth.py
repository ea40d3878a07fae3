"""Tokens for programs, the session (with CSRF) for pages, 401 for nobody."""

import pytest
from rest_framework.test import APIClient

from games.accounts.models import ApiToken, token_digest
from games.accounts.services import api_token_create
from games.play.models import Game
from tests.api.conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"


def test_a_username_and_password_get_a_token_that_signs_requests_in(anon, alice, password):
    response = anon.post(TOKEN_URL, {"username": "alice", "password": password})
    assert response.status_code == 200
    token = response.json()["token"]
    assert ApiToken.objects.get(user=alice).digest == token_digest(token)  # the key itself is not stored

    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/games/").status_code == 200


def test_asking_twice_gives_two_tokens_that_both_work(anon, alice, password):
    """One per program: each is listed, and revoked, on its own (the account's tokens page)."""
    first = anon.post(TOKEN_URL, {"username": "alice", "password": password}).json()["token"]
    second = anon.post(TOKEN_URL, {"username": "alice", "password": password}).json()["token"]
    assert first != second
    assert ApiToken.objects.filter(user=alice).count() == 2
    for token in (first, second):
        assert APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/games/").status_code == 200


@pytest.mark.parametrize(
    "credentials",
    [
        {"username": "alice", "password": "wrong"},
        {"username": "nobody", "password": "correct-horse-battery-staple"},
    ],
)
def test_bad_credentials_are_a_400_and_make_no_token(anon, alice, credentials):
    body = assert_error(anon.post(TOKEN_URL, credentials), 400, "invalid_credentials")
    assert "username and password" in body["message"]
    assert not ApiToken.objects.exists()


def test_an_inactive_account_gets_no_token_and_is_told_it_is_closed(anon, alice, password):
    alice.is_active = False
    alice.save()
    body = assert_error(anon.post(TOKEN_URL, {"username": "alice", "password": password}), 403, "account_closed")
    assert body["message"].startswith("This account is closed")
    # The wrong password says nothing of the account.
    assert_error(anon.post(TOKEN_URL, {"username": "alice", "password": "wrong"}), 400, "invalid_credentials")


def test_missing_credentials_name_the_missing_fields(anon):
    body = assert_error(anon.post(TOKEN_URL, {}), 400, "invalid")
    assert set(body["fields"]) == {"username", "password"}


def test_anonymous_requests_to_private_endpoints_are_401_with_the_scheme_to_use(anon):
    response = anon.get("/api/games/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_an_unknown_token_is_refused_even_where_anonymous_is_allowed(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(client.get("/api/games/"), 401, "authentication_failed")
    assert_error(client.post("/api/analyse/", {"board": "........."}), 401, "authentication_failed")


def test_a_deleted_account_s_token_stops_working(alice):
    client = client_for(alice)
    alice.delete()
    assert_error(client.get("/api/games/"), 401, "authentication_failed")


# -- the session, as the site's own pages would use it -------------------------------


@pytest.fixture
def session(alice):
    """A browser's session: signed in, with Django's CSRF checks on."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def _csrf_token(client) -> str:
    client.get("/accounts/login/")  # any page with a form sets the CSRF cookie
    return client.cookies["csrftoken"].value


def test_the_session_reads_without_a_csrf_token(session):
    response = session.get("/api/games/")
    assert response.status_code == 200


def test_the_session_cannot_write_without_the_csrf_token(session):
    body = assert_error(session.post("/api/games/", {"opponent": "ai"}, format="json"), 403, "csrf_failed")
    assert "CSRF" in body["message"]
    assert not Game.objects.exists()


def test_the_session_writes_with_the_csrf_token(session, alice):
    token = _csrf_token(session)
    response = session.post("/api/games/", {"opponent": "ai"}, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201
    assert Game.objects.get().x_player == alice


def test_a_token_needs_no_csrf_token(alice):
    client = client_for(alice)
    client.handler.enforce_csrf_checks = True
    assert client.post("/api/games/", {"opponent": "ai"}, format="json").status_code == 201


def test_the_token_endpoint_ignores_the_session_and_its_csrf_check(session, alice, password):
    response = session.post(TOKEN_URL, {"username": "alice", "password": password}, format="json")
    assert response.status_code == 200
    assert ApiToken.objects.get(user=alice).digest == token_digest(response.json()["token"])


def test_a_bearer_token_is_answered_with_the_scheme_this_api_takes(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=alice)}")
    body = assert_error(client.get("/api/games/"), 401, "authentication_failed")
    assert "Authorization: Token <token>" in body["message"] and "not Bearer" in body["message"]
    assert "not provided" not in body["message"]
