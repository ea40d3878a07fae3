"""Who may do what, endpoint by endpoint.

The matrix: an anonymous client, a client with a bad token, a signed-in player
who plays in none of the games (Carol), and a player acting out of turn
(Bob, while Alice is to move). Refusals change nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from games.lobby import pairing_services, services
from tests.api.conftest import assert_error, stored

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # {game} and {challenge} are filled in from the world below
    body: dict | None = None
    public: bool = False

    def call(self, client, world):
        path = self.path.format(game=world["game"].pk, challenge=world["challenge"].pk)
        body = {k: (world["challenge"].token if v == "{token}" else v) for k, v in (self.body or {}).items()}
        return getattr(client, self.method)(path, body if self.method == "post" else None)


ENDPOINTS = [
    Endpoint("token", "post", "/api/auth/token/", {"username": "alice", "password": "guess"}, public=True),
    Endpoint("analyse", "post", "/api/analyse/", {"board": "........."}, public=True),
    Endpoint("games_list", "get", "/api/games/"),
    Endpoint("games_create", "post", "/api/games/", {"opponent": "ai"}),
    Endpoint("game", "get", "/api/games/{game}/"),
    Endpoint("moves", "post", "/api/games/{game}/moves/", {"cell": 0, "ply": 0}),
    Endpoint("resign", "post", "/api/games/{game}/resign/"),
    Endpoint("abort", "post", "/api/games/{game}/abort/"),
    Endpoint("claim_timeout", "post", "/api/games/{game}/claim-timeout/"),
    Endpoint("review", "get", "/api/games/{game}/review/"),
    Endpoint("challenges_list", "get", "/api/challenges/"),
    Endpoint("challenges_create", "post", "/api/challenges/", {"kind": "open"}),
    Endpoint("accept", "post", "/api/challenges/{challenge}/accept/"),
    Endpoint("accept_by_token", "post", "/api/challenges/accept/", {"token": "{token}"}),
    Endpoint("decline", "post", "/api/challenges/{challenge}/decline/"),
    Endpoint("cancel", "post", "/api/challenges/{challenge}/cancel/"),
    Endpoint("pairing_create", "post", "/api/pairing/", {"board": "5x5", "time_control": "1+0"}),
    Endpoint("pairing", "get", "/api/pairing/"),
    Endpoint("pairing_cancel", "delete", "/api/pairing/"),
    # Statistics are public, like the player pages and the leaderboard.
    Endpoint("user_stats", "get", "/api/users/bob/stats/", public=True),
    Endpoint("leaderboard", "get", "/api/leaderboard/", public=True),
]
BY_NAME = {endpoint.name: endpoint for endpoint in ENDPOINTS}
PRIVATE = [e for e in ENDPOINTS if not e.public]


@pytest.fixture
def world(alice, bob, human_game):
    """Alice (X, to move) against Bob, Alice's direct challenge to Bob, and
    Alice waiting for a quick 3x3 game."""
    challenge = services.challenge_create(challenger=alice, kind="direct", opponent_username="bob")
    pairing_services.pairing_request(player=alice, variant="3x3", time_control="3+2")
    return {"game": human_game, "challenge": challenge}


def _id(endpoint):
    return endpoint.name


@pytest.mark.parametrize("endpoint", PRIVATE, ids=_id)
def test_anonymous_clients_are_told_to_authenticate(anon, world, endpoint):
    before = stored()
    assert_error(endpoint.call(anon, world), 401, "not_authenticated")
    assert stored() == before


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if e.name != "token"], ids=_id)
def test_a_bad_token_is_refused_everywhere(world, endpoint):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    before = stored()
    assert_error(endpoint.call(client, world), 401, "authentication_failed")
    assert stored() == before


#: What an anonymous client gets from each public endpoint.
PUBLIC = {
    "token": (400, "invalid_credentials"),  # answered, for the guessed password is wrong
    "analyse": (200, None),
    "user_stats": (200, None),
    "leaderboard": (200, None),
}


def test_the_public_table_covers_every_public_endpoint():
    assert set(PUBLIC) == {e.name for e in ENDPOINTS if e.public}


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if e.public], ids=_id)
def test_the_public_endpoints_answer_anonymous_clients(anon, world, endpoint):
    status, code = PUBLIC[endpoint.name]
    response = endpoint.call(anon, world)
    if code is None:
        assert response.status_code == status, response.content
    else:
        assert_error(response, status, code)


# What Carol, who plays in none of it, gets from each endpoint.
NON_PLAYER = {
    "analyse": (200, None),
    "games_list": (200, None),  # her own games: none
    "games_create": (201, None),  # her own new game
    "game": (200, None),  # games are public, as on the site
    "moves": (403, "not_a_player"),
    "resign": (403, "not_a_player"),
    "abort": (403, "not_a_player"),
    "claim_timeout": (403, "not_a_player"),
    "review": (409, "game_not_finished"),  # readable by anyone, once the game ends
    "challenges_list": (200, None),
    "challenges_create": (201, None),
    "accept": (403, "not_a_player"),  # sent to Bob, not to her
    "accept_by_token": (403, "not_a_player"),  # even with its token
    "decline": (403, "not_a_player"),
    "cancel": (403, "not_a_player"),
    "user_stats": (200, None),  # anyone's figures, as on their page
    "leaderboard": (200, None),
    "pairing_create": (201, None),  # her own request, on another board than alice's
    "pairing": (404, "not_found"),  # alice's request is not hers to see
    "pairing_cancel": (404, "not_found"),  # nor to cancel
}


def test_the_non_player_table_covers_every_private_endpoint():
    assert set(NON_PLAYER) | {"token"} == set(BY_NAME)


@pytest.mark.parametrize("name", list(NON_PLAYER))
def test_someone_not_involved_cannot_act_on_a_game_or_challenge(as_carol, world, name):
    status, code = NON_PLAYER[name]
    before = stored()
    response = BY_NAME[name].call(as_carol, world)
    if code is None:
        assert response.status_code == status, response.content
        return
    body = assert_error(response, status, code)
    assert stored() == before
    if status == 403:
        assert "game" not in body  # a refusal to an outsider shows no more than GET would


def test_carol_cannot_see_a_game_list_other_than_her_own(as_carol, world):
    assert as_carol.get("/api/games/").json()["count"] == 0
    ids = [c["id"] for c in as_carol.get("/api/challenges/").json()["results"]]
    assert world["challenge"].pk not in ids


# What Bob gets when it is Alice's turn in their game: a refusal, or the game
# as it ends (status, result, termination).
OUT_OF_TURN = {
    "moves": (409, "not_your_turn"),
    "claim_timeout": (409, "not_claimable"),  # no clock: Alice has all the time she wants
    # A player may resign at any time; before both sides have moved that aborts the game.
    "resign": (200, ("aborted", None, None)),
    "abort": (200, ("aborted", None, None)),  # either player may abort before the second move
}


@pytest.mark.parametrize("name", list(OUT_OF_TURN))
def test_the_opponent_out_of_turn(as_bob, world, name):
    status, code = OUT_OF_TURN[name]
    before = stored()
    response = BY_NAME[name].call(as_bob, world)
    if isinstance(code, tuple):
        assert response.status_code == status, response.content
        game = response.json()
        assert (game["status"], game["result"], game["termination"]) == code
        again = as_bob.get(f"/api/games/{world['game'].pk}/").json()  # and so it stays
        assert (again["status"], again["result"], again["termination"]) == code
        return
    body = assert_error(response, status, code)
    assert body["game"]["to_move"] == "X"
    assert stored() == before


def test_the_player_to_move_cannot_claim_a_timeout(as_alice, world):
    body = assert_error(BY_NAME["claim_timeout"].call(as_alice, world), 409, "not_claimable")
    assert "your own turn" in body["message"]


@pytest.mark.parametrize("name, status, code", [("accept", 409, "own_challenge"), ("decline", 403, "not_a_player")])
def test_the_challenger_cannot_answer_their_own_challenge(as_alice, world, name, status, code):
    before = stored()
    assert_error(BY_NAME[name].call(as_alice, world), status, code)
    assert stored() == before


def test_the_opponent_cannot_cancel_the_challengers_challenge(as_bob, world):
    before = stored()
    assert_error(BY_NAME["cancel"].call(as_bob, world), 403, "not_a_player")
    assert stored() == before
