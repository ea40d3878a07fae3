"""``manage.py play_owed_moves``, run by scripts/run and scripts/serve before serving:
a game left waiting for the AI by a stopped server carries on after the restart."""

import io

import pytest
from django.core.management import call_command

from games.play import services
from games.play.models import Game
from games.play.players import Player
from tests import factories

pytestmark = pytest.mark.django_db


def test_every_owed_move_is_made_and_nothing_else_changes(user):
    player = Player(user=user)
    owed_as_o = factories.stopped_before_the_ai_replied(
        services.game_create_against_ai(player=player, variant="4x4", side="X", seed=1), 5
    )
    owed_as_x = services.game_create_against_ai(player=player, variant="4x4", side="O", seed=2)  # AI opened
    owed_as_x = factories.stopped_before_the_ai_replied(
        owed_as_x, next(c for c in range(16) if c not in owed_as_x.cells)
    )
    waiting_for_the_player = services.game_create_against_ai(player=player, variant="4x4", side="X", seed=3)
    finished = services.game_resign(
        game_id=factories.stopped_before_the_ai_replied(
            services.game_create_against_ai(player=player, variant="4x4", side="X", seed=4), 0
        ).pk,
        player=player,
    )
    out = io.StringIO()
    call_command("play_owed_moves", stdout=out)
    assert out.getvalue().strip() == "The AI made 2 owed move(s)."
    assert Game.objects.get(pk=owed_as_o.pk).move_count == 2
    assert Game.objects.get(pk=owed_as_x.pk).move_count == 3
    assert Game.objects.get(pk=waiting_for_the_player.pk).move_count == 0
    assert Game.objects.get(pk=finished.pk).move_count == 1

    out = io.StringIO()
    call_command("play_owed_moves", stdout=out)
    assert out.getvalue() == ""  # nothing owed any more: silent
