"""Games as JSON: starting one against the AI, listing, showing, resigning,
aborting, claiming a timeout and the engine's review."""

from datetime import datetime, timedelta

import pytest

from games import engine
from games.lobby import services as lobby_services
from games.play import services
from games.play.models import Game
from games.play.players import Player
from games.stats.models import PlayerStats, RatingChange
from tests import factories
from tests.api.conftest import assert_error, stored
from tests.engine import reference

pytestmark = pytest.mark.django_db

GAME_KEYS = {
    "id",
    "url",
    "variant",
    "board",
    "ply",
    "to_move",
    "status",
    "result",
    "termination",
    "winning_line",
    "moves",
    "x_player",
    "o_player",
    "your_side",
    "ai_side",
    "ai_level",
    "start_mode",
    "move_time_limit",
    "turn_deadline",
    "clock",
    "draw_offer",
    "takeback_offer",
    "takebacks_allowed",
    "rated",
    "rematch_of",
    "created_at",
    "updated_at",
    "finished_at",
}


# -- starting a game ------------------------------------------------------------------


def test_a_new_game_as_x_waits_for_the_player(as_alice, alice):
    response = as_alice.post("/api/games/", {"opponent": "ai", "level": "perfect", "side": "X", "variant": "3x3"})
    assert response.status_code == 201
    game = response.json()
    assert set(game) == GAME_KEYS
    assert game["board"] == "........."
    assert (game["ply"], game["to_move"], game["status"], game["moves"]) == (0, "X", "in_progress", [])
    assert (game["result"], game["termination"], game["winning_line"], game["finished_at"]) == (None,) * 4
    assert game["x_player"] == {"username": "alice", "name": "alice", "kind": "human", "level": None, "bot": False}
    assert game["o_player"] == {
        "username": None,
        "name": "AI (perfect)",
        "kind": "ai",
        "level": "perfect",
        "bot": False,
    }
    assert (game["ai_side"], game["ai_level"], game["your_side"]) == ("O", "perfect", "X")
    assert game["url"] == f"http://testserver/games/{game['id']}/"
    assert Game.objects.get(pk=game["id"]).x_player == alice


def test_when_the_ai_plays_x_its_first_move_is_in_the_answer(as_alice):
    game = as_alice.post("/api/games/", {"opponent": "ai", "side": "O", "start_mode": "centre"}).json()
    assert (game["ply"], game["moves"], game["board"], game["to_move"]) == (1, [4], "....X....", "O")


@pytest.mark.parametrize("variant, cells", [("3x3", 9), ("4x4", 16), ("5x5", 25)])
def test_every_variant_and_level_can_be_played(as_alice, variant, cells):
    for level in ("easy", "medium", "hard", "perfect"):
        game = as_alice.post("/api/games/", {"variant": variant, "level": level, "side": "X"}).json()
        assert (len(game["board"]), game["variant"], game["ai_level"]) == (cells, variant, level)


def test_a_random_side_is_one_of_the_two(as_alice):
    games = [as_alice.post("/api/games/", {"side": "random"}).json() for _ in range(40)]
    assert {game["your_side"] for game in games} == {"X", "O"}  # both come up (all alike: 2 in 2**40)
    for game in games:
        # Given O, the AI is X and has opened; given X, the player is to move on an empty board.
        expected = ("X", 1, "O") if game["your_side"] == "O" else ("O", 0, "X")
        assert (game["ai_side"], game["ply"], game["to_move"]) == expected, game


def test_the_defaults_are_the_classic_game_against_the_perfect_ai(as_alice):
    game = as_alice.post("/api/games/", {}).json()
    assert (game["variant"], game["ai_level"], game["your_side"]) == ("3x3", "perfect", "X")


def test_a_game_against_a_person_starts_from_a_challenge(as_alice):
    before = stored()
    body = assert_error(as_alice.post("/api/games/", {"opponent": "bob"}), 400, "invalid")
    assert "/api/challenges/" in body["fields"]["opponent"][0]
    assert stored() == before


@pytest.mark.parametrize(
    "data, field",
    [
        ({"level": "godlike"}, "level"),
        ({"variant": "6x6"}, "variant"),
        ({"side": "Z"}, "side"),
        ({"start_mode": "corner"}, "start_mode"),
        ({"variant": 3}, "variant"),
    ],
)
def test_bad_settings_are_refused_and_start_nothing(as_alice, data, field):
    """A value not among a setting's choices has the setting's own code: invalid_level, ..."""
    before = stored()
    body = assert_error(as_alice.post("/api/games/", data), 400, f"invalid_{field}")
    assert list(body["fields"]) == [field]
    assert stored() == before


# -- listing and showing --------------------------------------------------------------


def _new(user, **kwargs):
    return services.game_create_against_ai(player=Player(user=user), **kwargs)


def test_the_list_has_only_the_callers_games_newest_first(as_alice, alice, bob):
    first, second = _new(alice), _new(alice, variant="4x4")
    _new(bob)
    body = as_alice.get("/api/games/").json()
    assert body["count"] == 2
    assert [g["id"] for g in body["results"]] == [second.pk, first.pk]
    assert {"next", "previous"} <= set(body)


def test_the_list_is_paginated_twenty_a_page(as_alice, alice):
    for _ in range(21):
        _new(alice)
    first = as_alice.get("/api/games/").json()
    assert (first["count"], len(first["results"])) == (21, 20)
    assert first["next"].endswith("/api/games/?page=2")
    second = as_alice.get("/api/games/?page=2").json()
    assert len(second["results"]) == 1
    assert_error(as_alice.get("/api/games/?page=3"), 404, "not_found")


@pytest.fixture
def history(alice, bob):
    """Alice's games, one of each kind the filters tell apart, and one of Bob's alone."""
    won = factories.ai_game(bob, resign=True)  # bob's game
    human_won = factories.human_game(alice, bob, [4, 0], resign=bob)
    lost = factories.ai_game(alice, level="easy", resign=True)
    in_progress = _new(alice, variant="4x4", level="hard")
    aborted = services.game_abort_by_player(game_id=_new(alice, variant="5x5").pk, player=Player(user=alice))
    return {"won": human_won, "lost": lost, "in_progress": in_progress, "aborted": aborted, "other": won}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("result=won", ["won"]),
        ("result=lost", ["lost"]),
        ("result=drawn", []),
        ("result=in_progress", ["in_progress"]),
        ("result=aborted", ["aborted"]),
        ("opponent=human", ["won"]),
        ("opponent=ai", ["lost", "in_progress", "aborted"]),
        ("variant=4x4", ["in_progress"]),
        ("level=easy", ["lost"]),
        ("opponent=ai&variant=5x5", ["aborted"]),
    ],
)
def test_the_list_filters_like_the_history_page(as_alice, history, query, expected):
    ids = [g["id"] for g in as_alice.get(f"/api/games/?{query}").json()["results"]]
    assert sorted(ids) == sorted(history[name].pk for name in expected)


@pytest.mark.parametrize("query", ["result=victory", "opponent=robot", "variant=9x9", "level=godlike"])
def test_an_unknown_filter_value_is_a_400_naming_the_filter(as_alice, query):
    name = query.split("=")[0]
    code = f"invalid_{name}" if name in ("variant", "level") else "invalid"
    body = assert_error(as_alice.get(f"/api/games/?{query}"), 400, code)
    assert list(body["fields"]) == [query.split("=")[0]]


def test_any_signed_in_player_may_look_at_a_game(as_carol, human_game):
    game = as_carol.get(f"/api/games/{human_game.pk}/").json()
    assert (game["x_player"]["username"], game["o_player"]["username"]) == ("alice", "bob")
    assert game["your_side"] is None
    assert (game["ai_side"], game["ai_level"], game["start_mode"]) == (None, None, None)


def test_an_unknown_game_is_a_404(as_alice):
    body = assert_error(as_alice.get("/api/games/987654/"), 404, "not_found")
    assert body["message"] == "There is no such game."


def test_a_finished_game_shows_its_result_and_nobody_to_move(as_alice, finished_game):
    game = as_alice.get(f"/api/games/{finished_game.pk}/").json()
    assert (game["status"], game["result"], game["termination"]) == ("finished", "o_won", "resigned")
    assert game["to_move"] is None and game["finished_at"] is not None


def test_a_game_won_on_the_board_shows_the_winning_line(as_bob, alice, bob, human_game):
    for ply, cell in enumerate([0, 3, 1, 4, 2]):  # X takes the top row
        player = Player(user=alice if ply % 2 == 0 else bob)
        services.game_play_move(game_id=human_game.pk, player=player, cell=cell, ply=ply)
    game = as_bob.get(f"/api/games/{human_game.pk}/").json()
    assert (game["board"], game["winning_line"]) == ("XXXOO....", [0, 1, 2])
    assert (game["status"], game["result"], game["termination"], game["to_move"]) == ("finished", "x_won", "line", None)
    assert (game["moves"], game["ply"], game["your_side"]) == ([0, 3, 1, 4, 2], 5, "O")


# -- resigning, aborting, claiming a timeout -------------------------------------------


def test_resigning_gives_the_game_to_the_other_side(as_alice, ai_game):
    services.game_play_move(game_id=ai_game.pk, player=Player(user=ai_game.x_player), cell=4, ply=0)
    response = as_alice.post(f"/api/games/{ai_game.pk}/resign/")
    assert response.status_code == 200
    game = response.json()
    assert (game["status"], game["result"], game["termination"]) == ("finished", "o_won", "resigned")


@pytest.mark.parametrize("moves", [[], [4]])
def test_resigning_before_both_sides_have_moved_aborts_the_game_unrated(as_alice, human_game, alice, moves):
    for ply, cell in enumerate(moves):
        services.game_play_move(game_id=human_game.pk, player=Player(user=alice), cell=cell, ply=ply)
    response = as_alice.post(f"/api/games/{human_game.pk}/resign/")
    assert response.status_code == 200
    game = response.json()
    assert (game["status"], game["result"], game["termination"]) == ("aborted", None, None)
    assert not RatingChange.objects.exists() and not PlayerStats.objects.exists()


def test_a_finished_game_cannot_be_resigned_again(as_alice, finished_game):
    before = stored()
    body = assert_error(as_alice.post(f"/api/games/{finished_game.pk}/resign/"), 409, "game_over")
    assert body["game"]["status"] == "finished"
    assert stored() == before


def test_a_game_is_aborted_before_its_second_move(as_bob, human_game):
    response = as_bob.post(f"/api/games/{human_game.pk}/abort/")
    assert response.status_code == 200
    game = response.json()
    assert (game["status"], game["result"], game["termination"]) == ("aborted", None, None)


def test_after_the_second_move_abort_is_refused(as_alice, ai_game):
    as_alice.post(f"/api/games/{ai_game.pk}/moves/", {"cell": 4, "ply": 0})
    before = stored()
    body = assert_error(as_alice.post(f"/api/games/{ai_game.pk}/abort/"), 409, "too_late_to_abort")
    assert body["game"]["status"] == "in_progress"
    assert stored() == before


@pytest.fixture
def clocked_game(alice, bob):
    """Alice (X) against Bob with 30 seconds a move; Alice is to move."""
    challenge = lobby_services.challenge_create(
        challenger=alice, kind="direct", side="X", opponent_username="bob", move_time_limit=30
    )
    return lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)


def test_the_clock_is_in_the_game(as_alice, clocked_game):
    game = as_alice.get(f"/api/games/{clocked_game.pk}/").json()
    assert game["move_time_limit"] == 30
    stored = Game.objects.get(pk=clocked_game.pk)
    deadline = datetime.fromisoformat(game["turn_deadline"].replace("Z", "+00:00"))
    assert deadline == stored.turn_started_at + timedelta(seconds=30)
    assert game["clock"]["time_control"] == "30s" and game["clock"]["first_move"] is True


def test_a_clock_game_shows_both_clocks_and_whose_runs(as_alice, alice, bob):
    game = factories.human_game(alice, bob, cells=[4, 0], time_control="3+2")
    clock = as_alice.get(f"/api/games/{game.pk}/").json()["clock"]
    assert (clock["time_control"], clock["kind"], clock["initial"], clock["increment"]) == ("3+2", "clock", 180, 2)
    # Neither first move costs anything; X's clock runs from O's first move.
    assert clock["running"] == "X" and clock["first_move"] is False
    assert 179_000 < clock["x_ms"] <= 180_000 and clock["o_ms"] == 180_000


def _first_moves(game):
    """Both first moves, then X's second: O is to move, with a clock running."""
    services.game_play_move(game_id=game.pk, player=Player(user=game.x_player), cell=4, ply=0)
    services.game_play_move(game_id=game.pk, player=Player(user=game.o_player), cell=0, ply=1)
    services.game_play_move(game_id=game.pk, player=Player(user=game.x_player), cell=8, ply=2)


def test_the_waiting_player_claims_the_win_once_time_is_up(as_alice, clocked_game):
    _first_moves(clocked_game)
    factories.time_passes(clocked_game, 31)
    response = as_alice.post(f"/api/games/{clocked_game.pk}/claim-timeout/")
    assert response.status_code == 200
    game = response.json()
    assert (game["status"], game["result"], game["termination"]) == ("finished", "x_won", "timeout")


def test_claiming_before_the_opponent_ever_moved_aborts_the_game(as_bob, clocked_game):
    factories.time_passes(clocked_game, 31)
    game = as_bob.post(f"/api/games/{clocked_game.pk}/claim-timeout/").json()
    assert (game["status"], game["result"], game["termination"]) == ("aborted", None, None)


def test_a_timeout_cannot_be_claimed_before_the_deadline(as_bob, clocked_game):
    before = stored()
    body = assert_error(as_bob.post(f"/api/games/{clocked_game.pk}/claim-timeout/"), 409, "not_claimable")
    assert body["game"]["turn_deadline"] is not None
    assert stored() == before


# -- the review ----------------------------------------------------------------------------


def test_a_finished_game_is_reviewed_move_by_move(as_carol, finished_game, reviewed):
    reviewed(finished_game)
    response = as_carol.get(f"/api/games/{finished_game.pk}/review/")
    assert response.status_code == 200
    review = response.json()
    assert review["game"] == finished_game.pk and review["exact"] is True
    assert [m["ply"] for m in review["moves"]] == [0, 1]
    assert [m["cell"] for m in review["moves"]] == finished_game.cells
    first = review["moves"][0]
    assert (first["player"], first["label"]) == ("X", "best")  # the centre draws
    assert first["played"] == first["best"] == {"outcome": "draw", "plies": 9, "exact": True}
    assert first["best_cells"] == list(range(9))  # every first move draws
    # The easy AI's reply, as the independent referee judges it.
    reply = review["moves"][1]
    position = reference.play("." * 9, 4)
    outcome, plies = reference.describe(reference.move_values(position)[reply["cell"]], position)
    assert reply["player"] == "O" and reply["label"] == reference.label(position, reply["cell"])
    assert reply["played"] == {"outcome": outcome, "plies": plies, "exact": True}
    assert review["decisive_ply"] == (1 if reply["label"] in ("mistake", "blunder") else None)


def test_the_move_that_threw_the_draw_away_is_the_decisive_one(as_bob, alice, bob, human_game, reviewed):
    # X: 0, O: 1 (a blunder: a draw thrown to a loss, X now wins by force), X: 4, O: 8, X: 3 -> X threatens 5 and 6.
    for ply, cell in enumerate([0, 1, 4, 8, 3, 5, 6]):
        player = Player(user=alice if ply % 2 == 0 else bob)
        services.game_play_move(game_id=human_game.pk, player=player, cell=cell, ply=ply)
    reviewed(human_game)
    review = as_bob.get(f"/api/games/{human_game.pk}/review/").json()
    labels = [m["label"] for m in review["moves"]]
    assert labels[1] == "blunder"
    assert review["decisive_ply"] == 1


#: A 4x4 game X wins down the first column, with one move of each kind in it.
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def test_a_finished_4x4_game_is_labelled_with_the_words_chess_sites_use(as_carol, alice, bob, reviewed):
    game = reviewed(factories.human_game(alice, bob, EVERY_LABEL_4X4, variant="4x4"))
    assert game.result == "x_won"
    review = as_carol.get(f"/api/games/{game.pk}/review/").json()
    assert review["exact"] is True
    labels = [m["label"] for m in review["moves"]]
    assert set(labels) == set(engine.LABELS) == {"best", "inaccuracy", "mistake", "blunder"}
    for move in review["moves"]:
        for evaluation in (move["played"], move["best"]):
            assert set(evaluation) == {"outcome", "plies", "exact"}  # words, never a raw score
            assert evaluation["outcome"] in {"win", "draw", "loss"} and evaluation["exact"] is True
    blunders = [m for m in review["moves"] if m["label"] == "blunder"]
    assert all(m["played"]["outcome"] == "loss" and m["best"]["outcome"] != "loss" for m in blunders)
    mistakes = [m for m in review["moves"] if m["label"] == "mistake"]
    assert all((m["best"]["outcome"], m["played"]["outcome"]) == ("win", "draw") for m in mistakes)
    inaccuracies = [m for m in review["moves"] if m["label"] == "inaccuracy"]
    assert all(m["played"]["outcome"] == m["best"]["outcome"] != "draw" for m in inaccuracies)


@pytest.mark.parametrize("action", ["none", "abort"])
def test_an_unfinished_or_aborted_game_has_no_review_yet(as_alice, alice, ai_game, action):
    if action == "abort":
        services.game_abort_by_player(game_id=ai_game.pk, player=Player(user=alice))
    body = assert_error(as_alice.get(f"/api/games/{ai_game.pk}/review/"), 409, "game_not_finished")
    assert body["game"]["id"] == ai_game.pk


def test_the_review_of_an_unknown_game_is_a_404(as_alice):
    assert_error(as_alice.get("/api/games/31337/review/"), 404, "not_found")


def test_reading_a_game_whose_ai_move_is_owed_changes_nothing(as_alice, alice):
    game = services.game_create_against_ai(player=Player(user=alice), variant="4x4", seed=1)
    game = factories.stopped_before_the_ai_replied(game, 0)
    response = as_alice.get(f"/api/games/{game.pk}/")
    assert response.status_code == 200
    assert response.json()["moves"] == [0] and response.json()["ply"] == 1
    assert Game.objects.get(pk=game.pk).move_count == 1
