"""Challenges: offering a game, the lobby, accepting (by id or an invite's
token), declining and cancelling."""

import pytest

from games.lobby import services
from games.lobby.models import Challenge
from games.play.models import Game
from tests.api.conftest import assert_error, stored

pytestmark = pytest.mark.django_db

CHALLENGE_KEYS = {
    "id",
    "kind",
    "status",
    "variant",
    "challenger",
    "opponent",
    "side",
    "move_time_limit",
    "decline_reason",
    "time_control",
    "takebacks_allowed",
    "rated",
    "token",
    "game",
    "rematch_of",
    "created_at",
    "resolved_at",
}


def _offer(user, **kwargs):
    return services.challenge_create(challenger=user, **kwargs)


# -- creating ------------------------------------------------------------------------


def test_an_open_challenge_waits_in_the_lobby(as_alice):
    response = as_alice.post("/api/challenges/", {"kind": "open", "variant": "4x4", "side": "O", "move_time_limit": 60})
    assert response.status_code == 201
    challenge = response.json()
    assert set(challenge) == CHALLENGE_KEYS
    assert (challenge["kind"], challenge["status"], challenge["variant"]) == ("open", "open", "4x4")
    assert (challenge["challenger"], challenge["opponent"], challenge["side"]) == ("alice", None, "O")
    assert (challenge["move_time_limit"], challenge["time_control"], challenge["game"]) == (60, "60s", None)
    assert challenge["token"] == Challenge.objects.get().token


@pytest.mark.parametrize(
    "data, key, fields",
    [
        ({"time_control": "3+2"}, "3+2", (180, 2, None)),
        ({"time_control": "7+4"}, "7+4", (420, 4, None)),  # any clock, not only the presets
        ({"time_control": "3d"}, "3d", (None, 0, 259200)),
        ({"time_control": "none"}, "none", (None, 0, None)),
        ({"time_control": None}, "none", (None, 0, None)),
        ({}, "none", (None, 0, None)),
        ({"move_time_limit": 86400}, "1d", (None, 0, 86400)),  # the older way, for old clients
    ],
)
def test_a_challenge_is_made_at_the_time_control_asked_for(as_alice, data, key, fields):
    response = as_alice.post("/api/challenges/", {"kind": "open", **data})
    assert response.status_code == 201, response.json()
    assert response.json()["time_control"] == key
    challenge = Challenge.objects.get()
    assert (challenge.clock_initial, challenge.clock_increment, challenge.move_time_limit) == fields


def test_a_direct_challenge_names_its_opponent(as_alice, bob):
    challenge = as_alice.post("/api/challenges/", {"kind": "direct", "opponent": "bob"}).json()
    assert (challenge["kind"], challenge["opponent"], challenge["side"]) == ("direct", "bob", "random")
    assert challenge["move_time_limit"] is None


def test_an_invite_link_gives_its_token_to_the_challenger_only(as_alice, as_bob, alice, bob):
    mine = as_alice.post("/api/challenges/", {"kind": "link"}).json()
    assert mine["token"]
    direct = _offer(alice, kind="direct", opponent_username="bob")
    seen_by_bob = {c["id"]: c for c in as_bob.get("/api/challenges/").json()["results"]}
    assert seen_by_bob[direct.pk]["token"] is None


@pytest.mark.parametrize(
    "data, status, code, field",
    [
        ({"kind": "direct"}, 400, "invalid", "opponent"),
        ({"kind": "direct", "opponent": ""}, 400, "invalid", "opponent"),
        ({"kind": "direct", "opponent": "nobody"}, 400, "unknown_player", None),
        ({"kind": "direct", "opponent": "alice"}, 400, "self_challenge", None),
        ({"kind": "open", "move_time_limit": 45}, 400, "invalid_time_limit", "move_time_limit"),
        ({"time_control": "blitz"}, 400, "invalid_time_control", None),
        ({"time_control": "3+99"}, 400, "invalid_time_control", None),
        ({"time_control": "2d"}, 400, "invalid_time_control", None),
        ({"time_control": 3}, 400, "invalid", "time_control"),
        ({"time_control": "3+2", "move_time_limit": 60}, 400, "invalid_time_control", None),  # not both
        ({"kind": "public"}, 400, "invalid_kind", "kind"),
        ({"variant": "7x7"}, 400, "invalid_variant", "variant"),
        ({"side": "random!"}, 400, "invalid_side", "side"),
    ],
)
def test_a_bad_challenge_is_refused_and_nothing_is_stored(as_alice, bob, data, status, code, field):
    before = stored()
    body = assert_error(as_alice.post("/api/challenges/", data), status, code)
    if field:
        assert list(body["fields"]) == [field]
    assert stored() == before


# -- listing ----------------------------------------------------------------------------


def test_the_list_has_the_lobby_and_the_callers_own_challenges(as_bob, alice, bob, carol):
    lobby = _offer(alice, kind="open")
    to_bob = _offer(alice, kind="direct", opponent_username="bob")
    from_bob = _offer(bob, kind="link")
    _offer(alice, kind="direct", opponent_username="carol")  # neither public nor Bob's
    _offer(alice, kind="link")  # a secret until shared
    taken = _offer(carol, kind="open")
    services.challenge_accept(user=alice, challenge_id=taken.pk)  # left the lobby
    body = as_bob.get("/api/challenges/").json()
    assert body["count"] == 3
    assert [c["id"] for c in body["results"]] == [from_bob.pk, to_bob.pk, lobby.pk]


def test_accepted_and_declined_challenges_stay_in_their_players_lists(as_bob, as_alice, alice, bob):
    accepted = _offer(alice, kind="open")
    services.challenge_accept(user=bob, challenge_id=accepted.pk)
    declined = _offer(alice, kind="direct", opponent_username="bob")
    services.challenge_decline(user=bob, challenge_id=declined.pk)
    for client in (as_alice, as_bob):
        statuses = {c["id"]: c["status"] for c in client.get("/api/challenges/").json()["results"]}
        assert statuses == {accepted.pk: "accepted", declined.pk: "declined"}


# -- accepting ----------------------------------------------------------------------------


def test_accepting_starts_the_game_at_once(as_bob, alice, bob):
    challenge = _offer(alice, kind="open", side="X", variant="5x5", move_time_limit=300)
    response = as_bob.post(f"/api/challenges/{challenge.pk}/accept/")
    assert response.status_code == 201
    game = response.json()
    assert (game["x_player"]["username"], game["o_player"]["username"]) == ("alice", "bob")
    assert (game["variant"], game["move_time_limit"], game["your_side"], game["ai_side"]) == ("5x5", 300, "O", None)
    assert Challenge.objects.get().game_id == game["id"]


def test_a_direct_challenge_is_accepted_by_its_opponent(as_bob, alice, bob):
    challenge = _offer(alice, kind="direct", opponent_username="bob")
    response = as_bob.post(f"/api/challenges/{challenge.pk}/accept/")
    assert response.status_code == 201
    game = Game.objects.get(pk=response.json()["id"])
    assert {game.x_player, game.o_player} == {alice, bob}
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)


def test_an_invite_link_is_accepted_with_its_token(as_bob, alice):
    challenge = _offer(alice, kind="link", side="O")
    response = as_bob.post("/api/challenges/accept/", {"token": challenge.token})
    assert response.status_code == 201
    assert response.json()["x_player"]["username"] == "bob"


def test_an_invite_link_is_not_accepted_by_its_id(as_bob, alice):
    challenge = _offer(alice, kind="link")
    before = stored()
    assert_error(as_bob.post(f"/api/challenges/{challenge.pk}/accept/"), 403, "needs_invite_link")
    assert stored() == before


def test_an_unknown_token_is_a_404(as_bob):
    assert_error(as_bob.post("/api/challenges/accept/", {"token": "no-such-token"}), 404, "not_found")


def test_a_token_must_be_given(as_bob):
    body = assert_error(as_bob.post("/api/challenges/accept/", {}), 400, "invalid")
    assert list(body["fields"]) == ["token"]


def test_a_challenge_cannot_be_accepted_by_its_challenger(as_alice, alice):
    challenge = _offer(alice, kind="open")
    before = stored()
    body = assert_error(as_alice.post(f"/api/challenges/{challenge.pk}/accept/"), 409, "own_challenge")
    assert "game" not in body
    assert stored() == before


def test_a_challenge_is_accepted_once(as_carol, alice, bob):
    challenge = _offer(alice, kind="open")
    services.challenge_accept(user=bob, challenge_id=challenge.pk)
    before = stored()
    assert_error(as_carol.post(f"/api/challenges/{challenge.pk}/accept/"), 409, "challenge_closed")
    assert stored() == before
    assert Game.objects.count() == 1


# -- declining and cancelling ---------------------------------------------------------------


def test_the_opponent_declines_a_direct_challenge(as_bob, alice):
    challenge = _offer(alice, kind="direct", opponent_username="bob")
    response = as_bob.post(f"/api/challenges/{challenge.pk}/decline/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["game"]) == ("declined", None)
    assert response.json()["resolved_at"]


def test_a_decline_says_why_and_the_challenger_reads_it(as_bob, as_alice, alice):
    challenge = _offer(alice, kind="direct", opponent_username="bob")
    response = as_bob.post(f"/api/challenges/{challenge.pk}/decline/", {"reason": "too_fast"}, format="json")

    assert response.status_code == 200 and response.json()["decline_reason"] == "too_fast"
    seen = as_alice.get(f"/api/challenges/{challenge.pk}/")
    assert (seen.json()["status"], seen.json()["decline_reason"]) == ("declined", "too_fast")


def test_a_reason_not_on_the_list_is_refused_and_the_challenge_still_waits(as_bob, alice):
    challenge = _offer(alice, kind="direct", opponent_username="bob")
    body = assert_error(
        as_bob.post(f"/api/challenges/{challenge.pk}/decline/", {"reason": "rude"}, format="json"),
        400,
        "invalid_reason",
    )

    assert "reason" in body["fields"]
    assert Challenge.objects.get(pk=challenge.pk).status == "open"


def test_a_challenge_is_read_by_its_players_and_an_open_one_by_anyone(as_alice, as_bob, as_carol, alice):
    direct = _offer(alice, kind="direct", opponent_username="bob")
    open_one = _offer(alice, kind="open", variant="4x4")

    for client in (as_alice, as_bob):
        response = client.get(f"/api/challenges/{direct.pk}/")
        assert response.status_code == 200 and set(response.json()) == CHALLENGE_KEYS
        assert response.json()["opponent"] == "bob"
    assert as_carol.get(f"/api/challenges/{open_one.pk}/").json()["variant"] == "4x4"
    assert_error(as_carol.get(f"/api/challenges/{direct.pk}/"), 404, "not_found")
    assert_error(as_carol.get("/api/challenges/999999/"), 404, "not_found")
    # The invite's secret is the challenger's alone.
    assert as_alice.get(f"/api/challenges/{direct.pk}/").json()["token"]
    assert as_bob.get(f"/api/challenges/{direct.pk}/").json()["token"] is None


def test_the_challenger_cancels_a_waiting_challenge(as_alice, alice):
    challenge = _offer(alice, kind="open")
    response = as_alice.post(f"/api/challenges/{challenge.pk}/cancel/")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert Challenge.objects.get(pk=challenge.pk).status == "cancelled"
    assert as_alice.get("/api/challenges/").json()["results"][0]["status"] == "cancelled"


def test_a_closed_challenge_cannot_be_cancelled_or_declined(as_alice, as_bob, alice, bob):
    challenge = _offer(alice, kind="direct", opponent_username="bob")
    services.challenge_accept(user=bob, challenge_id=challenge.pk)
    before = stored()
    assert_error(as_alice.post(f"/api/challenges/{challenge.pk}/cancel/"), 409, "challenge_closed")
    assert_error(as_bob.post(f"/api/challenges/{challenge.pk}/decline/"), 409, "challenge_closed")
    assert stored() == before


@pytest.mark.parametrize("action", ["accept", "decline", "cancel"])
def test_an_unknown_challenge_is_a_404(as_alice, action):
    body = assert_error(as_alice.post(f"/api/challenges/777/{action}/"), 404, "not_found")
    assert body["message"] == "There is no such challenge."
