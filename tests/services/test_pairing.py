"""Quick pairing: a board and a time control, and the next person who asks for
the same, of about the same rating; the range widens as people wait.

Times are passed to the services explicitly (``now``): nothing here sleeps."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.errors import InvalidInput, NotAPlayer, PairingRefused
from games.lobby import pairing_services as pairing
from games.lobby.models import PairingPool, PairingRequest
from games.play.models import Game
from tests.factories import rate
from tests.races import at_once

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


def at(seconds: float):
    return T0 + timedelta(seconds=seconds)


def ask(player, seconds=0, variant="3x3", time_control="3+2"):
    return pairing.pairing_request(player=player, variant=variant, time_control=time_control, now=at(seconds))[0]


def rated(user, rating):
    rate(user, rating)
    return user


def stored():
    return {
        "requests": list(PairingRequest.objects.order_by("pk").values()),
        "games": list(Game.objects.order_by("pk").values()),
    }


# -- pairing -----------------------------------------------------------------------------


def test_the_second_player_to_ask_for_the_same_starts_the_game(user, bob):
    first = ask(user, variant="4x4", time_control="3+2")
    assert (first.status, first.game) == ("waiting", None)
    assert not Game.objects.exists()

    second = ask(bob, 3, variant="4x4", time_control="3+2")

    game = Game.objects.get()
    assert second.status == "matched" and second.game == game
    first.refresh_from_db()
    assert first.status == "matched" and first.game == game
    assert {game.x_player, game.o_player} == {user, bob}
    assert (game.variant, game.ai_side, game.status) == ("4x4", "", "in_progress")
    # The game runs on the clock asked for: 3 minutes each, 2 seconds a move.
    assert (game.clock_initial, game.clock_increment, game.x_clock_ms, game.o_clock_ms) == (180, 2, 180_000, 180_000)
    assert game.time_control.key == "3+2"
    assert first.waited_seconds(at(60)) == 3  # waited until paired, not since


def test_a_correspondence_or_unlimited_quick_game_has_no_clock(user, bob):
    ask(user, time_control="1d")
    game = ask(bob, time_control="1d").game
    assert (game.move_time_limit, game.clock_initial, game.x_clock_ms) == (86400, None, None)
    ask(user, time_control="none")
    game = ask(bob, time_control="none").game
    assert game.time_control.kind == "none" and game.deadline is None


def test_a_different_board_or_time_control_is_not_a_match(user, bob, carol):
    ask(user, variant="3x3", time_control="3+2")
    ask(bob, variant="5x5", time_control="3+2")
    ask(carol, variant="3x3", time_control="5+3")
    assert not Game.objects.exists()
    assert PairingRequest.objects.waiting().count() == 3
    assert PairingPool.objects.count() == 3


def test_who_has_waited_longest_is_paired_first(user, bob, carol):
    # Carol and bob are too far apart for each other; alice fits them both.
    rated(carol, 1200)
    rated(bob, 1390)
    rated(user, 1295)
    ask(carol, 0)
    ask(bob, 1)
    game = ask(user, 2).game
    assert {game.x_player, game.o_player} == {user, carol}
    assert PairingRequest.objects.waiting().get().player == bob


def test_pressing_play_again_while_waiting_keeps_the_same_request(user):
    first = ask(user, 0)
    again = ask(user, 7)
    assert again.pk == first.pk and again.status == "waiting"
    assert again.created_at == at(0) and again.checked_at == at(7)  # still counted from the first press
    assert PairingRequest.objects.count() == 1 and not Game.objects.exists()


def test_asking_for_another_game_while_waiting_is_refused(user):
    ask(user, variant="3x3", time_control="3+2")
    before = stored()
    with pytest.raises(PairingRefused, match="waiting for a 3x3 3\\+2 game already: cancel it first") as refused:
        ask(user, variant="5x5", time_control="10+5")
    assert refused.value.code == "already_waiting"
    assert stored() == before


def test_nobody_is_paired_with_themselves(user):
    ask(user, 0)
    ask(user, 40)  # long enough for any rating
    assert pairing.pairing_match_waiting(at(60)) == 0
    assert not Game.objects.exists()
    request = PairingRequest.objects.get()
    assert not pairing.fits(request, request, at(60))


@pytest.mark.parametrize(
    "kwargs, code, message",
    [
        ({"variant": "9x9"}, "invalid_board", "board '9x9' is not one of 3x3, 4x4, 5x5"),
        ({"time_control": "blitz"}, "invalid_time_control", "'blitz' is not a time control"),
        ({"time_control": "2+1"}, "invalid_time_control", "quick games are played at 1+0, 3+2, 5+3, 10+5, 1d"),
        ({"time_control": "30s"}, "invalid_time_control", "not 30s"),
    ],
)
def test_a_bad_board_or_time_control_is_refused_and_nothing_is_stored(user, kwargs, code, message):
    with pytest.raises(InvalidInput, match=message.replace("+", "\\+")) as refused:
        pairing.pairing_request(player=user, **{"variant": "3x3", "time_control": "3+2", **kwargs})
    assert refused.value.code == code
    assert stored() == {"requests": [], "games": []}


def test_only_a_signed_in_player_is_paired():
    with pytest.raises(NotAPlayer, match="sign in"):
        pairing.pairing_request(player=AnonymousUser(), variant="3x3", time_control="3+2")
    assert not PairingRequest.objects.exists()


# -- the rating range ----------------------------------------------------------------------


def test_the_rating_range_widens_with_the_time_waited():
    assert [pairing.rating_range(s) for s in (0, 4.9, 5, 10, 25, 29.9)] == [100, 100, 150, 200, 350, 350]
    assert pairing.rating_range(30) is None and pairing.rating_range(3600) is None  # any rating


def test_players_far_apart_in_rating_meet_once_both_have_waited(user, bob):
    rated(user, 1200)
    rated(bob, 1400)
    alice_asks, bob_asks = ask(user, 0), ask(bob, 0)
    assert (alice_asks.rating, bob_asks.rating) == (1200, 1400)
    assert not Game.objects.exists()  # 200 apart: ±100 each

    pairing.pairing_check_in(player=user, now=at(5))  # ±150 each: not yet
    assert not Game.objects.exists()

    paired = pairing.pairing_check_in(player=user, now=at(10))  # ±200 each
    assert paired.status == "matched" and {paired.game.x_player, paired.game.o_player} == {user, bob}


def test_both_players_ranges_must_allow_the_difference(user, bob):
    rated(user, 1200)
    rated(bob, 1450)
    ask(user, 0)
    # Alice has waited 25 s (±350) but bob has just asked (±100): not yet.
    assert ask(bob, 25).status == "waiting"
    assert pairing.pairing_match_waiting(at(34)) == 0  # alice: any rating; bob: 9 s, ±150
    # Once bob has waited 15 s his range is ±250: they meet.
    assert pairing.pairing_match_waiting(at(40)) == 1
    assert PairingRequest.objects.filter(status="matched").count() == 2


def test_the_worker_pass_pairs_those_whose_ranges_have_widened(user, bob, carol, django_user_model):
    rated(user, 1000)
    rated(bob, 1600)
    rated(carol, 1300)
    dora = rated(django_user_model.objects.create_user("dora", password="x"), 1310)
    ask(user, 0)
    ask(bob, 0)
    ask(carol, 0, variant="5x5")
    assert pairing.pairing_match_waiting(at(29)) == 0  # 600 apart: ±350 is not enough
    assert pairing.pairing_match_waiting(at(30)) == 1  # any rating
    game = Game.objects.get()
    assert {game.x_player, game.o_player} == {user, bob}
    # A newcomer close in rating on another board is paired the moment they ask.
    assert ask(dora, 31, variant="5x5").status == "matched"
    assert Game.objects.count() == 2


# -- cancelling and expiring -----------------------------------------------------------------


def test_a_cancelled_request_is_not_paired(user, bob):
    asked = ask(user, 0)
    cancelled = pairing.pairing_cancel(player=user, request_id=asked.pk, now=at(3))
    assert (cancelled.status, cancelled.resolved_at) == ("cancelled", at(3))
    assert ask(bob, 4).status == "waiting"
    assert not Game.objects.exists()
    # Cancelled already: said so, and nothing changes.
    with pytest.raises(PairingRefused, match="cancelled already") as refused:
        pairing.pairing_cancel(player=user, request_id=asked.pk)
    assert refused.value.code == "not_waiting"


def test_cancelling_once_paired_is_refused_and_names_the_game(user, bob):
    ask(user, 0)
    game = ask(bob, 1).game
    with pytest.raises(PairingRefused, match=f"paired already: your game is at /games/{game.pk}/") as refused:
        pairing.pairing_cancel(player=user)
    assert (refused.value.code, refused.value.game) == ("already_paired", game)
    assert PairingRequest.objects.filter(status="matched", game=game).count() == 2


def test_only_your_own_request_is_yours_to_cancel(user, bob):
    asked = ask(user, 0)
    with pytest.raises(PairingRequest.DoesNotExist):
        pairing.pairing_cancel(player=bob, request_id=asked.pk)
    with pytest.raises(PairingRequest.DoesNotExist):
        pairing.pairing_cancel(player=bob)  # bob never asked
    assert PairingRequest.objects.get().status == "waiting"


def test_a_request_nobody_checks_in_on_expires(user, bob):
    ask(user, 0)
    # Ten minutes and a second later bob asks: alice's page has long gone quiet.
    assert ask(bob, 601).status == "waiting"
    assert not Game.objects.exists()
    expired = PairingRequest.objects.get(player=user)
    assert (expired.status, expired.resolved_at) == ("expired", at(601))
    # Alice may ask again, and is paired with bob at once.
    assert ask(user, 602).status == "matched"


def test_checking_in_keeps_a_request_alive(user, bob):
    ask(user, 0)
    pairing.pairing_check_in(player=user, now=at(540))
    assert pairing.pairing_match_waiting(at(1000)) == 0  # 460 s since the check-in
    assert ask(bob, 1100).status == "matched"


def test_the_worker_pass_expires_quiet_requests(user):
    ask(user, 0)
    pairing.pairing_match_waiting(at(599))
    assert PairingRequest.objects.get().status == "waiting"
    pairing.pairing_match_waiting(at(601))
    assert PairingRequest.objects.get().status == "expired"


def test_checking_in_after_expiry_says_so_and_pairs_nobody(user, bob):
    asked = ask(user, 0)
    pairing.pairing_match_waiting(at(700))
    ask(bob, 701)
    checked = pairing.pairing_check_in(player=user, request_id=asked.pk, now=at(702))
    assert checked.status == "expired" and not Game.objects.exists()


# -- racing ----------------------------------------------------------------------------------


def _afresh(round_: int = 0):
    """Nothing waiting; every other round no pools either, so that the players
    race to make the pool too (which alone would serialise them on PostgreSQL,
    through its unique index, hiding a missing lock)."""
    PairingRequest.objects.all().delete()
    Game.objects.all().delete()
    if round_ % 2:
        PairingPool.objects.all().delete()


ROUNDS = 15


@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_play_at_once_make_exactly_one_game(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    for round_ in range(ROUNDS):
        _afresh(round_)
        results = at_once(
            lambda: pairing.pairing_request(player=alice, variant="3x3", time_control="1+0")[0],
            lambda: pairing.pairing_request(player=bob, variant="3x3", time_control="1+0")[0],
        )
        assert all(isinstance(result, PairingRequest) for result in results), results
        game = Game.objects.get()  # one game, never two or none
        assert {game.x_player, game.o_player} == {alice, bob}
        assert set(PairingRequest.objects.values_list("status", "game")) == {("matched", game.pk)}
        assert PairingRequest.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_six_players_at_once_make_three_games_each_player_in_one(django_user_model):
    players = [django_user_model.objects.create_user(f"player{i}", password="x") for i in range(6)]
    for round_ in range(6):
        _afresh(round_)
        at_once(*(lambda p=p: pairing.pairing_request(player=p, variant="4x4", time_control="5+3")[0] for p in players))
        games = list(Game.objects.all())
        assert len(games) == 3
        seats = [seat for game in games for seat in (game.x_player_id, game.o_player_id)]
        assert sorted(seats) == sorted(p.pk for p in players)  # everyone once, nobody against themselves
        assert not PairingRequest.objects.waiting().exists()


@pytest.mark.django_db(transaction=True)
def test_cancelling_while_someone_presses_play_never_leaves_a_cancelled_player_in_a_game(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    outcomes = set()
    for round_ in range(ROUNDS):
        _afresh(round_)
        waiting = pairing.pairing_request(player=alice, variant="3x3", time_control="3+2")[0]
        cancel, play = at_once(
            lambda pk=waiting.pk: pairing.pairing_cancel(player=alice, request_id=pk),
            lambda: pairing.pairing_request(player=bob, variant="3x3", time_control="3+2")[0],
        )
        alices = PairingRequest.objects.get(player=alice)
        if isinstance(cancel, PairingRefused):  # bob was first: they play
            assert cancel.code == "already_paired" and alices.status == "matched"
            assert Game.objects.get() == alices.game == PairingRequest.objects.get(player=bob).game
        else:  # alice was first: bob waits
            assert alices.status == "cancelled" and play.status == "waiting"
            assert not Game.objects.exists()
        outcomes.add(alices.status)
    assert outcomes <= {"matched", "cancelled"}


@pytest.mark.django_db(transaction=True)
def test_one_player_asking_for_two_games_at_once_waits_for_one(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x")
    for round_ in range(ROUNDS):
        _afresh(round_)
        results = at_once(
            lambda: pairing.pairing_request(player=alice, variant="3x3", time_control="3+2")[0],
            lambda: pairing.pairing_request(player=alice, variant="5x5", time_control="10+5")[0],
        )
        refused = [r for r in results if isinstance(r, PairingRefused)]
        assert len(refused) == 1 and refused[0].code == "already_waiting", results
        assert PairingRequest.objects.waiting().count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_player_asking_for_the_same_game_three_times_at_once_makes_one_request(django_user_model):
    """The first asking makes the request (the API's 201); the others keep it (200)."""
    alice = django_user_model.objects.create_user("alice", password="x")
    for round_ in range(ROUNDS):
        _afresh(round_)
        results = at_once(*[lambda: pairing.pairing_request(player=alice, variant="3x3", time_control="3+2")] * 3)
        assert all(isinstance(result, tuple) for result in results), results
        assert {request.pk for request, _ in results} == {PairingRequest.objects.get().pk}
        assert sorted(created for _, created in results) == [False, False, True]
