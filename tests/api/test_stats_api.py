"""The statistics API: a player's figures and the leaderboard, open to anyone."""

from __future__ import annotations

import pytest

from games.stats.models import BoardRating
from tests.api.conftest import assert_error
from tests.factories import DRAW, X_WINS, ai_game, human_game, rating_of

pytestmark = pytest.mark.django_db


def test_a_players_stats_are_their_rating_record_streaks_and_changes(anon, alice, bob):
    first = human_game(alice, bob, X_WINS)
    second = human_game(bob, alice, DRAW)
    ai_game(alice, level="easy", resign=True)
    response = anon.get("/api/users/alice/stats/")
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "alice"
    # A rating per board: her two rated games were on 3x3.
    three, four, five = body["ratings"]
    assert (three["variant"], three["rating"], three["provisional"]) == ("3x3", rating_of(alice), True)
    assert three["rating"] > 1200 and (three["rated_games"], three["wins"], three["draws"]) == (2, 1, 1)
    assert (four["variant"], four["rating"], four["rated_games"]) == ("4x4", 1200, 0)
    assert five["variant"] == "5x5"
    assert (body["rated_games"], body["rated_wins"], body["rated_draws"], body["rated_losses"]) == (2, 1, 1, 0)
    assert body["games"] == 3
    assert (body["current_streak"], body["best_streak"]) == (-1, 1)
    assert body["records"] == [
        {"variant": "3x3", "opponent": "human", "games": 2, "wins": 1, "draws": 1, "losses": 0},
        {"variant": "3x3", "opponent": "easy", "games": 1, "wins": 0, "draws": 0, "losses": 1},
    ]
    assert [c["game"] for c in body["rating_changes"]] == [second.pk, first.pk]  # newest first
    assert body["rating_changes"][0]["after"] == rating_of(alice)
    assert body["rating_changes"][0]["variant"] == "3x3"
    assert body["rating_changes"][1]["before"] == 1200


def test_a_player_without_games_is_at_the_start(anon, alice):
    body = anon.get("/api/users/alice/stats/").json()
    assert [(r["rating"], r["provisional"], r["rated_games"]) for r in body["ratings"]] == [(1200, True, 0)] * 3
    assert (body["games"], body["records"], body["rating_changes"]) == (0, [], [])


@pytest.mark.parametrize("username", ["nobody", "%00", "al%00ice"])
def test_an_unknown_player_is_a_404(anon, alice, username):
    assert_error(anon.get(f"/api/users/{username}/stats/"), 404, "not_found")


def test_a_deactivated_player_is_a_404_as_on_the_site(anon, alice):
    alice.is_active = False
    alice.save()
    assert_error(anon.get("/api/users/alice/stats/"), 404, "not_found")


def test_the_leaderboard_ranks_by_rating(anon, alice, bob, carol):
    human_game(alice, bob, X_WINS)
    human_game(alice, carol, X_WINS)
    ai_game(carol, level="easy", resign=True)
    body = anon.get("/api/leaderboard/").json()
    assert body["count"] == 3
    results = body["results"]
    assert [r["rank"] for r in results] == [1, 2, 3]
    assert results[0] == {
        "rank": 1,
        "username": "alice",
        "bot": False,
        "rating": rating_of(alice),
        "provisional": True,
        "rated_games": 2,
        "wins": 2,
        "draws": 0,
        "losses": 0,
    }
    assert [r["rating"] for r in results] == sorted((r["rating"] for r in results), reverse=True)


def test_the_leaderboard_has_fifty_a_page(anon, django_user_model):
    BoardRating.objects.bulk_create(
        BoardRating(
            user=django_user_model.objects.create_user(f"p{i:03}"), variant="3x3", rating=2000 - i, rated_games=12
        )
        for i in range(55)
    )
    first = anon.get("/api/leaderboard/").json()
    assert len(first["results"]) == 50 and first["next"].endswith("?page=2")
    second = anon.get("/api/leaderboard/", {"page": 2}).json()
    assert [(r["rank"], r["username"], r["provisional"]) for r in second["results"]][0] == (51, "p050", False)
    assert_error(anon.get("/api/leaderboard/", {"page": 3}), 404, "not_found")
    assert_error(anon.get("/api/leaderboard/", {"page": "x"}), 404, "not_found")


def test_the_statistics_cost_the_same_queries_with_few_or_many_games(anon, alice, bob, django_assert_num_queries):
    human_game(alice, bob, X_WINS)
    with django_assert_num_queries(5):  # the player, stats, ratings, records, rating changes
        anon.get("/api/users/alice/stats/")
    with django_assert_num_queries(2):  # the count, the page
        anon.get("/api/leaderboard/")
    for i in range(20):
        human_game(bob, alice, DRAW if i % 2 else X_WINS)
    with django_assert_num_queries(5):
        stats = anon.get("/api/users/alice/stats/").json()
    with django_assert_num_queries(2):
        board = anon.get("/api/leaderboard/").json()
    assert (stats["games"], len(stats["records"])) == (21, 1)  # what those queries read
    assert [row["username"] for row in board["results"]] == sorted(
        ["alice", "bob"], key=lambda name: -BoardRating.objects.get(user__username=name).rating
    )


def test_each_board_has_its_leaderboard_in_the_api(anon, alice, bob):
    human_game(alice, bob, [0, 4, 1, 5, 2, 6, 3], variant="4x4")  # alice's top row
    assert anon.get("/api/leaderboard/").json()["count"] == 0  # 3x3: nobody rated there
    board = anon.get("/api/leaderboard/", {"variant": "4x4"}).json()
    assert [(r["username"], r["rating"]) for r in board["results"]] == [("alice", 1220), ("bob", 1180)]
    assert_error(anon.get("/api/leaderboard/", {"variant": "6x6"}), 400, "invalid_variant")


def test_the_profile_page_has_no_error_for_an_impossible_name(client):
    response = client.get("/players/al%00ice/")
    assert response.status_code == 404
    assert "This square is empty" in response.content.decode()
