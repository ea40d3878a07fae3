"""The engine budget in the API (games/serving/engine_budget.py): /api/analyse/
and a game's review answer 429 (``engine_rate_limited``) past the client's
searches, 503 (``engine_busy``) with every search slot taken, both in the one
error shape with Retry-After; a position asked again is not searched again;
and in production the searches run in processes of their own."""

import threading

import pytest

from games import engine
from games.serving import engine_budget, engine_jobs
from tests.api.conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

URL = "/api/analyse/"
#: Late 5x5 positions (from test_analyse.py), solved at once.
LATE_5X5 = [".X..OO..OOO.X.X.OXXXXX.O.", ".X.X.OXOO.OO.XX.XOXO...X."]


@pytest.fixture
def searches(monkeypatch):
    calls = []
    real = engine.analyse

    def counted(board, budget=None):
        calls.append(str(board))
        return real(board, budget=budget)

    monkeypatch.setattr(engine, "analyse", counted)
    return calls


def test_past_its_searches_an_anonymous_client_hears_429_with_retry_after(anon, settings, searches):
    settings.ENGINE_RATE_ANON = "1/min"
    assert anon.post(URL, {"board": LATE_5X5[0]}).status_code == 200
    response = anon.post(URL, {"board": LATE_5X5[1]})
    body = assert_error(response, 429, "engine_rate_limited")
    assert body["message"].startswith("The engine has searched 1 positions for you in the last minute")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert searches == [LATE_5X5[0]]
    # The position asked before is answered from the cache: free, so not refused.
    again = anon.post(URL, {"board": LATE_5X5[0]})
    assert again.status_code == 200 and again.json()["board"] == LATE_5X5[0]
    assert searches == [LATE_5X5[0]]


def test_a_signed_in_user_is_counted_by_account(as_alice, settings, searches):
    settings.ENGINE_RATE_USER = "1/min"
    assert as_alice.post(URL, {"board": LATE_5X5[0]}).status_code == 200
    assert_error(as_alice.post(URL, {"board": LATE_5X5[1]}), 429, "engine_rate_limited")
    assert client_for(None).post(URL, {"board": LATE_5X5[1]}).status_code == 200  # anonymous: its own count


def test_a_review_past_the_rate_is_429_and_its_lines_count_once(as_alice, finished_game, settings):
    settings.ENGINE_RATE_USER = "1/min"
    url = f"/api/games/{finished_game.pk}/review/"
    assert as_alice.get(url).status_code == 200  # the review and its lines: one request, one count
    assert as_alice.get(url).status_code == 200  # kept: no search
    other = engine.Board.from_string(LATE_5X5[1])
    assert_error(as_alice.post(URL, {"board": str(other)}), 429, "engine_rate_limited")


def test_with_every_slot_taken_the_api_answers_503_at_once(anon, settings, monkeypatch):
    settings.ENGINE_SLOTS = 1
    inside, release = threading.Event(), threading.Event()
    real = engine.analyse

    def slow(board, budget=None):
        inside.set()
        release.wait(10)
        return real(board, budget=budget)

    monkeypatch.setattr(engine, "analyse", slow)
    holder = threading.Thread(
        target=engine_budget.search, args=(engine_jobs.analysis, LATE_5X5[1], 1.0), kwargs={"budget": 1.0}
    )
    holder.start()
    try:
        assert inside.wait(10)
        response = anon.post(URL, {"board": LATE_5X5[0]})
    finally:
        release.set()
        holder.join()
    body = assert_error(response, 503, "engine_busy")
    assert body["message"] == "The engine is busy with other searches; try again in a moment."
    assert int(response["Retry-After"]) >= 1
    assert anon.post(URL, {"board": LATE_5X5[0]}).status_code == 200  # the slot is free again


def test_in_production_the_search_runs_in_a_process_of_its_own(anon, settings, monkeypatch):
    expected = engine.analyse(engine.Board.from_string(LATE_5X5[0]))

    def not_here(board, budget=None):
        raise AssertionError("the server's own process must not search")

    monkeypatch.setattr(engine, "analyse", not_here)
    settings.ENGINE_PROCESSES = True
    try:
        response = anon.post(URL, {"board": LATE_5X5[0]})
    finally:
        engine_budget.shut_down()
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["exact"] is True
    assert {int(c): v["outcome"] for c, v in answer["cells"].items()} == {c: e.outcome for c, e in expected.items()}
