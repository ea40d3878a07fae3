"""Deleting an account: what is left unfinished ends as if the player had left,
their opponents keep the games and their own counters, and the site's figures stand."""

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q

from games.accounts import services
from games.errors import AccountRefused
from games.lobby import selectors
from games.lobby import services as lobby_services
from games.lobby.models import Challenge
from games.play import services as play_services
from games.play.models import Game
from games.play.players import Player
from games.stats import counters
from games.stats.models import DailyStats, FirstMoveStats, HeadToHead, PlayerRecord, PlayerStats, RatingChange
from tests.factories import DRAW, X_WINS, ai_game, human_game, rating_of

pytestmark = pytest.mark.django_db


def _counters_of(user) -> dict:
    """Everything the site counts for ``user``: rating, records, rating history."""
    return {
        "stats": PlayerStats.objects.filter(user=user).values().get(),
        "records": sorted(
            PlayerRecord.objects.filter(user=user).values_list("variant", "opponent", "wins", "losses", "draws")
        ),
        "ratings": list(RatingChange.objects.filter(user=user).values_list("game_id", "before", "after")),
    }


def _site_figures() -> dict:
    return {
        "daily": sorted(
            DailyStats.objects.values_list(
                "day", "variant", "opponent", "ai_side", "result", "termination", "games", "moves"
            )
        ),
        "first_moves": sorted(FirstMoveStats.objects.values_list("variant", "cell", "result", "games")),
    }


def test_a_game_in_progress_against_a_person_is_resigned_and_the_opponent_wins(user, bob):
    game = human_game(bob, user, [4, 0])  # bob X, alice O, bob to move
    rating_before = PlayerStats.objects.filter(user=bob).first()
    assert rating_before is None  # nothing finished yet

    deletion = services.account_delete(user=user)

    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.result, game.termination) == ("finished", "x_won", "resigned")
    assert game.o_player is None and game.player_name("O") == "Deleted player"
    assert game.cells == [4, 0]  # the moves stay
    bob_stats = PlayerStats.objects.get(user=bob)
    assert (bob_stats.rated_wins, rating_of(bob)) == (1, 1220)  # rated as any resignation
    assert RatingChange.objects.filter(game=game, user=bob).exists()
    assert deletion.resigned == 1 and deletion.aborted == 0


def test_a_game_in_progress_against_the_ai_is_aborted(user):
    game = play_services.game_create_against_ai(player=Player(user=user), level="easy", seed=1)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    daily = _site_figures()

    deletion = services.account_delete(user=user)

    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.result, game.x_player) == ("aborted", "", None)
    assert deletion.aborted == 1
    assert _site_figures() == daily  # an aborted game counts nowhere


def test_challenges_made_are_cancelled_and_challenges_received_declined(user, bob, carol):
    lobby_services.challenge_create(challenger=user, kind="open")
    lobby_services.challenge_create(challenger=user, kind="link")
    lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    kept = lobby_services.challenge_create(challenger=carol, kind="open")

    deletion = services.account_delete(user=user)

    assert deletion.challenges_closed == 3
    assert selectors.lobby_challenges_sent_by(bob) == []  # bob's challenge to alice is no longer waiting
    assert [c.pk for c in selectors.lobby_open_challenges(bob)] == [kept.pk]
    assert list(Challenge.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_opponents_counters_and_the_sites_figures_are_unchanged(user, bob, carol):
    human_game(user, bob, X_WINS)
    human_game(bob, user, X_WINS)
    human_game(user, bob, DRAW)
    human_game(carol, bob, X_WINS)
    ai_game(user, level="easy")
    ai_game(bob, level="perfect")
    bob_before, carol_before, site_before = _counters_of(bob), _counters_of(carol), _site_figures()

    services.account_delete(user=user)

    assert _counters_of(bob) == bob_before
    assert _counters_of(carol) == carol_before
    assert _site_figures() == site_before
    assert not get_user_model().objects.filter(username="alice").exists()
    with_alice_gone = Game.objects.against_humans().filter(Q(x_player=None) | Q(o_player=None))
    assert with_alice_gone.count() == 3  # her games stay, in bob's history
    # What was about alice goes with her, on both sides of the head to head.
    assert sorted(HeadToHead.objects.values_list("user__username", "opponent__username")) == [
        ("bob", "carol"),
        ("carol", "bob"),
    ]


def test_a_recount_after_a_deletion_gives_the_counters_kept(user, bob, carol):
    human_game(user, bob, X_WINS)
    human_game(bob, user, X_WINS)
    human_game(carol, bob, X_WINS)
    human_game(bob, carol, DRAW)
    ai_game(user, level="easy")
    human_game(user, carol, [4, 0])  # in progress: resigned by the deletion
    services.account_delete(user=user)
    kept = {"bob": _counters_of(bob), "carol": _counters_of(carol), "site": _site_figures()}

    counters.recount()

    assert {"bob": _counters_of(bob), "carol": _counters_of(carol), "site": _site_figures()} == kept


def test_the_last_superuser_is_refused_and_nothing_changes(django_user_model, bob):
    root = django_user_model.objects.create_superuser("root", password="x")
    game = human_game(root, bob, [4])

    with pytest.raises(AccountRefused) as refused:
        services.account_delete(user=root)

    assert refused.value.code == "last_superuser"
    assert django_user_model.objects.filter(pk=root.pk).exists()
    assert Game.objects.get(pk=game.pk).status == "in_progress"

    django_user_model.objects.create_superuser("admin2", password="x")
    services.account_delete(user=root)
    assert not django_user_model.objects.filter(pk=root.pk).exists()


def test_staff_may_delete_themselves(django_user_model):
    staff = django_user_model.objects.create_user("moderator", password="x", is_staff=True)
    services.account_delete(user=staff)
    assert not django_user_model.objects.filter(username="moderator").exists()


def test_deleting_twice_changes_nothing_the_second_time(user):
    services.account_delete(user=user)
    assert services.account_delete(user=user) == services.AccountDeletion(0, 0, 0)
