"""``manage.py backup`` and ``manage.py restore``: what was stored comes back,
and every game is replayed after the restore (on SQLite and PostgreSQL)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games.play.models import Game, Move
from tests.factories import ai_game, human_game

pytestmark = pytest.mark.django_db(transaction=True)


def _stored():
    return (
        sorted(Game.objects.values_list("pk", "status", "result", "move_count")),
        sorted(Move.objects.values_list("game_id", "ply", "cell")),
    )


def test_a_backup_restored_brings_back_every_game_and_verifies_them(tmp_path, user, bob):
    human_game(user, bob)
    mine = ai_game(user)
    before = _stored()
    backup = tmp_path / "site.backup"
    out = io.StringIO()
    call_command("backup", str(backup), stdout=out)
    assert backup.stat().st_size > 0 and "Backed up" in out.getvalue()

    ai_game(bob)  # after the backup: gone once restored
    mine.delete()  # deleted after the backup: back once restored

    out = io.StringIO()
    call_command("restore", str(backup), stdout=out)

    assert _stored() == before
    assert "Restored" in out.getvalue()
    assert f"{len(before[0])} games replay to what is stored about them." in out.getvalue()


def test_restoring_a_missing_file_changes_nothing(tmp_path, user):
    ai_game(user)
    before = _stored()
    with pytest.raises(CommandError, match="no backup at"):
        call_command("restore", str(tmp_path / "nothing-here"))
    assert _stored() == before
