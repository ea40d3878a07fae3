"""The chat of a game between people, through the services: who may write,
what is refused (and then stores nothing), muting, and the rate limit."""

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games.errors import ChatRateLimited, ChatRefused, InvalidInput, NotAPlayer
from games.play import chat_selectors, chat_services
from games.play.chat_models import ChatMessage, ChatMute
from games.play.players import Player
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(user, bob):
    """Alice (X) against Bob (O), just started."""
    return factories.human_game(user, bob, cells=[])


def send(game, user, text):
    return chat_services.chat_send(game_id=game.pk, player=Player(user=user), text=text)


def seen_by(game, user=None):
    """The messages ``user`` (a spectator when None) sees, as (side, text)."""
    chat = chat_selectors.game_chat(game, Player(user=user))
    return [(message.side, message.text) for message in chat.messages]


def test_the_players_write_and_everyone_reads_in_order(game, user, bob, carol):
    send(game, user, "good luck")
    send(game, bob, "  you too  ")
    expected = [("X", "good luck"), ("O", "you too")]
    assert seen_by(game, user) == seen_by(game, bob) == seen_by(game, carol) == seen_by(game) == expected
    message = ChatMessage.objects.get(text="you too")
    assert (message.author, message.side) == (bob, "O")


def test_the_players_may_chat_after_the_game_ended(user, bob):
    game = factories.human_game(user, bob)  # X won
    assert not game.is_in_progress
    send(game, bob, "well played")
    assert seen_by(game) == [("O", "well played")]


def test_a_spectator_may_not_write(game, carol):
    with pytest.raises(NotAPlayer) as refused:
        send(game, carol, "hello")
    assert "spectators read" in refused.value.message
    with pytest.raises(NotAPlayer):
        chat_services.chat_send(game_id=game.pk, player=Player(guest_key="a-guest"), text="hello")
    assert not ChatMessage.objects.exists()


def test_a_game_against_the_ai_has_no_chat(user):
    game = factories.ai_game(user, resign=True)
    with pytest.raises(ChatRefused) as refused:
        send(game, user, "hello AI")
    assert refused.value.code == "no_chat"
    with pytest.raises(ChatRefused):
        chat_selectors.game_chat(game, Player(user=user))
    with pytest.raises(ChatRefused):
        chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))
    assert not ChatMessage.objects.exists() and not ChatMute.objects.exists()


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\n\t", None, 42, "\u200b", "\u202e", " \u200b\u200d\ufeff ", "\u2066\u3000\u2069", "\u00a0"],
)
def test_an_empty_message_is_refused(game, user, text):
    with pytest.raises(InvalidInput) as refused:
        send(game, user, text)
    assert refused.value.code == "chat_empty"
    assert not ChatMessage.objects.exists()


def test_a_message_is_at_most_200_characters_after_stripping(game, user):
    send(game, user, "  " + "a" * 200 + "\n")
    with pytest.raises(InvalidInput) as refused:
        send(game, user, "b" * 201)
    assert refused.value.code == "chat_too_long"
    assert "at most 200 characters; this one has 201" in refused.value.message
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["a" * 200]


def test_a_message_turns_no_text_backwards_and_keeps_its_emoji_whole(game, user):
    send(game, user, "gg \u202ewell played\u202c \U0001f468\u200d\U0001f469\u200d\U0001f467")
    assert ChatMessage.objects.get().text == "gg well played \U0001f468\u200d\U0001f469\u200d\U0001f467"


def test_a_message_is_kept_as_plain_text_on_one_line(game, user):
    send(game, user, "<script>alert(1)</script>\nline two\x00")
    # Stored as written (escaping is the pages' job); control characters become spaces.
    assert ChatMessage.objects.get().text == "<script>alert(1)</script> line two"


def test_muting_hides_the_opponent_from_the_muter_only_and_refuses_their_new_messages(game, user, bob, carol):
    send(game, bob, "before the mute")
    send(game, user, "hi bob")
    chat = chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))
    assert chat.muted_opponent and [m.text for m in chat.messages] == ["hi bob"]

    with pytest.raises(ChatRefused) as refused:
        send(game, bob, "are you there?")
    assert refused.value.code == "chat_muted"
    assert "muted you" in refused.value.message
    send(game, user, "still talking")  # the muter may still write

    assert seen_by(game, user) == [("X", "hi bob"), ("X", "still talking")]
    everything = [("O", "before the mute"), ("X", "hi bob"), ("X", "still talking")]
    assert seen_by(game, bob) == seen_by(game, carol) == everything  # bob and spectators see the chat as sent
    assert not chat_selectors.game_chat(game, Player(user=bob)).muted_opponent


def test_unmuting_shows_the_opponent_again(game, user, bob):
    send(game, bob, "hello")
    chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))
    chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))  # twice is once
    assert ChatMute.objects.count() == 1
    chat = chat_services.chat_unmute_opponent(game_id=game.pk, player=Player(user=user))
    assert not chat.muted_opponent and [m.text for m in chat.messages] == ["hello"]
    send(game, bob, "thanks")
    assert seen_by(game, user) == [("O", "hello"), ("O", "thanks")]


def test_a_spectator_may_not_mute(game, carol):
    with pytest.raises(NotAPlayer):
        chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=carol))
    assert not ChatMute.objects.exists()


def test_a_player_may_send_five_messages_in_ten_seconds_and_is_told_when_to_send_again(game, user, bob):
    for n in range(5):
        send(game, user, f"message {n}")
    with pytest.raises(ChatRateLimited) as refused:
        send(game, user, "one too many")
    assert refused.value.code == "chat_rate_limited"
    assert 1 <= refused.value.retry_after <= 10
    assert f"send again in {refused.value.retry_after} second" in refused.value.message
    assert ChatMessage.objects.count() == 5

    send(game, bob, "the limit is per player")  # bob has his own five

    # Ten seconds later the oldest messages have left the window.
    ChatMessage.objects.update(created_at=ChatMessage.objects.earliest("created_at").created_at - timedelta(seconds=11))
    send(game, user, "again")
    assert ChatMessage.objects.filter(side="X").count() == 6


def test_the_wait_is_counted_from_the_oldest_message_in_the_window(game, user):
    for n in range(5):
        send(game, user, f"message {n}")
    oldest = ChatMessage.objects.order_by("created_at").first()
    ChatMessage.objects.filter(pk=oldest.pk).update(created_at=oldest.created_at - timedelta(seconds=8))
    with pytest.raises(ChatRateLimited) as refused:
        send(game, user, "too soon")
    assert refused.value.retry_after in (2, 3)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_messages_never_exceed_the_rate_limit(django_user_model):
    alice = django_user_model.objects.create_user("racer-x", password="x")
    bob = django_user_model.objects.create_user("racer-o", password="x")
    game = factories.human_game(alice, bob, cells=[])
    threads_n = 10
    barrier = threading.Barrier(threads_n)
    outcomes = []

    def attempt(n):
        try:
            barrier.wait()
            send(game, alice, f"message {n}")
            outcomes.append("sent")
        except ChatRateLimited:
            outcomes.append("refused")
        except Exception as error:  # anything else would be a server error
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 5 + ["sent"] * 5
    assert ChatMessage.objects.filter(game=game).count() == 5
