"""The move's statements built once (games/rows.py, games/play/rows.py) read and
write exactly what the ORM would: every field, converted as the ORM converts
it on this database, the players attached, a second move for a ply refused."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.accounts import selectors as account_selectors
from games.accounts.services import api_token_create
from games.play import rows
from games.play.models import Game, Move
from games.rows import ModelRows, Writes
from tests.factories import ai_game, human_game

pytestmark = pytest.mark.django_db


def _fields(instance):
    """Every stored field's value and type (SQLite's 0 equals False, but is not a bool)."""
    values = {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}
    return {name: (type(value), value) for name, value in values.items()}


def test_a_locked_game_is_every_field_the_orm_reads_with_both_players_attached(user, bob):
    game = human_game(user, bob, cells=[4, 0], time_control="3+2")  # clocks and a deadline: every type
    with transaction.atomic():
        locked = rows.game_locked(game.pk)
    assert _fields(locked) == _fields(Game.objects.get(pk=game.pk))
    assert locked.deadline is not None and locked.deadline.tzinfo is not None
    with CaptureQueriesContext(connection) as queries:
        assert (locked.x_player, locked.o_player) == (user, bob)
    assert len(queries) == 0


def test_a_game_against_the_ai_has_one_player_and_no_query_for_the_other(user):
    game = ai_game(user, resign=True)
    with transaction.atomic():
        locked = rows.game_locked(game.pk)
    assert _fields(locked) == _fields(Game.objects.get(pk=game.pk))
    with CaptureQueriesContext(connection) as queries:
        assert (locked.x_player, locked.o_player) == (user, None)
    assert len(queries) == 0


@pytest.mark.parametrize("game_id", [424242, 0, -1, 2**63, 10**23])  # the last two fit no integer column
def test_an_unknown_game_is_not_found(game_id):
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        rows.game_locked(game_id)


def test_a_games_own_row_is_every_field_the_orm_reads_and_an_unknown_game_none(user, bob):
    game = human_game(user, bob, cells=[4, 0], time_control="3+2")
    assert _fields(rows.game_row(game.pk)) == _fields(Game.objects.get(pk=game.pk))
    assert [rows.game_row(game_id) for game_id in (424242, 0, 2**63)] == [None, None, None]


def test_the_cells_come_in_the_order_they_were_played(user, bob):
    game = human_game(user, bob, cells=[8, 0, 4, 2])
    assert rows.game_cells(game.pk) == [8, 0, 4, 2]


def test_an_update_writes_the_named_fields_and_stamps_updated_at(user, bob):
    game = human_game(user, bob, cells=[4])
    before = Game.objects.get(pk=game.pk)
    game.draw_offer, game.result = "O", "1-0"  # the result is not named: it stays as stored
    rows.game_update(game, ["draw_offer", "updated_at"])
    after = Game.objects.get(pk=game.pk)
    assert after.draw_offer == "O" and after.result == before.result
    assert after.updated_at == game.updated_at > before.updated_at


def test_moves_are_stored_together_and_a_second_move_for_a_ply_is_refused_whole(user, bob):
    game = human_game(user, bob, cells=[4])
    rows.moves_insert([Move(game=game, ply=1, cell=0), Move(game=game, ply=2, cell=8)])
    stored = list(Move.objects.filter(game=game).values_list("ply", "cell"))
    assert stored == [(0, 4), (1, 0), (2, 8)]
    assert all(timezone.now() - move.created_at < timedelta(minutes=1) for move in Move.objects.filter(game=game))
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.moves_insert([Move(game=game, ply=3, cell=1), Move(game=game, ply=2, cell=2)])
    assert list(Move.objects.filter(game=game).values_list("ply", "cell")) == stored


def test_an_api_token_is_read_with_its_player_and_an_unknown_key_is_none(user):
    key = api_token_create(user=user)
    with CaptureQueriesContext(connection) as queries:
        token = account_selectors.api_token_for_key(key)
        assert token.user == user and token.user.username == "alice"
    assert len(queries) == 1
    assert _fields(token) == _fields(type(token).objects.get(pk=token.pk))
    assert _fields(token.user) == _fields(type(user).objects.get(pk=user.pk))
    assert account_selectors.api_token_for_key(key + "x") is None


def test_an_update_where_adds_assigns_and_counts_the_rows_it_changed(user, bob):
    first, second = human_game(user, bob, cells=[4]), human_game(user, bob, cells=[4, 0])
    games = ModelRows(Game)
    assert games.update_where({"pk": first.pk, "deadline": None}, add={"move_count": 10}) == 1
    assert games.update_where({"x_player": user.pk, "move_count": 11}, assign={"draw_offer": "X"}) == 1
    assert games.update_where({"pk": second.pk, "move_count": 99}, add={"move_count": 1}) == 0
    assert Game.objects.get(pk=first.pk).move_count == 11 and Game.objects.get(pk=first.pk).draw_offer == "X"
    assert Game.objects.get(pk=second.pk).move_count == 2 and Game.objects.get(pk=second.pk).draw_offer == ""


def test_writes_sent_together_land_together_and_say_what_each_changed(user, bob):
    game, other = human_game(user, bob, cells=[4]), human_game(user, bob)
    writes, changed = Writes(), []
    rows.moves_insert([Move(game=game, ply=1, cell=0)], writes)
    game.move_count = 2
    rows.game_update(game, ["move_count", "updated_at"], writes)
    ModelRows(Game).update_where({"pk": game.pk + 1000}, add={"move_count": 1}, writes=writes, then=changed.append)
    ModelRows(Game).update_where({"pk": other.pk}, assign={"draw_offer": "O"}, writes=writes, then=changed.append)
    with CaptureQueriesContext(connection) as queries:
        writes.send()
    assert len(queries) == (1 if connection.vendor == "postgresql" else 4)  # one statement on PostgreSQL
    assert changed == [0, 1]  # no game 1000 further on; the other
    assert Game.objects.get(pk=game.pk).move_count == 2 and Game.objects.get(pk=other.pk).draw_offer == "O"
    assert list(Move.objects.filter(game=game).values_list("ply", "cell")) == [(0, 4), (1, 0)]


def test_writes_sent_together_are_refused_whole(user, bob):
    game = human_game(user, bob, cells=[4, 0])
    writes = Writes()
    game.draw_offer = "X"
    rows.game_update(game, ["draw_offer", "updated_at"], writes)
    rows.moves_insert([Move(game=game, ply=1, cell=8)], writes)  # ply 1 is taken
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.send()
    assert Game.objects.get(pk=game.pk).draw_offer == ""
    assert list(Move.objects.filter(game=game).values_list("ply", "cell")) == [(0, 4), (1, 0)]
