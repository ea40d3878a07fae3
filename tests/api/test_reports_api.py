"""Reports in the API: a player or a chat message reported, your reports
listed with their outcome, refusals with nothing stored; and a closed or
suspended account told so when it asks for a token."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.moderation import services
from games.moderation.models import Report
from games.play import chat_services
from games.play.players import Player
from tests.api.conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

URL = "/api/reports/"


@pytest.fixture
def message(human_game, bob):
    return chat_services.chat_send(game_id=human_game.pk, player=Player(user=bob), text="you are hopeless")


def test_a_message_is_reported_and_listed_with_its_outcome(as_alice, alice, bob, message, admin_user):
    response = as_alice.post(URL, {"message": message.pk, "reason": "abuse", "note": "every game"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["player"] == "bob" and body["message"] == message.pk and body["message_text"] == "you are hopeless"
    assert body["decision"] is None and body["outcome"] == "Waiting for a moderator"
    services.reports_handle(report_ids=[body["id"]], decision="mute", reason="Insults", by=admin_user,
                            duration=timedelta(hours=1))  # fmt: skip
    (listed,) = as_alice.get(URL).json()
    assert listed["decision"] == "mute" and listed["outcome"] == "bob was muted in chat"


def test_a_player_is_reported_by_name(as_alice, bob):
    response = as_alice.post(URL, {"player": "bob", "reason": "cheating"}, format="json")
    assert response.status_code == 201 and response.json()["message"] is None


@pytest.mark.parametrize(
    "data, status, code",
    [
        ({"reason": "abuse"}, 400, "report_target"),
        ({"player": "bob", "message": "bob's", "reason": "abuse"}, 400, "report_target"),
        ({"player": "bob", "reason": "meanie"}, 400, "invalid_reason"),
        ({"player": "bob", "reason": "abuse", "colour": "red"}, 400, "invalid"),
        ({"player": "bob", "reason": "abuse", "note": "x" * 501}, 400, "note_too_long"),
        ({"player": "alice", "reason": "abuse"}, 400, "own_report"),
        ({"player": "nobody", "reason": "abuse"}, 404, "not_found"),
        ({"player": "bo\x00b", "reason": "abuse"}, 400, "invalid"),
        ({"message": 999999, "reason": "abuse"}, 404, "not_found"),
    ],
)
def test_bad_reports_are_refused_with_nothing_stored(as_alice, bob, message, data, status, code):
    if data.get("message") == "bob's":
        data = {**data, "message": message.pk}
    assert_error(as_alice.post(URL, data, format="json"), status, code)
    assert not Report.objects.exists()


def test_a_waiting_report_is_not_made_twice(as_alice, bob):
    as_alice.post(URL, {"player": "bob", "reason": "abuse"}, format="json")
    assert_error(as_alice.post(URL, {"player": "bob", "reason": "spam"}, format="json"), 409, "reported_already")
    assert Report.objects.count() == 1


def test_too_many_reports_in_a_day_wait(as_alice, alice, django_user_model):
    for i in range(10):
        services.report_make(reporter=alice, player=django_user_model.objects.create_user(f"p{i}"), reason="spam")
    django_user_model.objects.create_user("late")
    response = as_alice.post(URL, {"player": "late", "reason": "spam"}, format="json")
    assert_error(response, 429, "reports_rate_limited")
    assert 0 < int(response["Retry-After"]) <= 86400
    assert Report.objects.count() == 10


def test_reports_need_an_account(anon, bob):
    assert_error(anon.post(URL, {"player": "bob", "reason": "abuse"}, format="json"), 401, "not_authenticated")
    assert_error(anon.get(URL), 401, "not_authenticated")


def test_only_your_own_reports_are_listed(as_bob, alice, carol):
    services.report_make(reporter=alice, player=carol, reason="spam")
    assert as_bob.get(URL).json() == []


def test_a_suspended_account_asking_for_a_token_is_told_until_when_and_why(anon, bob, password, admin_user):
    services.sanction_give(player=bob, kind="suspend", reason="Stalling", by=admin_user, duration=timedelta(days=1))
    response = anon.post("/api/auth/token/", {"username": "bob", "password": password}, format="json")
    assert_error(response, 403, "account_suspended")
    assert "Stalling" in response.json()["message"] and "until" in response.json()["message"]
    assert_error(
        anon.post("/api/auth/token/", {"username": "bob", "password": "wrong"}, format="json"),
        400,
        "invalid_credentials",
    )
    bob.sanctions.update(ends_at=timezone.now() - timedelta(seconds=1))
    response = anon.post("/api/auth/token/", {"username": "bob", "password": password}, format="json")
    assert response.status_code == 200  # the suspension is over: the account opens as it signs in
    assert client_for(bob).get(URL).status_code == 200
