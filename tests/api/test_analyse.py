"""The engine for anyone: every empty cell's value, the best cells and the work done."""

import pytest
from rest_framework.settings import api_settings

from games import engine
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

URL = "/api/analyse/"


def test_anyone_may_ask_and_gets_every_empty_cell(anon):
    response = anon.post(URL, {"board": "X...O...."})
    assert response.status_code == 200
    analysis = response.json()
    assert (analysis["board"], analysis["to_move"], analysis["exact"]) == ("X...O....", "X", True)
    assert sorted(analysis["cells"], key=int) == ["1", "2", "3", "5", "6", "7", "8"]
    assert analysis["cells"]["8"] == {"outcome": "draw", "plies": 7, "exact": True, "score": 0}
    assert analysis["best_cells"] == [1, 2, 3, 5, 6, 7, 8]
    stats = analysis["stats"]
    assert set(stats) == {"nodes", "nodes_without_pruning", "nodes_without_pruning_exact", "seconds", "depth"}
    assert stats["nodes"] < stats["nodes_without_pruning"] and stats["nodes_without_pruning_exact"] is True


def test_a_win_in_one_is_the_best_cell(as_alice):
    analysis = as_alice.post(URL, {"board": "XX.OO...."}).json()
    assert analysis["best_cells"] == [2]
    win = analysis["cells"]["2"]
    assert (win["outcome"], win["plies"], win["exact"]) == ("win", 1, True)
    assert analysis["cells"]["8"]["outcome"] == "loss"


def test_it_agrees_with_the_engine(anon):
    board = "X.O.X...O......."
    expected = engine.analyse(engine.Board.from_string(board))
    analysis = anon.post(URL, {"board": board}).json()
    assert analysis["best_cells"] == expected.best_cells
    assert {int(c): e["outcome"] for c, e in analysis["cells"].items()} == {c: e.outcome for c, e in expected.items()}


def test_on_5x5_it_estimates_within_its_budget(anon):
    analysis = anon.post(URL, {"board": "." * 12 + "X" + "." * 12}).json()
    assert analysis["exact"] is False and analysis["to_move"] == "O"
    assert len(analysis["cells"]) == 24
    assert analysis["stats"]["seconds"] < 1.0
    assert {e["outcome"] for e in analysis["cells"].values()} <= {"unclear", "win", "loss", "draw"}


@pytest.mark.parametrize("board", ["XXXOO....", "XOXXOOOXX"])
def test_a_finished_position_has_nothing_to_evaluate(anon, board):
    analysis = anon.post(URL, {"board": board}).json()
    assert (analysis["cells"], analysis["best_cells"], analysis["to_move"]) == ({}, [], None)


@pytest.mark.parametrize(
    "board",
    [
        "X...O...",  # eight cells
        "X...O...Z",  # not a mark
        "OO.......",  # O first
        "XXXOOOX..",  # both have a line
        "x...o....",  # lower case
    ],
)
def test_an_impossible_position_is_a_400_saying_why(anon, board):
    try:
        engine.Board.from_string(board)
    except engine.InvalidPositionError as error:
        reason = str(error)
    body = assert_error(anon.post(URL, {"board": board}), 400, "invalid")
    assert body["fields"]["board"] == [reason]
    assert reason in body["message"]


@pytest.mark.parametrize("data", [{}, {"board": ""}, {"board": None}, {"board": "." * 26}, {"board": ["X"]}])
def test_a_missing_or_malformed_board_is_a_400(anon, data):
    body = assert_error(anon.post(URL, data), 400, "invalid")
    assert list(body["fields"]) == ["board"]


def test_it_has_a_tighter_rate_limit_of_its_own(anon, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**api_settings.DEFAULT_THROTTLE_RATES, "analyse": "2/min"},
    }
    for _ in range(2):
        assert anon.post(URL, {"board": "........."}).status_code == 200
    response = anon.post(URL, {"board": "........."})
    assert_error(response, 429, "throttled")
    assert 0 < int(response["Retry-After"]) <= 60
    # Only analysis is spent: the rest of the API still answers.
    assert anon.get("/api/games/").status_code == 401
