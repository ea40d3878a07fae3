"""Games between people: challenges, the clock, aborting and rematch offers."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.errors import ChallengeRefused, InvalidInput, MoveRefused, NotAPlayer
from games.lobby import services
from games.lobby.models import Challenge
from games.play import services as play_services
from games.play.models import Game, Move
from games.play.players import Player
from games.stats.models import PlayerStats
from tests.factories import time_passes
from tests.races import at_once

pytestmark = pytest.mark.django_db


def _game(alice, bob, **kwargs):
    challenge = services.challenge_create(challenger=alice, side="X", **kwargs)
    return services.challenge_accept(user=bob, challenge_id=challenge.pk)


def test_an_open_challenge_starts_a_game_when_someone_accepts(user, bob):
    challenge = services.challenge_create(challenger=user, kind="open", variant="4x4", side="O")
    assert Challenge.objects.in_lobby().get() == challenge
    game = services.challenge_accept(user=bob, challenge_id=challenge.pk)
    assert (game.x_player, game.o_player, game.variant, game.ai_side) == (bob, user, "4x4", "")
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.game == game
    assert not Challenge.objects.in_lobby().exists()


def test_a_challenge_cannot_be_accepted_twice_or_by_its_creator(user, bob, carol):
    challenge = services.challenge_create(challenger=user)
    with pytest.raises(ChallengeRefused, match="your own challenge"):
        services.challenge_accept(user=user, challenge_id=challenge.pk)
    services.challenge_accept(user=bob, challenge_id=challenge.pk)
    with pytest.raises(ChallengeRefused, match="accepted already"):
        services.challenge_accept(user=carol, challenge_id=challenge.pk)
    assert Game.objects.count() == 1


def test_a_direct_challenge_is_for_the_named_player_only(user, bob, carol):
    challenge = services.challenge_create(challenger=user, kind="direct", opponent_username="bob")
    with pytest.raises(NotAPlayer):
        services.challenge_accept(user=carol, challenge_id=challenge.pk)
    with pytest.raises(NotAPlayer):
        services.challenge_decline(user=carol, challenge_id=challenge.pk)
    services.challenge_decline(user=bob, challenge_id=challenge.pk)
    challenge.refresh_from_db()
    assert challenge.status == "declined"
    with pytest.raises(ChallengeRefused):
        services.challenge_accept(user=bob, challenge_id=challenge.pk)


def test_an_invite_link_is_accepted_by_its_token(user, bob):
    challenge = services.challenge_create(challenger=user, kind="link", side="X")
    game = services.challenge_accept(user=bob, token=challenge.token)
    assert game.x_player == user and game.o_player == bob


def test_an_invite_link_is_not_accepted_by_its_id(user, bob):
    challenge = services.challenge_create(challenger=user, kind="link")
    with pytest.raises(NotAPlayer, match="through its invite link"):
        services.challenge_accept(user=bob, challenge_id=challenge.pk)
    challenge.refresh_from_db()
    assert challenge.status == "open" and Game.objects.count() == 0


def test_only_the_challenger_cancels_and_only_while_it_waits(user, bob):
    challenge = services.challenge_create(challenger=user)
    with pytest.raises(NotAPlayer):
        services.challenge_cancel(user=bob, challenge_id=challenge.pk)
    services.challenge_cancel(user=user, challenge_id=challenge.pk)
    with pytest.raises(ChallengeRefused, match="cancelled already"):
        services.challenge_accept(user=bob, challenge_id=challenge.pk)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "direct", "opponent_username": "nobody"}, "no player called 'nobody'"),
        ({"kind": "direct", "opponent_username": "alice"}, "cannot challenge yourself"),
        ({"move_time_limit": 7}, "a limit per move in seconds is 30, 60 or 300, not 7"),
        ({"time_control": "3+99"}, "an increment is 0 to 60 seconds, not 99"),
        ({"time_control": "2d"}, "1, 3 or 7 days per move, not 2"),
        ({"time_control": "blitz"}, "is not a time control"),
        ({"variant": "6x6"}, "variant '6x6'"),
        ({"side": "Z"}, "side 'Z'"),
    ],
)
def test_a_bad_challenge_is_refused_and_nothing_is_stored(user, kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        services.challenge_create(challenger=user, **kwargs)
    assert Challenge.objects.count() == 0


def test_players_alternate_and_nobody_else_moves(user, bob, carol):
    game = _game(user, bob)
    alice_p, bob_p = Player(user=user), Player(user=bob)
    play_services.game_play_move(game_id=game.pk, player=alice_p, cell=4, ply=0)
    with pytest.raises(MoveRefused, match="it is O's turn"):
        play_services.game_play_move(game_id=game.pk, player=alice_p, cell=0, ply=1)
    with pytest.raises(NotAPlayer):
        play_services.game_play_move(game_id=game.pk, player=Player(user=carol), cell=0, ply=1)
    play_services.game_play_move(game_id=game.pk, player=bob_p, cell=0, ply=1)
    assert list(Move.objects.filter(game=game).values_list("cell", flat=True)) == [4, 0]


def test_the_waiting_player_claims_the_win_once_time_is_up(user, bob):
    game = _game(user, bob, move_time_limit=30)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=8, ply=2)
    with pytest.raises(MoveRefused, match="still has time"):
        play_services.game_claim_timeout(game_id=game.pk, player=Player(user=user))
    time_passes(game, 31)
    with pytest.raises(MoveRefused, match="your own turn"):
        play_services.game_claim_timeout(game_id=game.pk, player=Player(user=bob))
    game = play_services.game_claim_timeout(game_id=game.pk, player=Player(user=user))
    assert (game.status, game.result, game.termination) == ("finished", "x_won", "timeout")


def test_a_player_who_never_made_a_first_move_aborts_the_game_rather_than_losing_it(user, bob):
    game = _game(user, bob, move_time_limit=30)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    time_passes(game, 31)
    game = play_services.game_claim_timeout(game_id=game.pk, player=Player(user=user))
    assert (game.status, game.result, game.ending) == ("aborted", "", "aborted")
    assert not PlayerStats.objects.filter(games__gt=0).exists()


def test_without_a_limit_there_is_nothing_to_claim(user, bob):
    game = _game(user, bob)
    time_passes(game, 30 * 86400)
    with pytest.raises(MoveRefused, match="still has time"):
        play_services.game_claim_timeout(game_id=game.pk, player=Player(user=bob))


def test_a_game_can_be_aborted_only_before_the_second_move(user, bob):
    game = _game(user, bob)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    game = play_services.game_abort_by_player(game_id=game.pk, player=Player(user=bob))
    assert game.status == "aborted" and game.result == ""
    later = _game(user, bob)
    play_services.game_play_move(game_id=later.pk, player=Player(user=user), cell=4, ply=0)
    play_services.game_play_move(game_id=later.pk, player=Player(user=bob), cell=0, ply=1)
    with pytest.raises(MoveRefused, match="before its second move"):
        play_services.game_abort_by_player(game_id=later.pk, player=Player(user=user))


def test_a_rematch_offer_swaps_sides_once_accepted(user, bob):
    game = play_services.game_resign(game_id=_game(user, bob).pk, player=Player(user=bob))
    offer = services.game_offer_rematch(game_id=game.pk, player=Player(user=user))
    assert services.game_offer_rematch(game_id=game.pk, player=Player(user=user)) == offer  # twice: one offer
    with pytest.raises(MoveRefused, match="offered a rematch already"):
        services.game_offer_rematch(game_id=game.pk, player=Player(user=bob))
    rematch = services.challenge_accept(user=bob, challenge_id=offer.pk)
    assert (rematch.x_player, rematch.o_player, rematch.rematch_of_id) == (bob, user, game.pk)


def _finished(alice, bob):
    """Alice (X) against Bob, Bob resigning after a move each."""
    game = _game(alice, bob)
    play_services.game_play_move(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)
    return play_services.game_resign(game_id=game.pk, player=Player(user=bob))


def _at_once(*calls):
    """Each call's result, or the code of its refusal."""
    return [r.code if isinstance(r, (MoveRefused, ChallengeRefused)) else r for r in at_once(*calls)]


def _offer(game, user):
    return lambda: services.game_offer_rematch(game_id=game.pk, player=Player(user=user))


@pytest.mark.django_db(transaction=True)
def test_three_rematch_offers_at_once_from_one_player_are_one_offer(user, bob):
    game = _finished(user, bob)
    outcomes = _at_once(*[_offer(game, user)] * 3)
    (offer,) = Challenge.objects.filter(rematch_of=game)
    assert outcomes == [offer, offer, offer]


@pytest.mark.django_db(transaction=True)
def test_rematch_offers_at_once_from_both_players_are_one_offer(user, bob):
    game = _finished(user, bob)
    outcomes = _at_once(_offer(game, user), _offer(game, bob))
    (offer,) = Challenge.objects.filter(rematch_of=game)
    assert sorted(outcomes, key=str) == sorted([offer, "rematch_offered"], key=str)


@pytest.mark.django_db(transaction=True)
def test_a_rematch_is_played_once_however_it_is_accepted_and_offered_again(user, bob):
    game = _finished(user, bob)
    offer = services.game_offer_rematch(game_id=game.pk, player=Player(user=user))
    accept = lambda: services.challenge_accept(user=bob, challenge_id=offer.pk)  # noqa: E731
    outcomes = _at_once(accept, accept, _offer(game, bob), _offer(game, user))
    assert Game.objects.filter(rematch_of=game).count() == 1
    assert {str(outcome) for outcome in outcomes[2:]} <= {str(offer), "rematch_offered", "rematch_started"}
    assert Challenge.objects.filter(rematch_of=game).count() == 1
    with pytest.raises(MoveRefused, match="the rematch has started already"):
        services.game_offer_rematch(game_id=game.pk, player=Player(user=bob))


@pytest.mark.django_db(transaction=True)
def test_fifty_simultaneous_moves_for_one_ply_store_exactly_one(django_user_model):
    """Fifty requests race for the same ply of a game between people: exactly one
    move is stored and every other request gets a clear refusal, never a 500."""
    alice = django_user_model.objects.create_user("alice", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    game = _game(alice, bob)
    clients = []
    for _ in range(50):
        client = Client()
        client.force_login(alice)
        clients.append(client)
    barrier = threading.Barrier(len(clients))
    statuses = []
    url = reverse("games:move", args=[game.pk])

    def send(client, cell):
        try:
            barrier.wait()
            response = client.post(url, {"cell": cell, "ply": 0}, HTTP_X_PARTIAL="1")
            statuses.append(response.status_code)
        except Exception as error:  # noqa: BLE001 - a crash is what the test looks for
            statuses.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(client, i % 9)) for i, client in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(statuses) == 50
    assert all(status in (200, 409) for status in statuses), statuses
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.move_count == 1
    # The winner and the same cell's repeats are 200s (applied once); every
    # other cell, for a ply already taken, is a 409 with the current game.
    same_cell = sum(1 for i in range(len(clients)) if i % 9 == game.cells[0])
    assert (statuses.count(200), statuses.count(409)) == (same_cell, len(clients) - same_cell), statuses
