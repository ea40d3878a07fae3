"""The engine's work in the API (games/engine_work/): /api/analyse/ answers a
3x3 position, or one asked before, at once and for free; any other starts a
search and answers 202 (``engine_working``) until the answer is ready;
past the client's seconds of search 429 (``engine_rate_limited``), with the
engine's queue full 503 (``engine_busy``), in the one error shape with
Retry-After."""

import time

import pytest

from games import engine
from tests.api.conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

URL = "/api/analyse/"
#: Late 5x5 positions (from test_analyse.py), solved at once.
LATE_5X5 = [".X..OO..OOO.X.X.OXXXXX.O.", ".X.X.OXOO.OO.XX.XOXO...X."]
#: Early 5x5 positions: each takes seconds to search without the tablebase and the core.
SLOW_5X5 = ["X.......................O", "......X.....O.X.....O...."]


def test_past_its_seconds_a_client_hears_429_with_retry_after(anon, settings, charged_searches):
    settings.ENGINE_SECONDS_GUEST = "0.5/hour"
    assert anon.post(URL, {"board": LATE_5X5[0]}).status_code == 200
    response = anon.post(URL, {"board": LATE_5X5[1]})
    body = assert_error(response, 429, "engine_rate_limited")
    assert body["message"].startswith("The engine has searched 0.5 seconds for you in the last hour")
    assert 1 <= int(response["Retry-After"]) <= 3600
    assert charged_searches == [LATE_5X5[0]]
    # The position asked before is answered from the cache: free, so not refused.
    again = anon.post(URL, {"board": LATE_5X5[0]})
    assert again.status_code == 200 and again.json()["board"] == LATE_5X5[0]
    assert charged_searches == [LATE_5X5[0]]


def test_a_signed_in_user_is_charged_by_account(as_alice, settings, charged_searches):
    settings.ENGINE_SECONDS_USER = "0.5/hour"
    assert as_alice.post(URL, {"board": LATE_5X5[0]}).status_code == 200
    assert_error(as_alice.post(URL, {"board": LATE_5X5[1]}), 429, "engine_rate_limited")
    assert client_for(None).post(URL, {"board": LATE_5X5[1]}).status_code == 200  # anonymous: its own budget


def test_3x3_costs_nothing(anon, settings):
    settings.ENGINE_SECONDS_GUEST = settings.ENGINE_SECONDS_ADDRESS = "0/min"
    for board in (".........", "X........", "X...O....", "XO..X...."):
        assert anon.post(URL, {"board": board}).status_code == 200
    assert_error(anon.post(URL, {"board": LATE_5X5[0]}), 429, "engine_rate_limited")


def test_a_search_is_202_at_once_then_the_answer(anon, engine_processes, monkeypatch):
    expected = engine.analyse(engine.Board.from_string(LATE_5X5[0]))

    def not_here(board, budget=None, **options):
        raise AssertionError("the server's own process must not search")

    monkeypatch.setattr(engine, "analyse", not_here)
    response = anon.post(URL, {"board": LATE_5X5[0]})
    body = assert_error(response, 202, "engine_working")
    assert body["message"] == "The engine is working on this position."
    assert response["Retry-After"] == "1"
    deadline = time.monotonic() + 30
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.2)
        response = anon.post(URL, {"board": LATE_5X5[0]})
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["exact"] is True
    assert {int(c): v["outcome"] for c, v in answer["cells"].items()} == {c: e.outcome for c, e in expected.items()}


def test_with_the_queue_full_the_api_answers_503_at_once(anon, settings, slow_engine_processes):
    settings.ENGINE_QUEUE = 1
    assert_error(client_for(None).post(URL, {"board": SLOW_5X5[0]}), 202, "engine_working")
    started = time.monotonic()
    response = anon.post(URL, {"board": SLOW_5X5[1]})
    assert time.monotonic() - started < 1.0
    body = assert_error(response, 503, "engine_busy")
    assert body["message"] == "The engine is busy with other searches; try again in a moment."
    assert int(response["Retry-After"]) >= 1
