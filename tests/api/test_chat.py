"""The chat of a game between people in the API: reading, writing, refusals
(each in the one error shape, storing nothing) and muting."""

from __future__ import annotations

import pytest

from games.play import chat_services
from games.play.chat_models import ChatMessage, ChatMute
from games.play.players import Player
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def chat_url(game) -> str:
    return f"/api/games/{game.pk}/chat/"


def mute_url(game) -> str:
    return f"/api/games/{game.pk}/chat/mute/"


def texts(response) -> list[tuple[str, str]]:
    return [(m["author"], m["text"]) for m in response.json()["messages"]]


def test_a_player_writes_and_everyone_signed_in_reads_newest_last(as_alice, as_bob, as_carol, human_game):
    response = as_alice.post(chat_url(human_game), {"text": "  good luck  "}, format="json")
    assert response.status_code == 201
    sent = response.json()
    assert (sent["side"], sent["author"], sent["text"]) == ("X", "alice", "good luck")
    assert set(sent) == {"id", "side", "author", "text", "created_at"}
    as_bob.post(chat_url(human_game), {"text": "<b>thanks</b>"}, format="json")

    for client, side in ((as_alice, "X"), (as_bob, "O"), (as_carol, None)):
        chat = client.get(chat_url(human_game))
        assert chat.status_code == 200
        assert texts(chat) == [("alice", "good luck"), ("bob", "<b>thanks</b>")]  # plain text, as sent
        body = chat.json()
        assert (body["side"], body["can_send"], body["muted_opponent"]) == (side, side is not None, False)


def test_reading_needs_signing_in(anon, human_game):
    assert_error(anon.get(chat_url(human_game)), 401, "not_authenticated")


def test_a_spectator_cannot_write_or_mute(as_carol, human_game):
    body = assert_error(as_carol.post(chat_url(human_game), {"text": "hi"}, format="json"), 403, "not_a_player")
    assert "spectators read" in body["message"]
    assert_error(as_carol.post(mute_url(human_game)), 403, "not_a_player")
    assert not ChatMessage.objects.exists() and not ChatMute.objects.exists()


def test_a_game_against_the_ai_has_no_chat(as_alice, ai_game):
    assert_error(as_alice.get(chat_url(ai_game)), 409, "no_chat")
    assert_error(as_alice.post(chat_url(ai_game), {"text": "hi"}, format="json"), 409, "no_chat")
    assert_error(as_alice.post(mute_url(ai_game)), 409, "no_chat")
    assert not ChatMessage.objects.exists()


def test_an_unknown_game_is_a_404(as_alice):
    assert_error(as_alice.get("/api/games/999999/chat/"), 404, "not_found")
    assert_error(as_alice.post("/api/games/999999/chat/", {"text": "hi"}, format="json"), 404, "not_found")


@pytest.mark.parametrize(
    "data, code",
    [
        ({"text": ""}, "chat_empty"),
        ({"text": " \n "}, "chat_empty"),
        ({"text": "x" * 201}, "chat_too_long"),
        ({"text": 5}, "invalid"),
        ({}, "invalid"),
    ],
)
def test_a_bad_message_is_a_400_and_stores_nothing(as_alice, human_game, data, code):
    body = assert_error(as_alice.post(chat_url(human_game), data, format="json"), 400, code)
    if code == "chat_too_long":
        assert body["message"] == "A chat message is at most 200 characters; this one has 201."
    assert not ChatMessage.objects.exists()


def test_sending_too_fast_is_a_429_saying_when_to_send_again(as_alice, human_game):
    for n in range(5):
        assert as_alice.post(chat_url(human_game), {"text": f"hi {n}"}, format="json").status_code == 201
    response = as_alice.post(chat_url(human_game), {"text": "hi 5"}, format="json")
    body = assert_error(response, 429, "chat_rate_limited")
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 10 and f"send again in {wait} second" in body["message"]
    assert ChatMessage.objects.count() == 5


def test_muting_and_unmuting_the_opponent(as_alice, as_bob, as_carol, human_game, bob):
    chat_services.chat_send(game_id=human_game.pk, player=Player(user=bob), text="hello")

    muted = as_alice.post(mute_url(human_game))
    assert muted.status_code == 200
    assert muted.json()["muted_opponent"] is True and texts(muted) == []
    assert texts(as_alice.get(chat_url(human_game))) == []
    assert texts(as_carol.get(chat_url(human_game))) == [("bob", "hello")]  # spectators see it as sent
    assert texts(as_bob.get(chat_url(human_game))) == [("bob", "hello")]
    body = assert_error(as_bob.post(chat_url(human_game), {"text": "hey"}, format="json"), 409, "chat_muted")
    assert "muted you" in body["message"]

    unmuted = as_alice.delete(mute_url(human_game))
    assert unmuted.status_code == 200
    assert unmuted.json()["muted_opponent"] is False and texts(unmuted) == [("bob", "hello")]
    assert as_bob.post(chat_url(human_game), {"text": "hey"}, format="json").status_code == 201


def test_the_schema_documents_the_chat_operations():
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    operations = {
        (path, method): operation["operationId"]
        for path, methods in paths.items()
        if "/chat/" in path
        for method, operation in methods.items()
    }
    assert operations == {
        ("/api/games/{id}/chat/", "get"): "games_chat_retrieve",
        ("/api/games/{id}/chat/", "post"): "games_chat_create",
        ("/api/games/{id}/chat/mute/", "post"): "games_chat_mute",
        ("/api/games/{id}/chat/mute/", "delete"): "games_chat_unmute",
    }
    sending = paths["/api/games/{id}/chat/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(sending)
    assert "chat_rate_limited" in sending["429"]["description"]
