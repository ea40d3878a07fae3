"""The forms that take input have a budget per client: past it the styled 429
page says how long to wait, with Retry-After, and nothing is sent or stored."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.lobby.models import Challenge

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-long-passphrase-42"


@pytest.fixture(autouse=True)
def budgets(settings):
    cache.clear()
    settings.FORM_RATES = {**settings.FORM_RATES, "signin": "3/min", "signup": "2/hour", "password_reset": "1/hour"}
    settings.FORM_RATES["challenge"] = "2/min"
    yield settings.FORM_RATES
    cache.clear()


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def assert_paused(response, what: str):
    assert response.status_code == 429
    assert f"Too many {what} from you in a short time. Try again in" in text(response)
    assert int(response["Retry-After"]) >= 1


def test_signing_in_past_the_budget_is_a_429_even_with_the_right_password(client, user, password):
    for _ in range(3):
        assert client.post(reverse("login"), {"username": "alice", "password": "wrong"}).status_code == 200

    response = client.post(reverse("login"), {"username": user.username, "password": password})

    assert_paused(response, "signing in")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("login")).status_code == 200  # reading the form is never limited


def test_the_budget_is_per_client(client, user, password):
    for _ in range(3):
        client.post(reverse("login"), {"username": "nobody", "password": "x"})
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    response = elsewhere.post(reverse("login"), {"username": user.username, "password": password})
    assert response.status_code == 302


def test_signing_up_past_the_budget_creates_nobody(client):
    for name in ("one", "two"):
        Client().post(reverse("games:signup"), {"username": name, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    response = client.post(
        reverse("games:signup"), {"username": "three", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )

    assert_paused(response, "signing up")
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["one", "two"]


def test_password_reset_requests_past_the_budget_send_no_mail(client, user, mailoutbox):
    client.post(reverse("password_reset"), {"email": user.email})
    response = client.post(reverse("password_reset"), {"email": user.email})

    assert_paused(response, "password reset requests")
    assert len(mailoutbox) == 1


def test_challenges_past_the_budget_are_not_made_and_others_may_still_offer(client, user, bob):
    data = {"variant": "3x3", "side": "X", "kind": "open", "opponent_username": "", "time_control": "none"}
    client.force_login(user)
    for _ in range(2):
        assert client.post(reverse("games:challenge_new"), data).status_code == 302

    assert_paused(client.post(reverse("games:challenge_new"), data), "challenges")
    assert Challenge.objects.filter(challenger=user).count() == 2
    bobs = Client()
    bobs.force_login(bob)
    assert bobs.post(reverse("games:challenge_new"), data).status_code == 302  # counted per user, not address
