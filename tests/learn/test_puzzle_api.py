"""Puzzles in the API: the same puzzles, today's, and checking an answer,
which stores nothing. Open to anyone, like the pages."""

import pytest

from games.learn.models import Puzzle
from tests.api.conftest import assert_error, client_for, stored
from tests.learn.test_puzzle_pages import FIVE, FORK, FORK_4X4, O_FORK

pytestmark = pytest.mark.django_db


@pytest.fixture
def anon():
    return client_for(None)


@pytest.fixture
def puzzles():
    return [Puzzle.objects.create(**data) for data in (FORK, O_FORK, FIVE, FORK_4X4)]


def attempt(pk, played, client=None):
    return (client or client_for()).post(f"/api/puzzles/{pk}/attempt/", {"played": played}, format="json")


def test_the_puzzles_by_board_without_their_answers(anon, puzzles):
    response = anon.get("/api/puzzles/", {"variant": "3x3"})

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    first = body["results"][0]
    assert first == {
        "id": puzzles[0].pk,
        "url": f"http://testserver/puzzles/{puzzles[0].pk}/",
        "variant": "3x3",
        "board": "OO..X...X",
        "to_move": "X",
        "theme": "fork",
        "goal": "win",
        "task": "win with your second move",
        "win_in": 3,
        "game": None,
        "created_at": first["created_at"],
    }
    assert [p["board"] for p in body["results"]] == ["OO..X...X", "OXX.X..O.", ".X......O"]


def test_every_board_3x3_first(anon, puzzles):
    body = anon.get("/api/puzzles/").json()

    assert [p["variant"] for p in body["results"]] == ["3x3", "3x3", "3x3", "4x4"]


def test_an_unknown_board_is_a_400(anon):
    body = assert_error(anon.get("/api/puzzles/", {"variant": "6x6"}), 400, "invalid_variant")

    assert list(body["fields"]) == ["variant"]


def test_todays_puzzle_is_the_home_pages(anon, puzzles, client):
    body = anon.get("/api/puzzles/daily/").json()

    assert f'href="/puzzles/{body["id"]}/">Solve today' in client.get("/").content.decode()


def test_no_daily_puzzle_without_puzzles_is_a_404(anon):
    assert_error(anon.get("/api/puzzles/daily/"), 404, "not_found")


def test_one_puzzle_and_a_missing_one(anon, puzzles):
    assert anon.get(f"/api/puzzles/{puzzles[3].pk}/").json()["board"] == ".O...XX..OOXO..X"
    body = assert_error(anon.get("/api/puzzles/999999/"), 404, "not_found")
    assert body["message"] == "There is no such puzzle."


def test_solving_through_the_api(puzzles):
    pk = puzzles[0].pk

    body = attempt(pk, [2]).json()

    assert body["status"] == "solving"
    assert body["board"] == "OOX.XO..X"
    assert body["moves"] == [2, 5]
    assert body["message"] == "That wins: O's best reply is cell 5. Your move."
    assert body["solution"] is None  # not before the end
    assert body["steps"] == [
        {
            "cell": 2,
            "side": "X",
            "verdict": "wins",
            "evaluation": {"outcome": "win", "plies": 3, "exact": True},
            "reply": 5,
            "winning_cells": [2],
            "message": "That wins: O's best reply is cell 5. Your move.",
        }
    ]

    body = attempt(pk, [2, 6]).json()

    assert (body["status"], body["message"], body["solution"]) == (
        "solved",
        "That wins: three in a row. Solved!",
        [2, 5, 6],
    )
    assert body["steps"][1]["verdict"] == "solved" and body["steps"][1]["reply"] is None


def test_a_miss_gives_the_answer(puzzles):
    body = attempt(puzzles[2].pk, [4]).json()

    assert body["status"] == "failed"
    assert body["steps"][0]["verdict"] == "draws"
    assert body["steps"][0]["evaluation"] == {"outcome": "draw", "plies": 7, "exact": True}
    assert body["message"] == "That lets O draw: the only winning move was cell 2."
    assert body["solution"] == [2, 0, 4, 3, 6]


def test_nothing_played_is_the_start(puzzles):
    body = attempt(puzzles[0].pk, []).json()

    assert (body["status"], body["board"], body["steps"], body["message"]) == ("solving", "OO..X...X", [], "")


@pytest.mark.parametrize(
    "played, message",
    [
        ([0], 'played: cell 0 is taken in "OO..X...X"'),
        ([9], "played: 9 is not a cell of the 3x3 board (0 to 8)"),
        ([7, 2], "played: the puzzle was over after move 1; cell 2 cannot follow"),
    ],
)
def test_moves_that_cannot_be_an_answer_are_a_400_naming_played(puzzles, played, message):
    before = stored()

    body = assert_error(attempt(puzzles[0].pk, played), 400, "invalid")

    assert body["message"] == message and list(body["fields"]) == ["played"]
    assert stored() == before


@pytest.mark.parametrize(
    "body", [{}, {"played": "2"}, {"played": [2.5]}, {"played": ["2"]}, {"played": [-1]}, {"played": [25]}]
)
def test_malformed_moves_are_a_400(puzzles, body):
    assert_error(client_for().post(f"/api/puzzles/{puzzles[0].pk}/attempt/", body, format="json"), 400, "invalid")


def test_too_many_moves_are_a_400(puzzles):
    assert_error(attempt(puzzles[0].pk, [2] * 14), 400, "invalid")


def test_an_attempt_on_a_missing_puzzle_is_a_404():
    assert_error(attempt(999999, [2]), 404, "not_found")


def test_an_attempt_stores_nothing(puzzles, user):
    before = (stored(), list(Puzzle.objects.values()))

    attempt(puzzles[0].pk, [2, 6], client_for(user))
    attempt(puzzles[0].pk, [7])

    assert (stored(), list(Puzzle.objects.values())) == before
