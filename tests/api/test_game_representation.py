"""A game's JSON: GameSerializer writes its output out by hand (it is in
nearly every answer, a move's above all, and DRF's generic way cost more than
the rest of the presenting). Its declared fields are still the schema: here
DRF's generic output from those same fields, for games in every state, must
be the same, byte for byte once rendered."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from games.api.serializers import ClockSerializer, GameSerializer
from games.lobby import services as lobby_services
from games.play import offers, services
from games.play.models import Game
from games.play.players import Player
from games.play.selectors import game_detail

pytestmark = pytest.mark.django_db


class GenericClockSerializer(ClockSerializer):
    to_representation = serializers.Serializer.to_representation


class GenericGameSerializer(GameSerializer):
    """GameSerializer as DRF presents its declared fields, nested clock included."""

    to_representation = serializers.Serializer.to_representation

    def get_clock(self, game):
        state = game.clock_state()
        return GenericClockSerializer(state).data if state else None


def _request(user=None):
    request = Request(APIRequestFactory().get("/api/games/"))
    if user is not None:
        request.user = user
    return request


def _human_game(alice, bob, **challenge):
    made = lobby_services.challenge_create(
        challenger=alice, kind="direct", side="X", opponent_username=bob.username, **challenge
    )
    return lobby_services.challenge_accept(user=bob, challenge_id=made.pk)


def _move(game, user, cell):
    return services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count).game


@pytest.fixture
def games(alice, bob, django_user_model):
    """Games in every state the API shows, each as the services leave it and as read back."""
    made = {}
    as_alice = Player(user=alice)
    game = services.game_create_against_ai(player=as_alice, side="X", level="perfect")
    made["vs AI, nobody moved"] = game
    made["vs AI, a move and its reply"] = _move(game, alice, 4)
    made["vs AI, the AI plays X"] = services.game_create_against_ai(
        player=as_alice, side="O", level="medium", start_mode="random", seed=5
    )
    for variant in ("4x4", "5x5"):
        game = services.game_create_against_ai(player=as_alice, variant=variant, side="X", level="easy", seed=2)
        made[f"vs AI, {variant}"] = _move(game, alice, 5)
    game = services.game_create_against_ai(player=as_alice, side="X", level="easy", seed=3)
    while game.is_in_progress:
        game = _move(game, alice, game.board.legal_moves[0])
    made["vs AI, played to the end"] = game
    game = services.game_create_against_ai(player=as_alice, side="X", level="easy", seed=1)
    _move(game, alice, 4)
    made["vs AI, resigned"] = services.game_resign(game_id=game.pk, player=as_alice)
    made["vs AI, a rematch"] = services.game_rematch(game_id=game.pk, player=as_alice)
    game = services.game_create_against_ai(player=as_alice, side="X")
    made["vs AI, aborted"] = services.game_abort_by_player(game_id=game.pk, player=as_alice)
    made["a guest's game"] = services.game_create_against_ai(player=Player(guest_key="g" * 32), side="O")

    made["between people, nobody moved"] = _human_game(alice, bob)
    game = _human_game(alice, bob, time_control="3+2")
    game = _move(game, alice, 0)
    made["between people, a clock running"] = _move(game, bob, 4)
    game = _human_game(alice, bob, time_control="1d", variant="4x4")
    made["between people, correspondence"] = _move(game, alice, 0)
    game = _human_game(alice, bob, takebacks_allowed=True)
    _move(game, alice, 0)
    made["between people, a draw offered"] = offers.game_offer_draw(game_id=game.pk, player=as_alice)
    made["between people, a takeback asked"] = offers.game_request_takeback(game_id=game.pk, player=as_alice)
    game = _human_game(alice, bob, time_control="1+0")
    game = _move(game, alice, 0)
    game = _move(game, bob, 1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    made["between people, lost on time"] = services.game_claim_timeout(game_id=game.pk, player=Player(user=bob))
    dave = django_user_model.objects.create_user("dave", password="x" * 12)
    game = _human_game(dave, bob)
    _move(game, dave, 0)
    dave.delete()
    made["between people, a player deleted since"] = game_detail(game.pk)
    # As the services leave them and as read afresh (the types of what is stored differ).
    return [*made.items(), *((f"{name}, read back", game_detail(game.pk)) for name, game in made.items())]


def test_every_game_is_presented_as_drfs_generic_serializer_would(games, alice, bob, carol):
    # A running clock is read at the time of asking: both ways ask at the same time.
    with mock.patch("django.utils.timezone.now", return_value=timezone.now()):
        for viewer in (_request(alice), _request(bob), _request(carol), None):
            context = {"request": viewer} if viewer is not None else {}
            for name, game in games:
                by_hand = GameSerializer(game, context=context).data
                generic = GenericGameSerializer(game, context=context).data
                assert by_hand == generic, name
                assert JSONRenderer().render(by_hand) == JSONRenderer().render(generic), name
            listed = [game for _, game in games]
            assert JSONRenderer().render(GameSerializer(listed, many=True, context=context).data) == (
                JSONRenderer().render(GenericGameSerializer(listed, many=True, context=context).data)
            )


def test_the_states_compared_include_every_kind_of_value(games):
    """The comparison above means something only if the games cover what a game can show."""
    shown = [GameSerializer(game).data for _, game in games]
    assert {game["status"] for game in shown} == {"in_progress", "finished", "aborted"}
    assert {game["variant"] for game in shown} == {"3x3", "4x4", "5x5"}
    assert {game["termination"] for game in shown} >= {None, "line", "resigned", "timeout"}
    assert {game["clock"]["kind"] for game in shown if game["clock"]} == {"clock", "correspondence"}
    assert any(game["clock"] and game["clock"]["running"] for game in shown)
    assert {game["draw_offer"] for game in shown} == {None, "X"} and {game["takeback_offer"] for game in shown} == {
        None,
        "X",
    }
    kinds = {player["kind"] for game in shown for player in (game["x_player"], game["o_player"])}
    assert kinds == {"human", "ai", "guest", "deleted"}
    assert any(game["rematch_of"] for game in shown) and any(game["winning_line"] for game in shown)
