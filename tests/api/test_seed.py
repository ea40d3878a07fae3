"""A seed on a new game against the AI makes its choices among equal moves repeatable."""

from __future__ import annotations

from games.play.models import Game
from tests.api.conftest import assert_error, stored


def _play(client, seed, human_moves):
    game = client.post("/api/games/", {"level": "perfect", "side": "O", "seed": seed}, format="json").json()
    for cell in human_moves:
        if cell in game["moves"] or game["status"] != "in_progress":
            break
        game = client.post(f"/api/games/{game['id']}/moves/", {"cell": cell, "ply": game["ply"]}, format="json")
        game = game.json()
    return game["moves"]


def test_the_same_seed_and_moves_get_the_same_replies(as_alice):
    first = _play(as_alice, 5, [0, 1, 2, 3, 5, 7, 8])
    second = _play(as_alice, 5, [0, 1, 2, 3, 5, 7, 8])
    assert len(first) >= 2 and first == second
    assert set(Game.objects.values_list("seed", flat=True)) == {5}


def test_different_seeds_may_open_differently(as_alice):
    assert _play(as_alice, 0, [])[0] != _play(as_alice, 1, [])[0]


def test_a_seed_must_be_a_whole_number_in_range(as_alice):
    before = stored()
    for seed in (-1, 2**31, "7", 1.5):
        body = assert_error(as_alice.post("/api/games/", {"seed": seed}, format="json"), 400, "invalid")
        assert list(body["fields"]) == ["seed"]
    assert stored() == before
