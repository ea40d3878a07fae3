"""Clocks: time controls, time charged by the server, and games ended on time
by the worker whether or not anyone is connected."""

import threading
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import connection

from games import worker
from games.errors import InvalidInput, MoveRefused
from games.play import clocks, live, services
from games.play.clocks import TimeControl
from games.play.models import Game
from games.play.players import Player
from games.stats.models import PlayerStats
from tests.factories import human_game, time_passes

pytestmark = pytest.mark.django_db


def _move(game, user, cell):
    game.refresh_from_db()
    return services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count).game


# -- time controls ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, label",
    [
        ("1+0", "1+0 (1 minute)"),
        ("3+2", "3+2 (3 minutes + 2 s a move)"),
        ("5+3", "5+3 (5 minutes + 3 s a move)"),
        ("3d", "3 days per move"),
        ("none", "No limit"),
        ("30s", "30 seconds per move"),
    ],
)
def test_a_time_control_reads_back_as_it_was_given(key, label):
    control = TimeControl.parse(key)
    assert (control.key, control.label) == (key, label)


@pytest.mark.parametrize(
    "key, reason",
    [
        ("0+5", "1 to 180 minutes"),
        ("181+0", "1 to 180 minutes"),
        ("3+61", "0 to 60 seconds"),
        ("2d", "1, 3 or 7 days"),
        ("45s", "30, 60 or 300"),
        ("bullet", "not a time control"),
    ],
)
def test_a_time_control_out_of_bounds_is_refused_with_the_reason(key, reason):
    with pytest.raises(ValueError, match=reason):
        TimeControl.parse(key)


def test_a_clock_reads_like_a_chess_clock():
    assert [clocks.format_ms(ms) for ms in (180_000, 61_000, 9_950, 0, -5, 3_723_000)] == [
        "3:00",
        "1:01",
        "0:09.9",
        "0:00.0",
        "0:00.0",
        "1:02:03",
    ]


# -- the server's clock -----------------------------------------------------------------------


def test_first_moves_are_free_then_the_server_charges_the_time_it_saw_and_adds_the_increment(user, bob):
    game = human_game(user, bob, cells=[], time_control="3+2")
    assert (game.x_clock_ms, game.o_clock_ms) == (180_000, 180_000)
    assert game.clock_running_for is None and game.clock_state()["first_move"]
    time_passes(game, 20)
    game = _move(game, user, 4)  # X's first move: twenty seconds, not charged
    time_passes(game, 20)
    game = _move(game, bob, 0)  # O's too
    assert (game.x_clock_ms, game.o_clock_ms) == (180_000, 180_000)
    assert game.clock_running_for == "X"
    time_passes(game, 10)
    game = _move(game, user, 8)
    # Ten seconds, less the lag allowance, plus the two-second increment.
    charged = 180_000 - game.x_clock_ms + 2_000
    assert 10_000 - clocks.LAG_ALLOWANCE_MS <= charged < 10_000 - clocks.LAG_ALLOWANCE_MS + 1_000
    assert game.o_clock_ms == 180_000 and game.clock_running_for == "O"
    # O's deadline: its whole clock, plus the allowance, from the moment X's move was stored.
    assert game.deadline == game.turn_started_at + timedelta(milliseconds=180_000 + clocks.LAG_ALLOWANCE_MS)


def test_a_move_that_arrives_after_the_deadline_is_refused_and_the_game_ends_on_time(user, bob):
    game = human_game(user, bob, cells=[4, 0, 8], time_control="1+0")
    time_passes(game, 61)
    with pytest.raises(MoveRefused, match="your time ran out") as refused:
        _move(game, bob, 2)
    assert refused.value.code == "out_of_time"
    game.refresh_from_db()
    assert (game.status, game.result, game.ending, game.move_count) == ("finished", "x_won", "on time", 3)
    assert game.o_clock_ms == 0 and game.deadline is None


def test_a_first_move_never_made_aborts_a_clock_game_after_thirty_seconds_unrated(user, bob):
    game = human_game(user, bob, cells=[4], time_control="3+2")
    assert game.deadline == game.turn_started_at + timedelta(seconds=clocks.first_move_seconds())
    time_passes(game, clocks.first_move_seconds() - 1)
    assert worker.end_games_out_of_time() == 0
    time_passes(game, 2)
    assert worker.end_games_out_of_time() == 1
    game.refresh_from_db()
    assert (game.status, game.result) == ("aborted", "")
    assert not PlayerStats.objects.filter(rated_games__gt=0).exists()


def test_running_out_when_the_opponent_can_no_longer_win_is_a_draw(user, bob):
    # Every line holds an X: O cannot make one however the game went on.
    game = human_game(user, bob, cells=[4, 0, 1, 7, 6, 2, 5, 3], time_control="30s")
    assert not game.board.can_still_win("O")
    time_passes(game, 31)
    assert worker.end_games_out_of_time() == 1
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "draw", "timeout")


def test_no_time_control_has_no_deadline_at_all(user, bob):
    game = human_game(user, bob, cells=[4, 0])
    assert game.deadline is None and game.clock_state() is None
    time_passes(game, 365 * 86400)
    assert worker.end_games_out_of_time() == 0


def test_a_bad_time_control_is_refused_and_nothing_is_stored(user):
    with pytest.raises(InvalidInput, match="not a time control"):
        services.game_create_against_ai(player=Player(user=user), time_control="lightning")
    assert not Game.objects.exists()


# -- against the AI ----------------------------------------------------------------------------


def test_against_the_ai_only_the_person_has_a_clock_and_the_ai_s_thinking_is_not_charged(user, monkeypatch):
    player = Player(user=user)
    game = services.game_create_against_ai(player=player, variant="4x4", side="X", time_control="1+0", seed=7)
    assert (game.x_clock_ms, game.o_clock_ms) == (60_000, None)
    game = services.game_play_move(game_id=game.pk, player=player, cell=5, ply=0).game
    game = services.game_play_move(game_id=game.pk, player=player, cell=game.board.legal_moves[0], ply=2).game
    assert game.clock_running_for == "X" and game.clock_state()["o_ms"] is None
    thinks = services.engine.best_move

    def slow_ai(*args, **kwargs):
        time.sleep(2.0)  # charged, it would show
        return thinks(*args, **kwargs)

    monkeypatch.setattr(services.engine, "best_move", slow_ai)
    game = services.game_play_move(game_id=game.pk, player=player, cell=game.board.legal_moves[0], ply=4).game
    assert game.move_count == 6
    # The person's turn began when the AI's reply was stored, two seconds after their move.
    assert game.turn_started_at - game.moves.get(ply=4).created_at >= timedelta(seconds=2)
    monkeypatch.setattr(services.engine, "best_move", thinks)
    game = services.game_play_move(game_id=game.pk, player=player, cell=game.board.legal_moves[0], ply=6).game
    # Their answer came at once: far less than the two seconds the AI took was charged.
    assert game.x_clock_ms > 59_000


# -- the worker ----------------------------------------------------------------------------------


def test_the_worker_ends_a_flagged_game_with_nobody_connected_and_pushes_the_result(
    user, bob, django_capture_on_commit_callbacks
):
    game = human_game(user, bob, cells=[4, 0, 8], time_control="1+0")
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(live.game_group(game.pk), channel)
    time_passes(game, 61)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("run_worker", "--once")
    game.refresh_from_db()
    assert (game.status, game.result, game.ending) == ("finished", "x_won", "on time")
    message = async_to_sync(layer.receive)(channel)
    assert (message["event"], message["status"], message["flagged"]) == ("timeout", "finished", "O")


def test_a_worker_started_after_a_stop_catches_up_on_every_game_that_ran_out(user, bob):
    games = [human_game(user, bob, cells=[4, 0, 8], time_control="1+0") for _ in range(3)]
    waiting = human_game(user, bob, cells=[4, 0, 8], time_control="10+0")
    for game in games:
        time_passes(game, 3600)  # an hour with no worker
    stop = threading.Event()
    stop.set()  # one pass, then stop
    assert worker.end_games_out_of_time() == 3
    worker.run(stop)
    assert set(Game.objects.values_list("status", flat=True).filter(pk__in=[g.pk for g in games])) == {"finished"}
    assert Game.objects.get(pk=waiting.pk).status == "in_progress"


@pytest.mark.django_db(transaction=True)
def test_several_workers_at_once_end_each_flagged_game_exactly_once(user, bob):
    games = [human_game(user, bob, cells=[4, 0, 8], time_control="1+0") for _ in range(6)]
    for game in games:
        time_passes(game, 120)
    ended, barrier = [], threading.Barrier(4)

    def one_worker():
        try:
            barrier.wait()
            ended.append(worker.end_games_out_of_time())
        finally:
            connection.close()

    threads = [threading.Thread(target=one_worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(ended) == 6
    assert PlayerStats.objects.get(user=user).rated_wins == 6
    assert PlayerStats.objects.get(user=bob).rated_losses == 6
