"""GET /api/games/{id}/review/ gives, beside each move's label, the better
moves and the line of best play after one of them: additions only, the
fields a program already reads are unchanged."""

import pytest
from rest_framework.test import APIClient

from games import engine
from games.accounts.services import api_token_create
from tests import factories
from tests.engine import reference

pytestmark = pytest.mark.django_db

O_BLUNDERS = [0, 1, 4, 8, 3, 5, 6]
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]
#: What a reviewed move had before reviews taught: a program reading these keeps working.
OLD_KEYS = {"ply", "player", "cell", "label", "played", "best", "best_cells"}


@pytest.fixture
def as_carol(carol):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=carol)}")
    return client


def _position(cells, size=3) -> str:
    position = "." * size * size
    for cell in cells:
        position = reference.play(position, cell)
    return position


def _assert_best_play(position: str, line: list[int]) -> str:
    """Each cell of ``line`` is a best move by the referee, and the line ends the game."""
    for cell in line:
        values = reference.move_values(position)
        assert values[cell] == max(values.values()), (position, cell)
        position = reference.play(position, cell)
    assert reference.is_over(position)
    return position


def test_each_move_gains_its_better_cells_and_the_line_after_the_better_move(as_carol, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    body = as_carol.get(f"/api/games/{game.pk}/review/").json()

    assert set(body) == {"game", "exact", "decisive_ply", "moves"}
    for move in body["moves"]:
        assert set(move) == OLD_KEYS | {"better_cells", "better_move"}
        if move["label"] == "best":
            assert move["better_cells"] == [] and move["better_move"] is None
    blunder = body["moves"][1]
    assert (blunder["label"], blunder["cell"], blunder["best_cells"]) == ("blunder", 1, [4])
    assert blunder["better_cells"] == [4]
    assert blunder["better_move"]["cell"] == 4 and blunder["better_move"]["line_complete"] is True
    line = blunder["better_move"]["line"]
    end = _assert_best_play(reference.play(_position(O_BLUNDERS[:1]), 4), line)
    assert reference.winner(end) is None  # the centre would have drawn


def test_a_4x4_review_gives_a_line_for_every_move_but_the_best(as_carol, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    body = as_carol.get(f"/api/games/{game.pk}/review/").json()
    taught = [move for move in body["moves"] if move["label"] != "best"]
    assert {move["label"] for move in taught} == {"inaccuracy", "mistake", "blunder"}
    for move in taught:
        assert move["better_cells"] == move["best_cells"] and move["cell"] not in move["better_cells"]
        better = move["better_move"]
        assert better["cell"] == move["best_cells"][0] and better["line_complete"] is True
        position = reference.play(_position(EVERY_LABEL_4X4[: move["ply"]], 4), better["cell"])
        _assert_best_play(position, better["line"])


def test_a_line_the_engine_could_not_finish_in_time_says_so(as_carol, user, bob, reviewed, monkeypatch):
    game = factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4")
    real = engine.principal_variation
    # As the engine answers when its budget runs out: the moves proven so far.
    monkeypatch.setattr(
        engine, "principal_variation", lambda board, budget=None: engine.Line(real(board).cells[:1], complete=False)
    )
    reviewed(game)
    body = as_carol.get(f"/api/games/{game.pk}/review/").json()
    for move in body["moves"]:
        if move["label"] != "best":
            assert move["better_move"]["line_complete"] is False and len(move["better_move"]["line"]) == 1


def test_the_review_is_read_without_a_search(as_carol, user, bob, reviewed, engine_searches):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    engine_searches.clear()
    response = as_carol.get(f"/api/games/{game.pk}/review/")
    assert response.status_code == 200 and len(response.json()["moves"]) == len(EVERY_LABEL_4X4)
    assert engine_searches == []


def test_a_review_not_prepared_yet_is_202_review_pending_with_retry_after(as_carol, user, bob, engine_searches):
    game = factories.human_game(user, bob, O_BLUNDERS)
    response = as_carol.get(f"/api/games/{game.pk}/review/")
    assert response.status_code == 202
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == "review_pending"
    assert body["message"] == "The review of this game is being prepared: ask again in a moment."
    assert 1 <= int(response["Retry-After"]) <= 10
    assert engine_searches == []
