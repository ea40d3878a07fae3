"""Playing against the AI through the services: what is stored, what is refused."""

import threading
import time

import pytest
from django.db import connection, transaction

from games.accounts import services as accounts_services
from games.engine import Board
from games.errors import InvalidInput, MoveRefused, NotAPlayer
from games.play import services
from games.play.models import Game, Move, Status
from games.play.players import Player, new_guest_key
from tests.engine import reference
from tests.factories import stopped_before_the_ai_replied

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(user):
    return Player(user=user)


def _new(player, **kwargs):
    kwargs.setdefault("side", "X")
    kwargs.setdefault("seed", 1)
    return services.game_create_against_ai(player=player, **kwargs)


def _play(game, player, cell):
    return services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=game.move_count).game


def test_a_new_game_as_x_waits_for_the_player(alice, user):
    game = _new(alice)
    assert game.x_player == user and game.o_player is None
    assert game.ai_side == "O" and game.status == Status.IN_PROGRESS
    assert game.move_count == 0 and str(game.board) == "........."


def test_when_the_ai_plays_x_its_first_move_is_already_made(alice):
    game = _new(alice, side="O", start_mode="centre")
    assert game.move_count == 1
    assert game.cells == [4]
    assert game.board.to_move == "O"


def test_random_side_gives_each_side_sometimes(alice):
    sides = {_new(alice, side="random").human_side for _ in range(30)}
    assert sides == {"X", "O"}


def test_every_move_is_stored_the_moment_it_is_made(alice):
    game = _new(alice)
    game = _play(game, alice, 0)
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [0, 1]
    assert game.move_count == 2
    assert game.board == Board.from_moves(game.cells)


@pytest.mark.parametrize("seed", range(4))
def test_the_perfect_ai_wins_when_the_player_blunders_and_the_game_ends(alice, seed):
    """The player throws the draw away at the first chance (a losing cell by
    the independent referee); from then on the perfect AI must win on the board."""
    game = _new(alice, level="perfect", seed=seed)
    blundered = False
    while game.status == Status.IN_PROGRESS:
        position = str(game.board)
        values = reference.move_values(position)
        losing = [cell for cell, score in values.items() if score < 0]
        cell = losing[0] if losing and not blundered else max(values, key=values.get)
        blundered |= values[cell] < 0
        game = _play(game, alice, cell)
    assert blundered, "the player never had a losing move to make"
    assert game.status == Status.FINISHED and game.finished_at is not None
    assert (game.result, game.termination) == ("o_won", "line")
    assert reference.winner(str(game.board)) == "O"
    assert game.outcome_for("X") == "lost"


def test_a_full_game_against_perfect_never_ends_in_a_win_for_the_player(alice):
    for seed in range(5):
        game = _new(alice, seed=seed)
        while game.status == Status.IN_PROGRESS:
            game = _play(game, alice, game.board.legal_moves[-1])
        assert game.result != "x_won"


def _snapshot(game):
    game.refresh_from_db()
    return (game.move_count, game.status, list(game.moves.values_list("ply", "cell")))


def test_an_occupied_cell_is_refused_and_nothing_changes(alice):
    game = _play(_new(alice), alice, 4)
    before = _snapshot(game)
    with pytest.raises(MoveRefused, match="cell 4 is occupied") as refused:
        services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=game.move_count)
    assert refused.value.code == "occupied"
    assert refused.value.game.move_count == before[0]  # the current game comes back
    assert _snapshot(game) == before


def test_on_3x3_the_ai_replies_in_the_same_call(alice):
    game = _new(alice)
    result = services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0)
    assert result.applied
    assert result.game.move_count == 2 and result.game.cells[0] == 0
    assert not result.game.awaits_ai
    assert list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True)) == [0, 1]


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_on_larger_boards_the_ais_reply_is_part_of_the_move(alice, variant):
    game = _new(alice, variant=variant)
    result = services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0)
    assert result.applied
    assert result.game.move_count == 2 and result.game.cells[0] == 0
    assert result.game.board.to_move == "X" and not result.game.awaits_ai
    assert list(Move.objects.filter(game=game).order_by("ply").values_list("cell", flat=True)) == result.game.cells


def test_a_move_out_of_turn_is_refused(alice):
    # On 4x4, X has moved and the AI has not answered yet: it is O's turn, not the player's.
    game = stopped_before_the_ai_replied(_new(alice, variant="4x4"), 0)
    assert game.awaits_ai
    before = _snapshot(game)
    with pytest.raises(MoveRefused, match="it is O's turn") as refused:
        services.game_play_move(game_id=game.pk, player=alice, cell=1, ply=1)
    assert refused.value.code == "not_your_turn"
    assert _snapshot(game) == before


def test_a_reply_left_owed_is_made_when_a_player_asks(alice, django_user_model):
    game = stopped_before_the_ai_replied(_new(alice, variant="4x4"), 0)
    stranger = Player(user=django_user_model.objects.create_user("stranger", password="x"))
    with pytest.raises(NotAPlayer):
        services.game_play_owed_ai_move(game_id=game.pk, player=stranger)
    assert _snapshot(game)[0] == 1
    game = services.game_play_owed_ai_move(game_id=game.pk, player=alice)
    assert game.move_count == 2 and game.board.to_move == "X"
    with pytest.raises(MoveRefused, match="owes no move") as refused:
        services.game_play_owed_ai_move(game_id=game.pk, player=alice)
    assert refused.value.code == "no_move_owed"
    assert _snapshot(game)[0] == 2


def test_repeating_a_move_whose_reply_was_left_owed_makes_the_reply(alice):
    game = stopped_before_the_ai_replied(_new(alice, variant="4x4"), 5)
    result = services.game_play_move(game_id=game.pk, player=alice, cell=5, ply=0)
    assert not result.applied
    assert result.game.move_count == 2 and result.game.cells[0] == 5


def test_a_stale_ply_is_refused(alice):
    game = _play(_new(alice), alice, 4)
    before = _snapshot(game)
    with pytest.raises(MoveRefused, match="moved on") as refused:
        services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0)
    assert refused.value.code == "stale_ply"
    assert _snapshot(game) == before


def test_a_double_click_is_applied_once(alice):
    game = _new(alice)
    first = services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0)
    second = services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0)
    assert first.applied and not second.applied
    assert list(Move.objects.filter(game=game).values_list("ply", "cell").order_by("ply"))[0] == (0, 4)
    assert Move.objects.filter(game=game).count() == 2  # the click and the AI's one reply


def test_a_finished_game_refuses_moves(alice):
    game = _new(alice)
    services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0)
    game = services.game_resign(game_id=game.pk, player=alice)
    assert (game.status, game.result, game.termination) == ("finished", "o_won", "resigned")
    with pytest.raises(MoveRefused, match="the game is finished") as refused:
        services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=2)
    assert refused.value.code == "game_over"
    assert game.moves.count() == 2  # the move before resigning, and the AI's reply


def test_someone_elses_game_is_refused(alice, django_user_model):
    game = _new(alice)
    mallory = Player(user=django_user_model.objects.create_user("mallory", password="x"))
    with pytest.raises(NotAPlayer):
        services.game_play_move(game_id=game.pk, player=mallory, cell=0, ply=0)
    with pytest.raises(NotAPlayer):
        services.game_resign(game_id=game.pk, player=mallory)
    with pytest.raises(NotAPlayer):
        services.game_play_move(game_id=game.pk, player=Player(guest_key="someone"), cell=0, ply=0)
    assert game.moves.count() == 0


@pytest.mark.parametrize("cell, message", [("a", "not a whole number"), (9, "off the 3x3 board"), (-1, "off the")])
def test_a_malformed_cell_is_invalid_input(alice, cell, message):
    game = _new(alice)
    with pytest.raises(InvalidInput, match=message):
        services.game_play_move(game_id=game.pk, player=alice, cell=cell, ply=0)
    assert game.moves.count() == 0


@pytest.mark.parametrize("cell", ["\u0663", "\uff13", "\u09e9", "1_0", "+3", "3.0", 3.0, float("inf"), True])
def test_a_cell_is_ascii_digits_only(alice, cell):
    """int() reads "\u0663" (Arabic-Indic three), a fullwidth three and "1_0":
    a cell is a whole number in ASCII digits (or a JSON integer), nothing else."""
    game = _new(alice)
    with pytest.raises(InvalidInput, match="not a whole number"):
        services.game_play_move(game_id=game.pk, player=alice, cell=cell, ply=0)
    assert game.moves.count() == 0


@pytest.mark.parametrize("ply", ["\u0660", "0_0", "+0", 0.0, float("inf"), None])
def test_a_ply_is_ascii_digits_only(alice, ply):
    game = _new(alice)
    with pytest.raises(InvalidInput, match="not a whole number") as refusal:
        services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=ply)
    assert refusal.value.code == "invalid_ply"
    assert game.moves.count() == 0


def test_a_form_s_cell_and_ply_may_have_spaces_around_them(alice):
    game = _new(alice)
    services.game_play_move(game_id=game.pk, player=alice, cell=" 4 ", ply="0 ")
    assert Move.objects.get(game=game, ply=0).cell == 4


def test_an_unknown_level_or_variant_creates_nothing(alice):
    with pytest.raises(InvalidInput, match="level 'genius'"):
        _new(alice, level="genius")
    with pytest.raises(InvalidInput, match="variant '6x6'"):
        _new(alice, variant="6x6")
    assert Game.objects.count() == 0


def test_a_rematch_swaps_sides_and_keeps_the_settings(alice):
    game = services.game_resign(game_id=_new(alice, level="hard", variant="4x4").pk, player=alice)
    rematch = services.game_rematch(game_id=game.pk, player=alice)
    assert rematch.human_side == "O" and rematch.ai_side == "X"
    assert (rematch.variant, rematch.ai_level, rematch.rematch_of_id) == ("4x4", "hard", game.pk)
    assert rematch.move_count == 1  # the AI, now X, has opened


def test_a_guests_games_move_to_the_account_they_create(django_user_model):
    guest = Player(guest_key=new_guest_key())
    game = _play(_new(guest), guest, 4)
    assert game.x_player is None and game.player_name("X") == "Guest"
    user = django_user_model.objects.create_user("newbie", password="x")
    assert accounts_services.games_adopt_guest(user=user, guest_key=guest.guest_key) == 1
    game.refresh_from_db()
    assert game.x_player == user and game.guest_key == ""
    assert game.side_of(user) == "X"


def test_abort_ends_only_unfinished_games(alice):
    game = _new(alice)
    assert services.game_abort(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "aborted" and game.result == ""
    assert not services.game_abort(game_id=game.pk)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_moves_for_one_ply_store_exactly_one(django_user_model):
    user = django_user_model.objects.create_user("racer", password="x")
    player = Player(user=user)
    game = _new(player)
    threads_n = 12
    barrier = threading.Barrier(threads_n)
    outcomes = []

    def attempt(cell):
        try:
            barrier.wait()
            result = services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=0)
            outcomes.append(("ok", result.applied))
        except MoveRefused as refused:
            outcomes.append(("refused", refused.code))
        except Exception as error:  # anything else would be a server error
            outcomes.append(("error", repr(error)))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(cell % 9,)) for cell in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [o for o in outcomes if o[0] == "error"] == []
    assert Move.objects.filter(game=game, ply=0).count() == 1
    applied = [o for o in outcomes if o == ("ok", True)]
    assert len(applied) == 1
    game.refresh_from_db()
    assert game.move_count == 2  # the one move that won, and the AI's reply to it
    # The others were told: a repeat of the winning cell is the same move again
    # (not applied), any other cell a refusal for a ply already taken.
    winner = game.cells[0]
    same_cell = sum(1 for cell in range(threads_n) if cell % 9 == winner)
    assert sorted(outcomes) == sorted(
        [("ok", True)] + [("ok", False)] * (same_cell - 1) + [("refused", "stale_ply")] * (threads_n - same_cell)
    )


def _until_a_statement_waits_for_a_lock():
    """Until another connection waits for a row lock (PostgreSQL); on SQLite,
    whose writers wait at BEGIN, a moment for the other thread to get there."""
    if connection.vendor != "postgresql":
        time.sleep(0.3)
        return
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # read afresh: this is inside a transaction
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the second move never waited for the first")


@pytest.mark.django_db(transaction=True)
def test_a_move_that_waited_for_the_one_before_is_judged_on_the_board_that_one_left(django_user_model):
    # The second request reads the game while the first holds it: once the first
    # commits, the second must see its moves (PostgreSQL reads other tables as
    # they were when a statement began, the locked row as it is now).
    player = Player(user=django_user_model.objects.create_user("waiter", password="x"))
    game = _new(player)
    outcome = {}

    def second_move():
        try:
            services.game_play_move(game_id=game.pk, player=player, cell=4, ply=2)
            outcome["applied"] = True
        except MoveRefused as refused:
            outcome["refused"] = refused.code
            outcome["message"] = refused.message
        except Exception as error:  # anything else would be a server error
            outcome["error"] = repr(error)
        finally:
            connection.close()

    with transaction.atomic():
        services.game_play_move(game_id=game.pk, player=player, cell=4, ply=0)
        waiting = threading.Thread(target=second_move)
        waiting.start()
        _until_a_statement_waits_for_a_lock()
    waiting.join(10)

    assert outcome.get("refused") == "occupied", outcome
    assert outcome["message"].startswith("cell 4 is occupied")
    game.refresh_from_db()
    assert game.move_count == 2 and game.cells[0] == 4


def test_a_reloaded_game_shows_the_moves_made_since(alice):
    game = _new(alice)
    assert game.cells == []
    services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0)
    game.refresh_from_db()
    assert game.move_count == 2 and len(game.cells) == 2 and game.cells[0] == 4
    assert str(game.board).count(".") == 7
