"""POST /api/auth/token/ under the sign-in lockout: the same counts as the
login page (django-axes), answered in the API's one error shape."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone

from games.accounts.models import ApiToken, token_digest
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"
LIMIT = 5  # settings.AXES_FAILURE_LIMIT


def ask(client, password, username="alice"):
    return client.post(TOKEN_URL, {"username": username, "password": password}, format="json")


def test_wrong_passwords_lock_the_token_endpoint_and_the_right_one_is_refused(anon, alice, password):
    answers = [ask(anon, "wrong") for _ in range(LIMIT)]
    for answer in answers[:-1]:
        assert_error(answer, 400, "invalid_credentials")

    for response in (answers[-1], ask(anon, password)):
        body = assert_error(response, 429, "locked_out")
        assert body["message"] == "Too many failed sign-ins. Try again in 15 minutes."
        assert response["Retry-After"] == str(15 * 60)
    assert not ApiToken.objects.exists()


def test_failures_on_the_login_page_lock_the_api_too(client, anon, alice, password):
    for _ in range(LIMIT):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})

    assert_error(ask(anon, password), 429, "locked_out")


def test_the_api_lock_lifts_by_itself(anon, alice, password):
    for _ in range(LIMIT):
        ask(anon, "wrong")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))

    response = ask(anon, password)

    assert response.status_code == 200
    assert ApiToken.objects.get(user=alice).digest == token_digest(response.json()["token"])


def test_another_username_from_the_same_client_is_not_locked(anon, alice, bob, password):
    for _ in range(LIMIT):
        ask(anon, "wrong")

    response = ask(anon, password, username="bob")
    assert response.status_code == 200
    assert ApiToken.objects.get(user=bob).digest == token_digest(response.json()["token"])
    assert not ApiToken.objects.filter(user=alice).exists()


def test_the_schema_documents_the_lockout(client):
    schema = client.get("/api/schema/?format=json").json()
    answer = schema["paths"]["/api/auth/token/"]["post"]["responses"]["429"]
    assert "`locked_out`" in answer["description"]
