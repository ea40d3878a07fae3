"""Notifications: who is told what as the lobby and the games change, marked
read when seen, forgotten after 30 days, and mailed for a correspondence turn
once, only to a player who is away and still to move."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.errors import MoveRefused
from games.lobby import services as lobby_services
from games.notifications import selectors, services
from games.notifications.models import Kind, Notification, NotificationSettings
from games.play import offers
from games.play import services as play_services
from games.play.players import Player
from tests.factories import human_game

pytestmark = pytest.mark.django_db


def _kinds(user) -> list[str]:
    return list(Notification.objects.filter(user=user).order_by("id").values_list("kind", flat=True))


def _correspondence(x, o, cells=()):
    challenge = lobby_services.challenge_create(challenger=x, side="X", time_control="3d")
    game = lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)
    for ply, cell in enumerate(cells):
        play_services.game_play_move(game_id=game.pk, player=Player(user=(x, o)[ply % 2]), cell=cell, ply=ply)
    return game


# -- who is told what ---------------------------------------------------------------------------


def test_a_challenge_by_name_tells_its_opponent_and_an_open_one_nobody(user, bob):
    lobby_services.challenge_create(challenger=bob, kind="open")
    assert not Notification.objects.exists()
    challenge = lobby_services.challenge_create(
        challenger=bob, kind="direct", opponent_username="alice", time_control="5+3", rated=False
    )
    told = Notification.objects.get(user=user)
    assert (told.kind, told.challenge, told.url) == (Kind.CHALLENGE, challenge, challenge.get_absolute_url())
    assert told.text == "bob challenges you (3×3, 5+3, casual)"
    assert selectors.can_answer(told)
    lobby_services.challenge_decline(user=user, challenge_id=challenge.pk)
    told.refresh_from_db()
    assert not selectors.can_answer(told)  # answered: no more accept and decline


def test_a_rematch_offer_tells_the_opponent(user, bob):
    game = human_game(user, bob)
    lobby_services.game_offer_rematch(game_id=game.pk, player=Player(user=bob))
    told = Notification.objects.get(user=user)
    assert told.kind == Kind.REMATCH and told.text.startswith("bob offers a rematch (3×3")


def test_your_turn_only_in_correspondence_once_per_turn_and_seen_once_you_move(user, bob):
    human_game(user, bob, cells=[4, 0])  # no time limit: nobody is told
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN).exists()
    game = _correspondence(user, bob, cells=[4])
    turn = Notification.objects.get(user=bob, kind=Kind.YOUR_TURN)
    assert (turn.game, turn.ply, turn.text) == (game, 1, "Your turn against alice (3×3)")
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)
    turn.refresh_from_db()
    assert turn.read_at is not None  # bob moved: he saw it
    assert Notification.objects.get(user=user, kind=Kind.YOUR_TURN).ply == 2
    # The last move ends the game: nobody's turn.
    for ply, cell in enumerate([1, 8, 2, 3, 6], start=2):
        play_services.game_play_move(game_id=game.pk, player=Player(user=(user, bob)[ply % 2]), cell=cell, ply=ply)
    assert Notification.objects.filter(kind=Kind.YOUR_TURN).count() == 6


@pytest.mark.parametrize(
    "offer, accept, kind, said",
    [
        ("draw", False, Kind.DRAW_DECLINED, "alice declined your draw offer"),
        ("draw", True, Kind.DRAW_ACCEPTED, "alice accepted your draw offer"),
        ("takeback", False, Kind.TAKEBACK_DECLINED, "alice declined your takeback request"),
        ("takeback", True, Kind.TAKEBACK_ACCEPTED, "alice accepted your takeback request"),
    ],
)
def test_an_answered_offer_tells_the_offerer(user, bob, offer, accept, kind, said):
    challenge = lobby_services.challenge_create(challenger=user, side="X", takebacks_allowed=True)
    game = lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)
    if offer == "draw":
        offers.game_offer_draw(game_id=game.pk, player=Player(user=bob))
        offers.game_answer_draw(game_id=game.pk, player=Player(user=user), accept=accept)
    else:
        offers.game_request_takeback(game_id=game.pk, player=Player(user=bob))
        offers.game_answer_takeback(game_id=game.pk, player=Player(user=user), accept=accept)
    told = Notification.objects.get(user=bob, kind=kind)
    assert told.text == said and told.game_id == game.pk and told.url == game.get_absolute_url()
    assert not Notification.objects.filter(user=user).exists()


def test_a_refused_answer_tells_nobody(user, bob):
    game = human_game(user, bob, cells=[4, 0])
    with pytest.raises(MoveRefused):
        offers.game_answer_draw(game_id=game.pk, player=Player(user=user), accept=False)
    assert not Notification.objects.exists()


def test_a_closed_account_is_told_nothing(user, bob):
    user.is_active = False
    user.save()
    assert services.notify(user=user, kind=Kind.CHALLENGE, text="x", url="/") is None
    assert not Notification.objects.exists()


# -- read, forgotten --------------------------------------------------------------------------


def test_marked_read_all_by_ids_or_by_game_and_the_count_follows(user, bob):
    for n in range(3):
        services.notify(user=user, kind=Kind.CHALLENGE, text=f"n{n}", url="/")
    services.notify(user=bob, kind=Kind.CHALLENGE, text="bob's", url="/")
    first, second, third = Notification.objects.filter(user=user).order_by("id")
    assert selectors.unread_count(user) == 3
    # Someone else's id is left alone.
    bobs = Notification.objects.get(user=bob)
    assert services.notifications_read(user=user, ids=[first.pk, bobs.pk]) == 1
    assert selectors.unread_count(user) == 2 and selectors.unread_count(bob) == 1
    assert services.notifications_read(user=user) == 2
    assert selectors.unread_count(user) == 0


def test_notifications_are_kept_30_days(user):
    old = services.notify(user=user, kind=Kind.CHALLENGE, text="old", url="/")
    services.notify(user=user, kind=Kind.CHALLENGE, text="new", url="/")
    Notification.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    assert [n.text for n in selectors.recent(user)] == ["new"]
    assert services.notifications_forget() == 1
    assert list(Notification.objects.values_list("text", flat=True)) == ["new"]


# -- the turn mails -----------------------------------------------------------------------------


def _turn_waiting(user, bob, minutes: int):
    """bob (with an e-mail address) to move in a correspondence game for ``minutes``."""
    bob.email = "bob@example.com"
    bob.save()
    game = _correspondence(user, bob, cells=[4])
    Notification.objects.filter(user=bob).update(created_at=timezone.now() - timedelta(minutes=minutes))
    return game


def test_a_turn_is_mailed_once_after_ten_minutes_away_with_a_working_unsubscribe_link(user, bob):
    game = _turn_waiting(user, bob, minutes=5)
    assert services.turn_mails_send() == 0  # five minutes: not yet
    Notification.objects.filter(user=bob).update(created_at=timezone.now() - timedelta(minutes=11))
    assert services.turn_mails_send() == 1
    assert services.turn_mails_send() == 0  # once per turn
    (sent,) = mail.outbox
    assert sent.to == ["bob@example.com"] and sent.subject == "Your turn against alice (3×3) (tttsite)"
    assert f"http://127.0.0.1:8000{game.get_absolute_url()}" in sent.body
    link = sent.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in sent.body
    # The link works without signing in: GET asks, POST unsubscribes.
    visitor = Client()
    path = link.removeprefix("http://127.0.0.1:8000")
    assert "Stop the mails" in visitor.get(path).content.decode()
    assert "Done: no more mails" in visitor.post(path).content.decode()
    assert NotificationSettings.objects.get(user=bob).mail_turns is False


def test_no_mail_to_a_player_seen_lately_or_who_said_no_or_who_moved(user, bob):
    game = _turn_waiting(user, bob, minutes=11)
    services.player_seen(user=bob, now=timezone.now() - timedelta(minutes=3))
    assert services.turn_mails_send() == 0
    NotificationSettings.objects.filter(user=bob).update(last_seen_at=timezone.now() - timedelta(minutes=30))
    services.notification_settings_set(user=bob, mail_turns=False)
    assert services.turn_mails_send() == 0
    services.notification_settings_set(user=bob, mail_turns=True)
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)  # read by moving
    assert services.turn_mails_send() == 0
    assert mail.outbox == []


def test_no_mail_once_the_turn_has_passed_even_if_unread(user, bob):
    game = _turn_waiting(user, bob, minutes=11)
    Notification.objects.filter(user=bob).update(read_at=None)
    play_services.game_resign(game_id=game.pk, player=Player(user=user))
    assert services.turn_mails_send() == 0 and mail.outbox == []


def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(bob):
    response = Client().post(reverse("games:unsubscribe", args=["not-a-signed-token"]))
    assert response.status_code == 400
    assert "This unsubscribe link is not valid" in response.content.decode()
    assert not NotificationSettings.objects.exists()
