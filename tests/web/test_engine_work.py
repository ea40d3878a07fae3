"""Engine work on the pages (games/engine_work/): what is answered at once is
free, searches are charged in seconds to the visitor and their address, and
with the engine's pool on, a page never waits for a search: it says the engine
is working and gets the answer when it asks again."""

import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.engine_work import budget as engine_budget
from games.play.models import Game, Move

pytestmark = pytest.mark.django_db

ANALYSIS = reverse("games:analysis")
#: 12 marks on 5x5, X (the guest) to move (as in test_play.py).
LATE_5X5 = [13, 21, 5, 19, 6, 15, 1, 18, 11, 16, 17, 23]
#: Early 5x5 positions: each takes seconds to search without the tablebase and the core.
SLOW_5X5 = ["X.......................O", "......X.....O.X.....O....", ".X.....................O."]


def _ai_game_at(client, cells, seed: int) -> Game:
    data = {"variant": "5x5", "side": "X", "level": "easy", "start_mode": "minimax"}
    response = client.post(reverse("games:new"), data)
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create(Move(game=game, ply=ply, cell=cell) for ply, cell in enumerate(cells))
    Game.objects.filter(pk=game.pk).update(move_count=len(cells), seed=seed)
    return Game.objects.get(pk=game.pk)


def _hint(html: str) -> str:
    found = re.search(r'<p class="hint[^"]*" role="status">(.*?)</p>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


def _4x4(first: int) -> dict:
    return {"board": "." * 16, "moves": str(first)}


# -- free ---------------------------------------------------------------------------------


def test_3x3_positions_cost_nothing_even_with_no_budget_left(client, settings):
    settings.ENGINE_SECONDS_GUEST = settings.ENGINE_SECONDS_ADDRESS = "0/min"
    for moves in ("", "4", "4,0", "4,0,8", "0", "0,4", "1", "2,4,6"):
        assert client.get(ANALYSIS, {"moves": moves}).status_code == 200
    assert client.get(ANALYSIS, _4x4(5)).status_code == 429


def test_a_position_analysed_before_costs_nothing(client, settings):
    Client().get(ANALYSIS, _4x4(5))  # another visitor asked first
    settings.ENGINE_SECONDS_GUEST = "0/min"
    assert client.get(ANALYSIS, _4x4(5)).status_code == 200
    assert client.get(ANALYSIS, _4x4(6)).status_code == 429


# -- seconds, per visitor and per address -----------------------------------------------------


def test_a_visitor_is_charged_the_seconds_the_engine_searched(client, settings, charged_searches):
    settings.ENGINE_SECONDS_GUEST = "1/hour"
    assert client.get(ANALYSIS, _4x4(0)).status_code == 200  # 0.6 s spent
    assert client.get(ANALYSIS, _4x4(1)).status_code == 200  # 1.2 s spent: past the budget
    response = client.get(ANALYSIS, _4x4(2))
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 3600
    html = response.content.decode()
    assert 'class="site-header"' in html  # the site's own page, not a bare error
    assert f"The engine has searched 1 second for you in the last hour; try again in {wait} second" in html
    # The page states the budgets in force.
    assert "for each visitor for up to 1 second per hour (100000 seconds per minute once signed in)" in html
    assert len(charged_searches) == 2


def test_each_visitor_has_a_budget_of_their_own_on_one_address(settings, charged_searches):
    settings.ENGINE_SECONDS_GUEST = "0.5/hour"
    first, second = Client(), Client()
    assert first.get(ANALYSIS, _4x4(0)).status_code == 200
    assert first.get(ANALYSIS, _4x4(1)).status_code == 429
    # Another guest behind the same address still has theirs.
    assert second.get(ANALYSIS, _4x4(2)).status_code == 200
    assert second.get(ANALYSIS, _4x4(3)).status_code == 429


def test_signed_in_players_have_a_budget_too(client_logged_in, settings, charged_searches):
    settings.ENGINE_SECONDS_USER = "0.5/hour"
    assert client_logged_in.get(ANALYSIS, _4x4(0)).status_code == 200
    response = client_logged_in.get(ANALYSIS, _4x4(1))
    assert response.status_code == 429
    assert "Log in" not in response.content.decode().split("<main", 1)[1]


def test_an_address_has_a_ceiling_that_new_sessions_and_forged_headers_do_not_dodge(settings, charged_searches):
    settings.ENGINE_SECONDS_ADDRESS = "1/hour"
    answers = [
        Client(REMOTE_ADDR="198.51.100.7").get(ANALYSIS, _4x4(n), HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        for n in range(3)
    ]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert "The engine has searched 1 second for your network" in answers[2].content.decode()
    # Another address is not held back.
    assert Client(REMOTE_ADDR="198.51.100.8").get(ANALYSIS, _4x4(3)).status_code == 200


def test_a_hint_past_the_budget_leaves_the_game_page_whole_and_says_why(client, settings, charged_searches):
    settings.ENGINE_SECONDS_GUEST = "0.5/hour"
    games = [_ai_game_at(client, LATE_5X5, seed=n) for n in (10, 11)]
    assert _hint(client.get(games[0].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")
    response = client.get(games[1].get_absolute_url(), {"hint": "1"})
    html = response.content.decode()
    assert response.status_code == 200  # the page itself is served: only the search is refused
    assert "cell--hint" not in html and 'class="board' in html
    assert re.match(r"No hint this time: the engine has searched 0.5 seconds for you in the last hour; "
                    r"try again in \d+ seconds\.", _hint(html))  # fmt: skip
    # A hint already found is still given: it costs nothing.
    assert _hint(client.get(games[0].get_absolute_url(), {"hint": "1"}).content.decode()).startswith("Recommended")


def test_a_class_of_forty_behind_one_address_is_never_refused(settings):
    """40 guests on one address, each asking 30 positions a minute on the
    analysis board (3x3, 4x4 and 5x5 from the opening book), with the budgets
    a site runs with."""
    settings.ENGINE_SECONDS_GUEST = engine_budget.DEFAULT_SECONDS_GUEST
    settings.ENGINE_SECONDS_ADDRESS = engine_budget.DEFAULT_SECONDS_ADDRESS
    exercises = (
        [{"moves": ",".join(map(str, m))} for m in ((), (4,), (4, 0), (0, 4), (0, 4, 8), (1,), (1, 4), (2, 4, 6))]
        + [_4x4(cell) for cell in (0, 1, 5, 6)]
        + [{"board": "." * 16, "moves": f"{a},{b}"} for a, b in ((5, 6), (0, 15), (5, 10))]
        + [{"board": "." * 25, "moves": moves} for moves in ("", "12", "12,6", "12,7", "6")]
    )
    students = [Client(REMOTE_ADDR="192.0.2.40") for _ in range(40)]
    statuses = set()
    for turn in range(30):
        for number, student in enumerate(students):
            statuses.add(student.get(ANALYSIS, exercises[(number + 7 * turn) % len(exercises)]).status_code)
    assert statuses == {200}


# -- the pool: a page never waits ----------------------------------------------------------------


def _until_answered(get, seconds: float = 30.0):
    """Ask again, as the page does, until the engine's answer is there."""
    deadline = time.monotonic() + seconds
    while True:
        response = get()
        if response.status_code != 202 or time.monotonic() > deadline:
            return response
        time.sleep(0.2)


def test_a_slow_position_gets_a_working_page_at_once_then_its_analysis(client, slow_engine_processes):
    started = time.monotonic()
    response = client.get(ANALYSIS, {"board": SLOW_5X5[0]})
    assert time.monotonic() - started < 1.0
    assert response.status_code == 202
    assert response["Retry-After"] == "1"
    html = response.content.decode()
    assert "The engine is working on this position" in html
    assert '<meta http-equiv="refresh" content="1">' in html  # asks again without JavaScript
    answered = _until_answered(lambda: client.get(ANALYSIS, {"board": SLOW_5X5[0]}))
    assert answered.status_code == 200
    assert "analysis__board" in answered.content.decode() or 'class="board' in answered.content.decode()


def test_a_visitor_gets_two_searches_at_once_and_busy_beyond(client, slow_engine_processes):
    answers = [client.get(ANALYSIS, {"board": position}) for position in SLOW_5X5]
    assert [answer.status_code for answer in answers] == [202, 202, 503]
    assert "The engine is already searching 2 positions for you" in answers[2].content.decode()
    # Asking again for one under way is not another search.
    assert client.get(ANALYSIS, {"board": SLOW_5X5[0]}).status_code == 202
    # Another visitor is served.
    assert Client().get(ANALYSIS, {"board": "X..............O"}).status_code in (200, 202)


def test_a_full_queue_is_busy_at_once_and_the_page_asks_again_by_itself(settings, slow_engine_processes):
    settings.ENGINE_QUEUE = 1
    assert Client().get(ANALYSIS, {"board": SLOW_5X5[0]}).status_code == 202
    started = time.monotonic()
    response = Client().get(ANALYSIS, {"board": SLOW_5X5[1]})
    assert time.monotonic() - started < 1.0
    assert response.status_code == 503
    wait = int(response["Retry-After"])
    assert wait >= 1
    html = response.content.decode()
    assert "The engine is busy with other searches" in html
    assert f'<meta http-equiv="refresh" content="{wait}">' in html
    assert f"This page tries again by itself in {wait} seconds." in html


def test_a_hint_on_a_game_page_says_working_then_comes(client, engine_processes):
    game = _ai_game_at(client, LATE_5X5, seed=3)
    response = client.get(game.get_absolute_url(), {"hint": "1"})
    html = response.content.decode()
    assert response.status_code == 200
    assert _hint(html) == "The engine is working on a hint…"
    assert f'data-ask-again="{game.get_absolute_url()}?hint=1"' in html  # game.js asks again
    assert '<noscript><meta http-equiv="refresh" content="1"></noscript>' in html  # a reload without it
    answered = _until_answered(lambda: client.get(game.get_absolute_url(), {"hint": "1"}))
    html = answered.content.decode()
    for _ in range(100):
        if "working" not in _hint(html):
            break
        time.sleep(0.2)
        html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert _hint(html).startswith("Recommended: row")
    assert "data-ask-again" not in html


def test_the_search_tree_is_searched_by_the_pool_and_kept(client, engine_processes):
    url = reverse("games:tree") + "?board=.........&algorithm=alphabeta"
    assert client.get(url).status_code == 202
    answered = _until_answered(lambda: client.get(url))
    assert answered.status_code == 200
    assert "X plays cell" in answered.content.decode()
    assert client.get(url).status_code == 200  # kept: no search the second time
