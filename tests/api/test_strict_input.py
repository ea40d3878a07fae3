"""Every body and filter names only the fields its operation takes: an unknown
name (a typo, a field another operation takes) is a 400 that says which, and
nothing is stored."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import games.api
from games.api.serializers import InputSerializer
from games.play.models import Game
from tests.api.conftest import assert_error, stored


@pytest.mark.parametrize("unknown", ["varient", "time_control", "move_time_limit"])
def test_an_unknown_field_on_a_new_game_is_refused_and_named(as_alice, unknown):
    before = stored()
    response = as_alice.post("/api/games/", {"variant": "4x4", unknown: "x"}, format="json")
    body = assert_error(response, 400, "invalid")
    assert list(body["fields"]) == [unknown]
    assert body["fields"][unknown][0].startswith("Unknown field.")
    assert "variant" in body["fields"][unknown][0]  # it says what the operation takes
    assert stored() == before
    assert not Game.objects.exists()


def test_unknown_fields_are_named_alongside_other_errors(as_alice):
    response = as_alice.post("/api/games/", {"variant": "9x9", "varient": "4x4"}, format="json")
    body = assert_error(response, 400, "invalid")
    assert set(body["fields"]) == {"variant", "varient"}


def test_a_move_with_an_extra_field_is_refused(as_alice, ai_game):
    before = stored()
    response = as_alice.post(f"/api/games/{ai_game.pk}/moves/", {"cell": 4, "ply": 0, "side": "X"}, format="json")
    body = assert_error(response, 400, "invalid")
    assert list(body["fields"]) == ["side"]
    assert stored() == before


def test_an_unknown_filter_is_refused(as_alice, finished_game):
    body = assert_error(as_alice.get("/api/games/?reslt=lost"), 400, "invalid")
    assert list(body["fields"]) == ["reslt"]
    body = assert_error(as_alice.get("/api/puzzles/?thme=fork"), 400, "invalid")
    assert list(body["fields"]) == ["thme"]


def test_the_page_parameter_is_still_taken_with_filters(as_alice, finished_game):
    response = as_alice.get("/api/games/?result=lost&page=1")
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == 1


def test_a_known_body_is_still_taken(as_alice):
    response = as_alice.post("/api/games/", {"variant": "4x4", "side": "O"}, format="json")
    assert response.status_code == 201, response.content


def test_every_input_serializer_is_strict():
    """A new operation's input serializer must not forget to refuse unknown fields."""
    for info in pkgutil.iter_modules(games.api.__path__):
        module = importlib.import_module(f"games.api.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if name.endswith(("InputSerializer", "FilterSerializer")):
                assert issubclass(cls, InputSerializer), name
