"""The engine for anyone: every empty cell's value, the best cells and the work done."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from games import engine
from tests.api.conftest import assert_error
from tests.engine import reference

pytestmark = pytest.mark.django_db

URL = "/api/analyse/"
STATS_KEYS = {
    "nodes", "seconds", "depth", "textbook_nodes", "textbook_nodes_exact", "minimax_nodes", "minimax_nodes_exact",
}  # fmt: skip
#: Late 5x5 positions (15 marks, O to move): solved at once, and small enough
#: for a plain minimax's tree to be counted exactly.
LATE_5X5 = [".X..OO..OOO.X.X.OXXXXX.O.", ".X.X.OXOO.OO.XX.XOXO...X."]
#: Six marks on 5x5: every move leads past the tablebase, to a search.
PAST_THE_TABLE = "X.O.X.O.X.O.............."


def test_anyone_may_ask_and_gets_every_empty_cell(anon):
    response = anon.post(URL, {"board": "X...O...."})
    assert response.status_code == 200
    analysis = response.json()
    assert (analysis["board"], analysis["to_move"], analysis["exact"]) == ("X...O....", "X", True)
    assert sorted(analysis["cells"], key=int) == ["1", "2", "3", "5", "6", "7", "8"]
    assert analysis["cells"]["8"] == {"outcome": "draw", "plies": 7, "exact": True}
    assert analysis["best_cells"] == [1, 2, 3, 5, 6, 7, 8]
    stats = analysis["stats"]
    assert set(stats) == STATS_KEYS
    assert stats["textbook_nodes_exact"] is True and stats["minimax_nodes_exact"] is True
    assert stats["nodes"] < stats["textbook_nodes"] < stats["minimax_nodes"]


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


@pytest.mark.parametrize("board", LATE_5X5)
def test_on_5x5_every_cell_is_solved_exactly_and_told_in_words(anon, board):
    analysis = anon.post(URL, {"board": board}).json()
    assert analysis["exact"] is True and analysis["to_move"] == "O"
    cells = analysis["cells"]
    # Every cell as the independent referee's full minimax has it.
    values = reference.move_values(board)
    assert {int(cell): evaluation for cell, evaluation in cells.items()} == {
        cell: dict(zip(("outcome", "plies"), reference.describe(score, board), strict=True), exact=True)
        for cell, score in values.items()
    }  # words and a distance, no raw search score
    assert analysis["best_cells"] == sorted(cell for cell, score in values.items() if score == max(values.values()))
    stats = analysis["stats"]
    assert set(stats) == STATS_KEYS
    assert stats["textbook_nodes_exact"] is True and stats["minimax_nodes_exact"] is True
    assert stats["textbook_nodes"] <= stats["minimax_nodes"]


def test_a_cell_not_solved_in_time_says_so_and_nothing_else(anon, monkeypatch):
    monkeypatch.setattr("games.api.views.ANALYSE_BUDGET", 0.0)  # no time at all (an overloaded machine)
    analysis = anon.post(URL, {"board": PAST_THE_TABLE}).json()
    assert analysis["exact"] is False
    outcomes = {e["outcome"] for e in analysis["cells"].values()}
    assert "unsolved" in outcomes and outcomes <= {"win", "draw", "loss", "unsolved"}
    unsolved = [e for e in analysis["cells"].values() if e["outcome"] == "unsolved"]
    assert all(e == {"outcome": "unsolved", "plies": None, "exact": False} for e in unsolved)
    assert not set(analysis["best_cells"]) & {int(c) for c, e in analysis["cells"].items() if e in unsolved}


def test_the_schema_promises_exact_outcomes_in_words_within_three_seconds():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    description = schema["paths"]["/api/analyse/"]["post"]["description"]
    assert "Exact on every board" in description and "3 seconds" in description
    assert "estimate" not in description
    components = schema["components"]["schemas"]
    assert set(components["Evaluation"]["properties"]) == {"outcome", "plies", "exact"}
    assert components["OutcomeEnum"]["enum"] == ["win", "draw", "loss", "unsolved"]
    assert set(components["SearchStats"]["properties"]) == STATS_KEYS
    assert components["LabelEnum"]["enum"] == ["best", "inaccuracy", "mistake", "blunder", "unsolved"]


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


def _end_of(board: str, cells: list[int]) -> str:
    for cell in cells:
        board = reference.play(board, cell)
    return board


@pytest.mark.parametrize("board", ["X...O....", "XX.OO....", "X.O.X...O......."])
def test_the_line_of_best_play_comes_with_the_analysis_and_ends_as_the_position_is_worth(anon, board):
    analysis = anon.post(URL, {"board": board}).json()
    line = analysis["line"]
    assert set(line) == {"cells", "complete"} and line["complete"] is True
    assert line["cells"] == list(engine.principal_variation(engine.Board.from_string(board)).cells)
    assert line["cells"][0] in analysis["best_cells"]
    # Played out, it ends the game as perfect play does: the best cell's outcome, after its plies.
    best = analysis["cells"][str(line["cells"][0])]
    end = _end_of(board, line["cells"])
    assert reference.is_over(end) and len(line["cells"]) == best["plies"]
    mover = analysis["to_move"]
    assert reference.winner(end) == {"win": mover, "loss": engine.other_side(mover), "draw": None}[best["outcome"]]


@pytest.mark.parametrize("board", ["XXXOO....", "XOXXOOOXX"])
def test_a_finished_position_has_an_empty_line(anon, board):
    assert anon.post(URL, {"board": board}).json()["line"] == {"cells": [], "complete": True}


def test_a_line_cut_short_says_so_and_holds_only_proven_moves(anon, monkeypatch):
    monkeypatch.setattr("games.api.views.ANALYSE_BUDGET", 0.0)
    monkeypatch.setattr("games.api.views.LINE_BUDGET", 0.0)
    line = anon.post(URL, {"board": PAST_THE_TABLE}).json()["line"]
    assert line["complete"] is False
    assert not reference.is_over(_end_of(PAST_THE_TABLE, line["cells"]))


def test_the_schema_documents_the_line():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert set(components["Line"]["properties"]) == {"cells", "complete"}
    assert "line" in components["Analysis"]["required"]
    assert "`line` is the line of best play" in schema["paths"]["/api/analyse/"]["post"]["description"]


def test_on_the_empty_board_traps_tell_the_drawn_first_moves_apart(anon):
    analysis = anon.post(URL, {"board": "........."}).json()
    assert {e["outcome"] for e in analysis["cells"].values()} == {"draw"}
    # By the independent referee: the replies of O's that lose after each first move.
    expected = {
        str(cell): sum(1 for score in reference.move_values(reference.play("." * 9, cell)).values() if score < 0)
        for cell in range(9)
    }
    assert analysis["traps"] == expected
    assert (analysis["traps"]["0"], analysis["traps"]["4"], analysis["traps"]["1"]) == (7, 4, 4)
