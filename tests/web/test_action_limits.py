"""Each action that writes has one budget per client, through a page's form and
the API alike: past it the styled 429 page (or the API's 429 ``throttled``)
says how long to wait, with Retry-After, and nothing is sent or stored."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.lobby.models import Challenge, PairingRequest
from tests.api.conftest import client_for
from tests.factories import human_game

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-long-passphrase-42"


@pytest.fixture(autouse=True)
def budgets(settings):
    cache.clear()
    settings.ACTION_RATES = {
        **settings.ACTION_RATES,
        "signin": "3/min",
        "signup": "2/hour",
        "password_reset": "1/hour",
        "challenge": "2/min",
        "offer": "2/min",
        "pairing": "2/min",
    }
    yield settings.ACTION_RATES
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


def assert_throttled(response):
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "throttled" and int(response["Retry-After"]) >= 1


CHALLENGE = {"variant": "3x3", "side": "X", "kind": "open", "opponent_username": "", "time_control": "none"}


def test_challenges_have_one_budget_through_the_form_and_the_api(client, user, bob):
    client.force_login(user)
    api = client_for(user)
    assert client.post(reverse("games:challenge_new"), CHALLENGE).status_code == 302
    assert api.post("/api/challenges/", {"kind": "direct", "opponent": "bob"}, format="json").status_code == 201

    assert_throttled(api.post("/api/challenges/", {"kind": "direct", "opponent": "bob"}, format="json"))
    assert_paused(client.post(reverse("games:challenge_new"), CHALLENGE), "challenges")
    assert Challenge.objects.filter(challenger=user).count() == 2
    assert api.get("/api/challenges/").status_code == 200  # reading is never limited


def test_a_rematch_offer_is_a_challenge_in_the_budget(user, bob):
    api = client_for(user)
    for _ in range(2):
        api.post("/api/challenges/", {"kind": "direct", "opponent": "bob"}, format="json")
    game = human_game(user, bob, [4, 0], resign=bob)

    assert_throttled(api.post(f"/api/games/{game.pk}/rematch-offer/"))
    assert not Challenge.objects.filter(rematch_of=game).exists()


def test_draw_offers_repeated_after_declines_stop_at_the_budget(client, user, bob):
    game = human_game(user, bob, [4, 0])
    alice, bobs = client_for(user), client_for(bob)
    for _ in range(2):
        assert alice.post(f"/api/games/{game.pk}/draw/").status_code == 200
        assert bobs.post(f"/api/games/{game.pk}/draw/decline/").status_code == 200

    client.force_login(user)
    assert_paused(client.post(reverse("games:draw_offer", args=[game.pk])), "draw offers and takebacks")
    assert_throttled(alice.post(f"/api/games/{game.pk}/takeback/"))
    game.refresh_from_db()
    assert (game.draw_offer, game.takeback_offer) == ("", "")


def test_quick_game_requests_and_cancels_share_one_budget(client, user):
    api = client_for(user)
    ask = {"board": "3x3", "time_control": "3+2"}
    assert api.post("/api/pairing/", ask, format="json").status_code == 201
    assert api.delete("/api/pairing/").status_code == 200

    assert_throttled(api.post("/api/pairing/", ask, format="json"))
    client.force_login(user)
    assert_paused(client.post(reverse("games:quick"), ask), "quick game requests")
    assert not PairingRequest.objects.waiting().exists()
    assert api.get("/api/pairing/").status_code == 200


def test_signing_in_has_one_budget_through_the_login_page_and_the_api(client, user, password):
    for _ in range(2):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    api = client_for(None)
    assert api.post("/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json").status_code == 400

    assert_throttled(api.post("/api/auth/token/", {"username": user.username, "password": password}, format="json"))
    assert_paused(client.post(reverse("login"), {"username": user.username, "password": password}), "signing in")
