"""Fixtures for the API tests: players with tokens, games in known states, and
a snapshot of everything stored, to show that a refused request changed nothing."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from games.accounts.services import api_token_create
from games.lobby import services as lobby_services
from games.lobby.models import Challenge, PairingRequest
from games.play import services
from games.play.models import Game, Move
from games.play.players import Player


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Throttles count requests in the cache: each test starts with a clean slate."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rates(settings):
    """Set some of the throttle rates for one test."""

    def set_rates(**changes):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**api_settings.DEFAULT_THROTTLE_RATES, **changes},
        }

    return set_rates


@pytest.fixture
def alice(user):
    return user


def client_for(user=None) -> APIClient:
    """An API client sending ``user``'s token (anonymous without a user)."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user)}")
    return client


@pytest.fixture
def anon():
    return client_for(None)


@pytest.fixture
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def as_bob(bob):
    return client_for(bob)


@pytest.fixture
def as_carol(carol):
    return client_for(carol)


@pytest.fixture
def ai_game(alice):
    """Alice plays X against the perfect AI; nobody has moved."""
    return services.game_create_against_ai(player=Player(user=alice), side="X", level="perfect")


@pytest.fixture
def human_game(alice, bob):
    """Alice (X) against Bob (O), 3x3, no clock; nobody has moved."""
    challenge = lobby_services.challenge_create(challenger=alice, kind="direct", side="X", opponent_username="bob")
    return lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)


@pytest.fixture
def finished_game(alice):
    """Alice (X) resigned after one move each against the AI."""
    game = services.game_create_against_ai(player=Player(user=alice), side="X", level="easy", seed=1)
    services.game_play_move(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    return services.game_resign(game_id=game.pk, player=Player(user=alice))


def stored() -> dict:
    """Everything the API could have written, to compare before and after a refusal."""
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "moves": list(Move.objects.order_by("pk").values("game", "ply", "cell")),
        "challenges": list(Challenge.objects.order_by("pk").values()),
        "pairing_requests": list(PairingRequest.objects.order_by("pk").values()),
    }


def assert_error(response, status: int, code: str) -> dict:
    """The one error shape: a code and a sentence, nothing else but fields or game."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert set(body) <= {"code", "message", "fields", "game"}
    return body
