"""Draw offers and takebacks through the services: what is stored, what is
refused (and then nothing stored changes), and answers racing each other or a move."""

from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from games.errors import GameError, MoveRefused
from games.lobby import services as lobby_services
from games.play import offers, services
from games.play.integrity import verify_games
from games.play.models import Game, Move, TakenBack
from games.play.players import Player
from games.stats.models import PlayerStats
from tests.factories import stopped_before_the_ai_replied
from tests.races import at_once, refusal_codes

pytestmark = pytest.mark.django_db


def _game(x, o, **terms) -> Game:
    """``x`` against ``o``, ``x`` playing X."""
    challenge = lobby_services.challenge_create(challenger=x, side="X", **terms)
    return lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)


def _move(game, user, cell) -> Game:
    game.refresh_from_db()
    return services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count).game


def _stored(game) -> dict:
    return {
        "game": Game.objects.filter(pk=game.pk).values().get(),
        "moves": list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "cell")),
        "stats": list(PlayerStats.objects.order_by("pk").values()),
    }


def _refused(action, code, game, **kwargs):
    """``action`` is refused with ``code`` and changes nothing stored; the refusal carries the game."""
    before = _stored(game)
    with pytest.raises(GameError) as refusal:
        action(game_id=game.pk, **kwargs)
    assert refusal.value.code == code, refusal.value.message
    assert refusal.value.game is not None and refusal.value.game.pk == game.pk
    assert _stored(game) == before
    return refusal.value


def _problems(game) -> list:
    return list(verify_games(Game.objects.filter(pk=game.pk)))


# -- draws ----------------------------------------------------------------------------------


def test_a_draw_offered_and_accepted_ends_the_game_as_an_agreed_draw_counted_for_both(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    _move(game, bob, 0)
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    assert game.draw_offer == "X" and game.is_in_progress

    game = offers.game_answer_draw(game_id=game.pk, player=Player(user=bob), accept=True)

    assert (game.status, game.result, game.termination) == ("finished", "draw", "agreed")
    assert game.ending == "agreed draw" and game.outcome_for("X") == game.outcome_for("O") == "drawn"
    assert game.draw_offer == "" and game.finished_at is not None
    for player in (user, bob):
        stats = PlayerStats.objects.get(user=player)
        assert (stats.rated_games, stats.rated_draws, stats.games) == (1, 1, 1)
    assert _problems(game) == []


def test_a_draw_may_be_offered_on_either_turn_and_declined(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)  # O to move: bob offers on his own turn, alice may on his too
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=bob))
    assert game.draw_offer == "O"
    game = offers.game_answer_draw(game_id=game.pk, player=Player(user=user), accept=False)
    assert game.draw_offer == "" and game.is_in_progress
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=user))  # on bob's turn
    assert game.draw_offer == "X"


def test_offering_twice_changes_nothing(user, bob):
    game = _game(user, bob)
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    before = _stored(game)
    again = offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    assert again.draw_offer == "X" and _stored(game) == before


def test_offering_while_the_opponent_s_offer_stands_accepts_it(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    _move(game, bob, 0)
    offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=bob))
    assert (game.status, game.result, game.termination) == ("finished", "draw", "agreed")


@pytest.mark.parametrize("moves", [[], [4]])
def test_a_draw_agreed_before_both_sides_have_moved_aborts_the_game_unrated(user, bob, moves):
    game = _game(user, bob)
    for cell in moves:
        _move(game, user, cell)
    offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    game = offers.game_answer_draw(game_id=game.pk, player=Player(user=bob), accept=True)
    assert (game.status, game.result, game.termination) == ("aborted", "", "")
    assert not PlayerStats.objects.exists() and _problems(game) == []


def test_the_offerer_cannot_answer_their_own_offer(user, bob):
    game = _game(user, bob)
    game = offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    for accept in (True, False):
        _refused(offers.game_answer_draw, "own_offer", game, player=Player(user=user), accept=accept)


def test_an_offer_lapses_when_its_player_moves_not_when_the_opponent_does(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    offers.game_offer_draw(game_id=game.pk, player=Player(user=user))  # on bob's turn
    assert _move(game, bob, 0).draw_offer == "X"  # bob played on: the offer still stands
    game = _move(game, user, 8)
    assert game.draw_offer == ""  # alice moved: her offer lapsed
    refusal = _refused(offers.game_answer_draw, "no_draw_offer", game, player=Player(user=bob), accept=True)
    assert "lapsed" in refusal.message


def test_no_draw_is_answered_without_an_offer(user, bob):
    game = _game(user, bob)
    for accept in (True, False):
        _refused(offers.game_answer_draw, "no_draw_offer", game, player=Player(user=bob), accept=accept)


def test_a_finished_game_takes_no_offer_and_spectators_none_at_all(user, bob, carol):
    game = _game(user, bob)
    _refused(offers.game_offer_draw, "not_a_player", game, player=Player(user=carol))
    offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    _refused(offers.game_answer_draw, "not_a_player", game, player=Player(user=carol), accept=True)
    game = services.game_resign(game_id=game.pk, player=Player(user=bob))
    assert game.draw_offer == ""  # the game's end clears any offer
    _refused(offers.game_offer_draw, "game_over", game, player=Player(user=user))
    _refused(offers.game_answer_draw, "game_over", game, player=Player(user=bob), accept=True)
    with pytest.raises(Game.DoesNotExist):
        offers.game_offer_draw(game_id=999999, player=Player(user=user))


def test_the_ai_takes_no_draw_offer_and_plays_on(user):
    player = Player(user=user)
    game = services.game_create_against_ai(player=player, side="X", seed=1)
    game = services.game_play_move(game_id=game.pk, player=player, cell=4, ply=0).game
    refusal = _refused(offers.game_offer_draw, "no_draws_with_ai", game, player=player)
    assert "play on" in refusal.message
    _refused(offers.game_answer_draw, "no_draw_offer", game, player=player, accept=True)
    cell = game.board.legal_moves[0]
    assert services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=2).game.move_count == 4


def test_an_offer_after_the_player_to_move_ran_out_of_time_ends_the_game_on_time(user, bob):
    game = _game(user, bob, time_control="1d")
    _move(game, user, 4)
    _move(game, bob, 0)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # X's day is up
    with pytest.raises(MoveRefused) as refusal:
        offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
    assert refusal.value.code == "out_of_time"
    game.refresh_from_db()
    assert (game.status, game.result, game.termination, game.draw_offer) == ("finished", "o_won", "timeout", "")


# -- takebacks between people -----------------------------------------------------------------


def test_without_agreeing_to_takebacks_none_is_asked_for(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    assert not game.takebacks_allowed
    _refused(offers.game_request_takeback, "takebacks_not_allowed", game, player=Player(user=user))


def test_a_takeback_accepted_removes_the_move_and_gives_the_turn_back(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    assert game.takebacks_allowed
    _move(game, user, 4)
    _move(game, bob, 0)
    _move(game, user, 8)
    offers.game_offer_draw(game_id=game.pk, player=Player(user=bob))
    game = offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    assert game.takeback_offer == "X" and game.move_count == 3

    game = offers.game_answer_takeback(game_id=game.pk, player=Player(user=bob), accept=True, ply=3)

    assert game.move_count == 2 and game.cells == [4, 0] and game.board.to_move == "X"
    assert list(Move.objects.filter(game=game).values_list("cell", flat=True)) == [4, 0]
    assert (game.takeback_offer, game.draw_offer) == ("", "")  # a takeback answers every offer
    assert game.turn_started_at > game.created_at and game.is_in_progress
    # Alice plays another move instead, and the game goes on.
    assert _move(game, user, 2).cells == [4, 0, 2]
    assert _problems(game) == []
    # The move taken back stays in the game's record: which, whose, agreed by whom.
    (kept,) = TakenBack.objects.filter(game=game)
    assert (kept.ply, kept.cells, kept.side, kept.agreed_by) == (2, [8], "X", "O")


def test_a_takeback_against_the_ai_is_kept_with_the_ais_reply(user):
    game = services.game_create_against_ai(player=Player(user=user), side="X", level="easy", seed=3)
    game = services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0).game
    reply = game.cells[1]
    offers.game_take_back_against_ai(game_id=game.pk, player=Player(user=user))
    (kept,) = TakenBack.objects.filter(game=game)
    assert (kept.ply, kept.cells, kept.side, kept.agreed_by) == (0, [4, reply], "X", "")


def test_a_takeback_declined_leaves_the_move(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    _move(game, user, 4)
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    game = offers.game_answer_takeback(game_id=game.pk, player=Player(user=bob), accept=False)
    assert game.takeback_offer == "" and game.cells == [4]


def test_only_your_own_unanswered_last_move_is_taken_back(user, bob, carol):
    game = _game(user, bob, takebacks_allowed=True)
    _refused(offers.game_request_takeback, "nothing_to_take_back", game, player=Player(user=user))
    _move(game, user, 4)
    _refused(offers.game_request_takeback, "nothing_to_take_back", game, player=Player(user=bob))
    _move(game, bob, 0)
    refusal = _refused(offers.game_request_takeback, "move_answered", game, player=Player(user=user))
    assert "only a move not answered yet" in refusal.message  # bob answered alice's move
    _refused(offers.game_request_takeback, "not_a_player", game, player=Player(user=carol))
    _move(game, user, 8)
    _refused(offers.game_request_takeback, "move_answered", game, player=Player(user=bob))


def test_asking_twice_changes_nothing_and_the_asker_cannot_answer(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    _move(game, user, 4)
    game = offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    before = _stored(game)
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    assert _stored(game) == before
    _refused(offers.game_answer_takeback, "own_offer", game, player=Player(user=user), accept=True)


def test_a_request_lapses_when_the_opponent_moves_and_a_late_accept_is_refused(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    _move(game, user, 4)
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    game = _move(game, bob, 0)
    assert game.takeback_offer == ""
    # The page bob answered from showed the request at ply 1.
    refusal = _refused(offers.game_answer_takeback, "takeback_stale", game, player=Player(user=bob), accept=True, ply=1)
    assert "already answered" in refusal.message
    _refused(offers.game_answer_takeback, "no_takeback_request", game, player=Player(user=bob), accept=True)
    _refused(offers.game_answer_takeback, "invalid_ply", game, player=Player(user=bob), accept=True, ply="one")
    _refused(offers.game_answer_takeback, "invalid_ply", game, player=Player(user=bob), accept=True, ply="\u0661")
    # A later request is a new one, and a page that saw the old one cannot accept it.
    _move(game, user, 8)
    game = offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    _refused(offers.game_answer_takeback, "takeback_stale", game, player=Player(user=bob), accept=True, ply=1)


def test_no_takeback_across_a_finished_game(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    for ply, cell in enumerate([0, 3, 1, 4]):
        _move(game, (user, bob)[ply % 2], cell)
    offers.game_request_takeback(game_id=game.pk, player=Player(user=bob))
    game = _move(game, user, 2)  # X completes the top row
    assert game.status == "finished" and game.takeback_offer == ""
    _refused(offers.game_request_takeback, "game_over", game, player=Player(user=user))
    _refused(offers.game_answer_takeback, "game_over", game, player=Player(user=bob), accept=True)


def test_a_takeback_on_a_clock_takes_the_increment_back_and_charges_the_waiting_time(user, bob):
    game = _game(user, bob, time_control="3+2", takebacks_allowed=True)
    _move(game, user, 4)
    _move(game, bob, 0)
    game = _move(game, user, 8)  # X's second move: charged, and 2 s added
    x_after_move, o_left = game.x_clock_ms, game.o_clock_ms
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    # Bob thinks for ten seconds on his own clock before accepting.
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=10))

    game = offers.game_answer_takeback(game_id=game.pk, player=Player(user=bob), accept=True)

    assert game.x_clock_ms == x_after_move - 2000
    assert o_left - 10_000 <= game.o_clock_ms <= o_left - 9_000  # less the lag allowance
    assert game.clock_running_for == "X"
    assert game.deadline == game.turn_started_at + timedelta(milliseconds=game.x_clock_ms + 500)


def test_a_first_move_taken_back_gives_the_first_move_window_again(user, bob, settings):
    game = _game(user, bob, time_control="3+2", takebacks_allowed=True)
    game = _move(game, user, 4)
    assert game.x_clock_ms == 180_000  # a first move costs nothing and earns no increment
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
    game = offers.game_answer_takeback(game_id=game.pk, player=Player(user=bob), accept=True)
    assert game.move_count == 0 and game.x_clock_ms == 180_000 and game.clock_running_for is None
    assert game.deadline == game.turn_started_at + timedelta(seconds=30)


# -- takebacks against the AI -----------------------------------------------------------------


@pytest.fixture
def alice(user):
    return Player(user=user)


def _ai_game(player, **kwargs) -> Game:
    kwargs.setdefault("side", "X")
    return services.game_create_against_ai(player=player, seed=1, **kwargs)


def test_against_the_ai_a_move_and_its_reply_are_taken_back_at_once(alice):
    game = _ai_game(alice)
    game = services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0).game
    game = services.game_play_move(game_id=game.pk, player=alice, cell=8, ply=2).game
    assert game.move_count == 4

    game = offers.game_take_back_against_ai(game_id=game.pk, player=alice)

    assert game.move_count == 2 and game.cells[0] == 0 and game.board.to_move == "X"
    # Asking is the same thing against the AI: it always agrees.
    game = offers.game_request_takeback(game_id=game.pk, player=alice)
    assert game.move_count == 0 and game.cells == []
    assert services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0).game.move_count == 2


def test_a_move_whose_reply_is_owed_is_taken_back_alone(alice):
    game = _ai_game(alice)
    game = services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0).game
    game = stopped_before_the_ai_replied(game, game.board.legal_moves[0])
    assert game.awaits_ai and game.move_count == 3
    before = game.cells
    game = offers.game_take_back_against_ai(game_id=game.pk, player=alice)
    assert game.cells == before[:2] and game.board.to_move == "X" and not game.awaits_ai


def test_against_the_ai_only_your_own_move_in_a_game_in_progress_is_taken_back(alice, user, bob):
    game = _ai_game(alice, side="O", start_mode="centre")
    assert game.move_count == 1  # the AI's opening only
    _refused(offers.game_take_back_against_ai, "nothing_to_take_back", game, player=alice)
    game = services.game_resign(game_id=game.pk, player=alice)
    _refused(offers.game_take_back_against_ai, "game_over", game, player=alice)
    people = _game(user, bob)
    _refused(offers.game_take_back_against_ai, "not_against_ai", people, player=alice)
    mine = _ai_game(alice)
    _refused(offers.game_take_back_against_ai, "not_a_player", mine, player=Player(user=bob))


def test_a_game_with_takebacks_against_the_ai_counts_as_usual(alice, user):
    game = _ai_game(alice, level="easy")
    game = services.game_play_move(game_id=game.pk, player=alice, cell=4, ply=0).game
    offers.game_take_back_against_ai(game_id=game.pk, player=alice)
    game = services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0).game
    game = services.game_resign(game_id=game.pk, player=alice)
    assert PlayerStats.objects.get(user=user).games == 1
    assert _problems(game) == []


def test_an_ai_reply_thought_out_before_a_takeback_is_not_stored_after_it(alice, monkeypatch):
    """On 4x4 the AI thinks with no lock held. If meanwhile the person takes
    their move back and plays another, the position has as many moves as the
    one the AI thought about, but not the same: its reply is not stored."""
    game = _ai_game(alice, variant="4x4", level="easy")
    think = services._ai_choice
    interrupted = []

    def slow_thought(thinking_about, board):
        cell = think(thinking_about, board)
        if not interrupted:
            interrupted.append(cell)
            # While the AI thinks: take the move back and play another (its reply still owed).
            offers.game_take_back_against_ai(game_id=game.pk, player=alice)
            stopped_before_the_ai_replied(Game.objects.get(pk=game.pk), 5)
        return cell

    monkeypatch.setattr(services, "_ai_choice", slow_thought)
    game = services.game_play_move(game_id=game.pk, player=alice, cell=0, ply=0).game
    assert game.cells == [5] and game.awaits_ai  # the reply to cell 0 was not stored
    game = services.game_play_ai_move(game_id=game.pk)
    assert game.move_count == 2 and game.cells[0] == 5 and _problems(game) == []


# -- races ------------------------------------------------------------------------------------


def _race(*calls):
    """Run ``calls`` at the same moment: what each returned ("ok") or the refusal's code, in order."""
    return refusal_codes(at_once(*calls))


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_draw_at_once_end_the_game_once(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    _move(game, bob, 0)
    offers.game_offer_draw(game_id=game.pk, player=Player(user=user))

    def accept():
        offers.game_answer_draw(game_id=game.pk, player=Player(user=bob), accept=True)

    assert sorted(_race(accept, accept)) == ["game_over", "ok"]
    game.refresh_from_db()
    assert (game.result, game.termination) == ("draw", "agreed")
    assert PlayerStats.objects.get(user=bob).rated_draws == 1
    assert _problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_the_offerer_s_move_leaves_one_or_the_other(user, bob):
    for _ in range(4):
        game = _game(user, bob)
        _move(game, user, 4)
        _move(game, bob, 0)
        offers.game_offer_draw(game_id=game.pk, player=Player(user=user))
        outcomes = _race(
            partial(offers.game_answer_draw, game_id=game.pk, player=Player(user=bob), accept=True),
            partial(services.game_play_move, game_id=game.pk, player=Player(user=user), cell=8, ply=2),
        )
        game.refresh_from_db()
        if outcomes == ["ok", "game_over"]:  # the draw first: the move came too late
            assert (game.termination, game.move_count) == ("agreed", 2)
        else:  # the move first: the offer lapsed with it
            assert outcomes == ["no_draw_offer", "ok"], outcomes
            assert (game.status, game.move_count, game.draw_offer) == ("in_progress", 3, "")
        assert _problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_takeback_at_once_take_back_one_move(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    for ply, cell in enumerate([4, 0, 8]):
        _move(game, (user, bob)[ply % 2], cell)
    offers.game_request_takeback(game_id=game.pk, player=Player(user=user))

    def accept():
        offers.game_answer_takeback(game_id=game.pk, player=Player(user=bob), accept=True)

    assert sorted(_race(accept, accept)) == ["no_takeback_request", "ok"]
    game.refresh_from_db()
    assert game.move_count == 2 and game.cells == [4, 0]
    assert _problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_a_takeback_accept_racing_the_opponent_s_move_leaves_one_or_the_other(user, bob):
    for _ in range(4):
        game = _game(user, bob, takebacks_allowed=True)
        _move(game, user, 4)
        offers.game_request_takeback(game_id=game.pk, player=Player(user=user))
        outcomes = _race(
            partial(offers.game_answer_takeback, game_id=game.pk, player=Player(user=bob), accept=True, ply=1),
            partial(services.game_play_move, game_id=game.pk, player=Player(user=bob), cell=0, ply=1),
        )
        game.refresh_from_db()
        if outcomes[0] == "ok":  # taken back first: bob's move was for a ply no longer there
            assert outcomes[1] in ("stale_ply", "not_your_turn"), outcomes
            assert game.cells == []
        else:  # bob moved first: the request lapsed with his move
            assert outcomes == ["takeback_stale", "ok"], outcomes
            assert game.cells == [4, 0]
        assert _problems(game) == []
