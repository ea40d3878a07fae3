"""The migration to ratings per board keeps every game and rating: each
player's one rating becomes a rating on each board they played rated games
on, recomputed from those games in the order they ended, and every rating
change says what its game did on its own board."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("games", "0027_sounds")]
AFTER = [("games", "0028_ratings_per_board")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_each_board_gets_the_ratings_its_own_games_made():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("games")
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Game = apps.get_model("games", "Game")
    RatingChange = apps.get_model("games", "RatingChange")
    PlayerStats = apps.get_model("games", "PlayerStats")
    ann, ben, cat = (User.objects.create(username=name) for name in ("ann", "ben", "cat"))
    start = timezone.now() - timedelta(days=1)
    # As the one rating had them: ann beat ben on 3x3 (1200 -> 1220), then lost to cat on 4x4 (1220 -> 1199).
    first = Game.objects.create(
        variant="3x3", x_player=ann, o_player=ben, status="finished", result="x_won", finished_at=start, rated=True
    )
    second = Game.objects.create(
        variant="4x4",
        x_player=cat,
        o_player=ann,
        status="finished",
        result="x_won",
        finished_at=start + timedelta(hours=1),
        rated=True,
    )
    casual = Game.objects.create(
        variant="5x5", x_player=ann, o_player=cat, status="finished", result="x_won", finished_at=start, rated=False
    )
    for game, user, before, after in (
        (first, ann, 1200, 1220),
        (first, ben, 1200, 1180),
        (second, cat, 1200, 1221),
        (second, ann, 1220, 1199),
    ):
        RatingChange.objects.create(game=game, user=user, before=before, after=after, created_at=game.finished_at)
    for user, rating in ((ann, 1199), (ben, 1180), (cat, 1221)):
        PlayerStats.objects.create(user=user, rating=rating, rated_games=1 + (user == ann), games=2)

    apps = _migrate(AFTER)
    BoardRating = apps.get_model("games", "BoardRating")
    RatingChange = apps.get_model("games", "RatingChange")
    boards = {
        (r.user.username, r.variant): (r.rating, r.rated_games, r.rated_wins, r.rated_losses)
        for r in BoardRating.objects.select_related("user")
    }
    # ann: a win on 3x3, a loss on 4x4 from a fresh 1200 there; no rating on 5x5 (casual).
    assert boards == {
        ("ann", "3x3"): (1220, 1, 1, 0),
        ("ben", "3x3"): (1180, 1, 0, 1),
        ("cat", "4x4"): (1220, 1, 1, 0),
        ("ann", "4x4"): (1180, 1, 0, 1),
    }
    changes = {(c.game_id, c.user.username): (c.before, c.after) for c in RatingChange.objects.select_related("user")}
    assert changes == {
        (first.pk, "ann"): (1200, 1220),
        (first.pk, "ben"): (1200, 1180),
        (second.pk, "cat"): (1200, 1220),
        (second.pk, "ann"): (1200, 1180),
    }
    assert Game.objects.count() == 3 and casual.pk in set(Game.objects.values_list("pk", flat=True))
    _migrate(latest)
