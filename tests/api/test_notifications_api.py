"""Notifications in the API: your own, newest first, and marked read by id or
all at once; bad input refused with nothing changed."""

import pytest

from games.lobby import services as lobby_services
from games.notifications.models import Notification
from tests.api.conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

URL = "/api/notifications/"
READ = "/api/notifications/read/"


@pytest.fixture
def challenged(alice, bob):
    """Two challenges from bob to alice, one from alice to bob."""
    for _ in range(2):
        lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    lobby_services.challenge_create(challenger=alice, kind="direct", opponent_username="bob")


def test_your_notifications_newest_first_and_nobody_elses(as_alice, challenged):
    body = as_alice.get(URL).json()
    assert body["count"] == 2
    first, second = body["results"]
    assert first["id"] > second["id"]
    assert first["kind"] == "challenge" and first["text"].startswith("bob challenges you")
    assert first["url"].startswith("/challenges/") and first["read"] is False and first["game"] is None
    # Listing marks nothing read.
    assert as_alice.get(URL).json()["results"][0]["read"] is False


def test_marked_read_by_id_then_all(as_alice, as_bob, challenged):
    ids = [n["id"] for n in as_alice.get(URL).json()["results"]]
    bobs = Notification.objects.get(user__username="bob").pk
    response = as_alice.post(READ, {"ids": [ids[0], bobs]}, format="json")
    assert response.status_code == 200 and response.json() == {"marked": 1, "unread": 1}
    assert Notification.objects.get(pk=bobs).read_at is None  # not alice's: left alone
    assert as_alice.post(READ, {}, format="json").json() == {"marked": 1, "unread": 0}
    assert all(n["read"] for n in as_alice.get(URL).json()["results"])


@pytest.mark.parametrize(
    "body",
    [{"ids": "all"}, {"ids": ["1"]}, {"ids": [0]}, {"ids": [2**64]}, {"ids": [1], "every": True}, [1, 2]],
)
def test_bad_input_is_refused_and_nothing_is_marked(as_alice, challenged, body):
    assert_error(as_alice.post(READ, body, format="json"), 400, "invalid")
    assert not Notification.objects.exclude(read_at=None).exists()


def test_notifications_need_a_signed_in_player(challenged):
    anonymous = client_for(None)
    assert anonymous.get(URL).status_code == 401
    assert anonymous.post(READ, {}, format="json").status_code == 401
    assert not Notification.objects.exclude(read_at=None).exists()


def test_a_pushed_notification_is_the_one_the_api_lists(as_alice, alice, challenged):
    """The sockets' notification (selectors.told) and the API's, field for field."""
    from datetime import datetime

    from games.notifications import selectors

    listed = as_alice.get(URL).json()["results"]
    pushed = [selectors.told(n) for n in selectors.recent(alice)]
    for row in (*listed, *pushed):
        row["created_at"] = datetime.fromisoformat(row["created_at"])
    assert pushed == listed
