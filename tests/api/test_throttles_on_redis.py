"""The API's rate limits as production counts them: DRF's throttles on
Django's Redis cache (games/api/throttles.py), the same limits as with any
other cache.

Needs Redis at 127.0.0.1:6379 (or TEST_REDIS_URL); one that does not answer fails.
"""

import os
import time
import uuid

import pytest

from tests.api.conftest import assert_error, client_for, stored

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture(autouse=True)
def redis_cache(settings):
    """The production cache, under a prefix of this test's own (nothing to clear)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"throttle-test-{uuid.uuid4().hex}",
        }
    }


@pytest.mark.django_db
def test_each_player_has_a_budget_of_their_own_and_a_refusal_says_when_to_come_back(alice, bob, rates):
    rates(user="2/min")
    as_alice = client_for(alice)
    for _ in range(2):
        assert as_alice.get("/api/games/").status_code == 200
    response = as_alice.get("/api/games/")
    assert_error(response, 429, "throttled")
    assert 0 < int(response["Retry-After"]) <= 60
    assert client_for(bob).get("/api/games/").status_code == 200


@pytest.mark.django_db
def test_a_throttled_move_changes_nothing(as_alice, ai_game, rates):
    rates(user="1/min")
    as_alice.get("/api/games/")
    before = stored()
    assert_error(
        as_alice.post(f"/api/games/{ai_game.pk}/moves/", {"cell": 4, "ply": 0}, format="json"), 429, "throttled"
    )
    assert stored() == before


@pytest.mark.django_db
def test_an_anonymous_client_and_an_actions_budget_are_limited_too(anon, rates, settings):
    rates(anon="1000/min")
    settings.ACTION_RATES = {**settings.ACTION_RATES, "signin": "2/min"}
    wrong = {"username": "nobody", "password": "not-a-password"}
    for _ in range(2):
        assert anon.post("/api/auth/token/", wrong, format="json").status_code != 429
    assert_error(anon.post("/api/auth/token/", wrong, format="json"), 429, "throttled")
    assert anon.get("/api/leaderboard/").status_code == 200  # the anonymous budget itself is not spent


@pytest.mark.django_db
def test_the_window_slides_a_request_is_let_through_once_the_oldest_has_aged_out(alice, rates):
    rates(user="2/s")
    as_alice = client_for(alice)
    assert [as_alice.get("/api/games/").status_code for _ in range(3)] == [200, 200, 429]
    time.sleep(1.1)
    assert as_alice.get("/api/games/").status_code == 200
