"""One error body for everything that goes wrong, and rate limits that answer 429."""

import logging

import pytest

from games.play import selectors
from tests.api.conftest import assert_error, client_for, stored

pytestmark = pytest.mark.django_db


def test_json_that_does_not_parse_is_malformed_json(as_alice):
    before = stored()
    response = as_alice.post("/api/games/", '{"opponent": "ai",', content_type="application/json")
    body = assert_error(response, 400, "malformed_json")
    assert "JSON" in body["message"]
    assert stored() == before


def test_a_body_that_is_not_json_is_unsupported(as_alice):
    response = as_alice.post("/api/games/", "opponent=ai", content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "unsupported_media_type")


def test_a_method_an_endpoint_does_not_take_is_a_405_listing_the_ones_it_does(as_alice, ai_game):
    response = as_alice.delete(f"/api/games/{ai_game.pk}/")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]
    assert_error(as_alice.get(f"/api/games/{ai_game.pk}/moves/"), 405, "method_not_allowed")


def test_an_answer_the_client_cannot_accept_is_a_406(as_alice):
    response = as_alice.get("/api/games/", HTTP_ACCEPT="text/csv")
    assert response.status_code == 406
    assert response.json()["code"] == "not_acceptable"


@pytest.mark.parametrize("method", ["get", "post", "put", "delete", "options"])
def test_an_unknown_api_address_is_a_json_404(anon, method):
    body = assert_error(getattr(anon, method)("/api/no/such/thing/"), 404, "not_found")
    assert "/api/no/such/thing/" in body["message"]


def test_a_missing_slash_is_pointed_out(as_alice):
    body = assert_error(as_alice.get("/api/games"), 404, "not_found")
    assert "/api/games/" in body["message"] and "slash" in body["message"]


def test_pages_outside_the_api_keep_the_sites_html_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "This square is empty" in response.content.decode()


def test_an_unexpected_failure_is_a_json_500_and_logged(as_alice, ai_game, monkeypatch, caplog):
    def broken(pk):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(selectors, "game_detail", broken)
    django_request = logging.getLogger("django.request")  # does not propagate to caplog's root handler
    django_request.addHandler(caplog.handler)
    try:
        response = as_alice.get(f"/api/games/{ai_game.pk}/")
    finally:
        django_request.removeHandler(caplog.handler)
    body = assert_error(response, 500, "server_error")
    assert "fire" not in body["message"]  # no internals for the client...
    assert "the disk is on fire" in caplog.text  # ...but the log has them


def test_validation_errors_list_every_field(as_alice, ai_game):
    body = assert_error(as_alice.post(f"/api/games/{ai_game.pk}/moves/", {"cell": "a", "ply": "b"}), 400, "invalid")
    assert set(body["fields"]) == {"cell", "ply"}
    assert all(isinstance(m, str) for messages in body["fields"].values() for m in messages)
    assert body["message"].startswith("cell: ")


# -- rate limits -------------------------------------------------------------------------------


def test_an_anonymous_client_is_limited_by_address(anon, rates):
    rates(anon="3/min")
    for _ in range(3):
        assert anon.post("/api/analyse/", {"board": "........."}).status_code == 200
    response = anon.post("/api/analyse/", {"board": "........."})
    body = assert_error(response, 429, "throttled")
    assert 0 < int(response["Retry-After"]) <= 60
    assert "throttled" in body["message"].lower()


def test_each_signed_in_player_has_a_budget_of_their_own(alice, bob, rates):
    rates(user="2/min")
    as_alice, as_bob = client_for(alice), client_for(bob)
    for _ in range(2):
        assert as_alice.get("/api/games/").status_code == 200
    response = as_alice.get("/api/games/")
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert as_bob.get("/api/games/").status_code == 200


def test_sign_in_attempts_are_limited(anon, alice, settings):
    settings.ACTION_RATES = {**settings.ACTION_RATES, "signin": "2/min"}
    for _ in range(2):
        assert_error(
            anon.post("/api/auth/token/", {"username": "alice", "password": "guess"}), 400, "invalid_credentials"
        )
    response = anon.post("/api/auth/token/", {"username": "alice", "password": "guess"})
    assert_error(response, 429, "throttled")
    assert "Retry-After" in response


def test_a_throttled_move_changes_nothing(as_alice, ai_game, rates):
    rates(user="1/min")
    as_alice.get("/api/games/")
    before = stored()
    assert_error(as_alice.post(f"/api/games/{ai_game.pk}/moves/", {"cell": 4, "ply": 0}), 429, "throttled")
    assert stored() == before
