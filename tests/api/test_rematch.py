"""Rematches through the API: at once against the AI, offered between people."""

import pytest

from tests import factories
from tests.api.conftest import assert_error, stored

pytestmark = pytest.mark.django_db


def test_after_a_game_against_the_ai_a_rematch_starts_at_once_with_the_sides_swapped(as_alice, alice):
    game = factories.ai_game(alice, level="easy")
    response = as_alice.post(f"/api/games/{game.pk}/rematch/")
    assert response.status_code == 201
    new = response.json()
    assert (new["your_side"], new["ai_side"], new["ai_level"], new["rematch_of"]) == ("O", "X", "easy", game.pk)
    assert new["ply"] == 1  # the AI, now X, has opened


def test_a_rematch_mid_game_or_by_someone_else_is_refused_and_starts_nothing(as_alice, as_bob, alice):
    finished = factories.ai_game(alice, level="easy")
    before = stored()
    assert_error(as_bob.post(f"/api/games/{finished.pk}/rematch/"), 403, "not_a_player")
    assert_error(as_alice.post("/api/games/999999/rematch/"), 404, "not_found")
    in_progress = as_alice.post("/api/games/", {"variant": "3x3", "side": "X", "level": "easy"}, format="json")
    before = stored()
    assert_error(as_alice.post(f"/api/games/{in_progress.json()['id']}/rematch/"), 409, "game_in_progress")
    assert stored() == before


def test_between_people_a_rematch_is_offered_and_the_opponent_accepts_it_in_the_challenges(
    as_alice, as_bob, alice, bob
):
    game = factories.human_game(alice, bob, time_control="3+2")
    assert_error(as_alice.post(f"/api/games/{game.pk}/rematch/"), 409, "offer_rematch")
    offer = as_alice.post(f"/api/games/{game.pk}/rematch-offer/")
    assert offer.status_code == 201
    offer = offer.json()
    assert (offer["opponent"], offer["side"], offer["rematch_of"], offer["time_control"]) == (
        "bob",
        "O",
        game.pk,
        "3+2",
    )
    # Offering again is the same offer; the opponent's offer is answered, not doubled.
    assert as_alice.post(f"/api/games/{game.pk}/rematch-offer/").json()["id"] == offer["id"]
    assert_error(as_bob.post(f"/api/games/{game.pk}/rematch-offer/"), 409, "rematch_offered")
    listed = as_bob.get("/api/challenges/").json()["results"]
    assert [c["id"] for c in listed if c["rematch_of"] == game.pk] == [offer["id"]]
    new = as_bob.post(f"/api/challenges/{offer['id']}/accept/").json()
    assert (new["x_player"]["username"], new["o_player"]["username"]) == ("bob", "alice")
    assert new["clock"]["time_control"] == "3+2"


def test_a_rematch_offer_mid_game_is_refused(as_alice, alice, bob):
    game = factories.human_game(alice, bob, cells=[4])
    before = stored()
    assert_error(as_alice.post(f"/api/games/{game.pk}/rematch-offer/"), 409, "game_in_progress")
    assert stored() == before
