"""The engine budget on the pages (games/serving/engine_budget.py): a hint asked
again costs no search, a client past its searches a minute gets the page
without the engine's view and a message saying why, and with every search
slot taken the page says the engine is busy instead of waiting for it."""

import re
import threading

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.play.models import Game, Move
from games.serving import engine_budget, engine_jobs

pytestmark = pytest.mark.django_db

#: 12 marks on 5x5, X (the guest) to move (as in test_play.py).
LATE_5X5 = [13, 21, 5, 19, 6, 15, 1, 18, 11, 16, 17, 23]


def _ai_game_at(client, cells, seed: int) -> Game:
    data = {"variant": "5x5", "side": "X", "level": "easy", "start_mode": "minimax"}
    response = client.post(reverse("games:new"), data)
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create(Move(game=game, ply=ply, cell=cell) for ply, cell in enumerate(cells))
    Game.objects.filter(pk=game.pk).update(move_count=len(cells), seed=seed)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def searches(monkeypatch):
    """Every search the engine starts for a position, counted."""
    calls = []
    real = engine.analyse

    def counted(board, budget=None):
        calls.append(str(board))
        return real(board, budget=budget)

    monkeypatch.setattr(engine, "analyse", counted)
    return calls


def _hint(html: str) -> str:
    found = re.search(r'<p class="hint[^"]*" role="status">(.*?)</p>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


def test_a_hint_asked_again_is_not_searched_again(client, searches):
    game = _ai_game_at(client, LATE_5X5, seed=1)
    first = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    again = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert _hint(first).startswith("Recommended: row")
    assert _hint(again) == _hint(first)
    assert len(searches) == 1


def test_a_guest_past_the_engine_rate_gets_the_page_without_the_hint(client, settings, searches):
    settings.ENGINE_RATE_ANON = "2/min"
    # One position, three games: a hint's tie-break follows the game's seed, so each is a search of its own.
    games = [_ai_game_at(client, LATE_5X5, seed=n) for n in (10, 11, 12)]
    for game in games[:2]:
        assert _hint(client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")
    response = client.get(games[2].get_absolute_url(), {"hint": "1"})
    html = response.content.decode()
    assert response.status_code == 200  # the page itself is served: only the search is refused
    assert "cell--hint" not in html and 'class="board' in html
    assert re.match(r"No hint this time: the engine has searched 2 positions for you in the last minute; "
                    r"try again in \d+ seconds\.", _hint(html))  # fmt: skip
    assert len(searches) == 2
    # A hint already found is still given: it costs no search.
    assert _hint(client.get(games[0].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")


def test_each_client_has_its_own_count(client, user, settings, searches):
    settings.ENGINE_RATE_ANON = settings.ENGINE_RATE_USER = "1/min"
    games = [_ai_game_at(client, LATE_5X5, seed=n) for n in (1, 2, 3, 4)]
    assert _hint(client.get(games[0].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")
    assert _hint(client.get(games[1].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("No hint")
    # Another address, and a signed-in player, each have a budget of their own.
    other = Client(REMOTE_ADDR="10.0.0.9").get(games[2].get_absolute_url(), {"hint": "1"}).content.decode()
    assert _hint(other).startswith("Recommended")
    signed_in = Client()
    signed_in.force_login(user)
    assert _hint(signed_in.get(games[3].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")
    assert len(searches) == 3


def _holding_every_slot(monkeypatch):
    """Start a search that holds the server's one slot until released."""
    inside, release = threading.Event(), threading.Event()
    real = engine.analyse

    def slow(board, budget=None):
        inside.set()
        release.wait(10)
        return real(board, budget=budget)

    monkeypatch.setattr(engine, "analyse", slow)
    board = engine.Board.from_moves(LATE_5X5[:4], size=5)
    holder = threading.Thread(
        target=engine_budget.search, args=(engine_jobs.analysis, str(board), 1.0), kwargs={"budget": 1.0}
    )
    holder.start()
    assert inside.wait(10)
    return release, holder


def test_with_every_slot_taken_the_page_says_busy_at_once(client, settings, monkeypatch):
    settings.ENGINE_SLOTS = 1
    game = _ai_game_at(client, LATE_5X5, seed=1)
    release, holder = _holding_every_slot(monkeypatch)
    try:
        response = client.get(game.get_absolute_url(), {"hint": "1"})
    finally:
        release.set()
        holder.join()
    assert response.status_code == 200
    assert _hint(response.content.decode()) == (
        "No hint this time: the engine is busy with other searches; try again in a moment."
    )
    # With the slot free again, the hint is searched.
    assert _hint(client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")


def test_the_analysis_board_past_the_engine_rate_is_a_429_page(client, settings, searches):
    settings.ENGINE_RATE_ANON = "1/min"
    url = reverse("games:analysis")
    assert client.get(url, {"board": "." * 16, "moves": "5"}).status_code == 200
    response = client.get(url, {"board": "." * 16, "moves": "6"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "The engine has searched 1 positions for you in the last minute" in response.content.decode()
    assert len(searches) == 1
