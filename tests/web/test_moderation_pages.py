"""Moderation on the pages and in the admin: reporting from a profile and
from a chat message, what a muted or suspended player is told, the account
page's record, and the admin's queue as a moderator who is not a superuser
works it."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from games.moderation import services
from games.moderation.models import Report, Sanction
from games.play import chat_services
from games.play.chat_models import ChatMessage
from games.play.models import Game
from games.play.players import Player
from tests.factories import human_game
from tests.web.test_lockout import sign_in, signed_in

pytestmark = pytest.mark.django_db

REPORT = reverse("games:report")


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def message(user, bob):
    game = human_game(user, bob)
    return chat_services.chat_send(game_id=game.pk, player=Player(user=bob), text="you are hopeless")


@pytest.fixture
def moderator(django_user_model):
    """Staff in the "moderator" group the migrations make; not a superuser."""
    mod = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    mod.groups.add(Group.objects.get(name="moderator"))
    return mod


# -- reporting -------------------------------------------------------------------------------


def test_a_profile_offers_a_report_to_other_signed_in_players_only(user, bob):
    url = reverse("games:profile", args=["bob"])
    assert "Report bob" in client_of(user).get(url).content.decode()
    assert "Report bob" not in client_of(bob).get(url).content.decode()
    assert "Report bob" not in client_of().get(url).content.decode()


def test_a_player_is_reported_from_their_profile(user, bob):
    client = client_of(user)
    form = client.get(REPORT, {"player": "bob"})
    assert form.status_code == 200 and "Report bob" in form.content.decode()
    response = client.post(REPORT, {"player": "bob", "reason": "cheating", "note": "Moves in 0.1 s"}, follow=True)
    assert response.redirect_chain[0][0] == reverse("games:profile", args=["bob"])
    assert "your report is with the moderators" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.player, report.reason, report.note) == (user, bob, "cheating", "Moves in 0.1 s")


def test_a_chat_message_carries_a_report_link_for_the_other_side(user, bob, message):
    page = client_of(user).get(message.game.get_absolute_url()).content.decode()
    assert f"{REPORT}?message={message.pk}" in page
    assert f"{REPORT}?message={message.pk}" not in client_of(bob).get(message.game.get_absolute_url()).content.decode()
    form = client_of(user).get(REPORT, {"message": message.pk}).content.decode()
    assert "you are hopeless" in form and "Report a message" in form
    response = client_of(user).post(REPORT, {"message": message.pk, "reason": "abuse"})
    assert response.status_code == 302 and response["Location"] == message.game.get_absolute_url()
    assert Report.objects.get().message_text == "you are hopeless"


@pytest.mark.parametrize(
    "data, status, said",
    [
        ({"player": "bob"}, 400, "This field is required"),  # no reason
        ({"player": "bob", "reason": "meanie"}, 400, "Select a valid choice"),
        ({"player": "alice", "reason": "abuse"}, 400, "You cannot report yourself."),
        ({"player": "nobody", "reason": "abuse"}, 404, ""),
        ({"message": "12x", "reason": "abuse"}, 404, ""),
        ({"message": "999999", "reason": "abuse"}, 404, ""),
        ({"message": "9" * 30, "reason": "abuse"}, 404, ""),  # past any id the database stores
    ],
)
def test_a_bad_report_is_explained_and_stores_nothing(user, bob, data, status, said):
    response = client_of(user).post(REPORT, data)
    assert response.status_code == status
    assert said in response.content.decode()
    assert not Report.objects.exists()


def test_a_second_report_of_the_same_player_is_refused_on_the_form(user, bob):
    client = client_of(user)
    client.post(REPORT, {"player": "bob", "reason": "abuse"})
    response = client.post(REPORT, {"player": "bob", "reason": "spam"})
    assert response.status_code == 409
    assert "You have reported bob already" in response.content.decode()
    assert Report.objects.count() == 1


def test_a_visitor_signs_in_before_reporting(bob):
    response = client_of().post(REPORT, {"player": "bob", "reason": "abuse"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Report.objects.exists()


# -- what the sanctioned player sees ---------------------------------------------------------


def test_a_player_muted_by_a_moderator_is_told_in_the_chat_until_when_and_why(user, bob, message, admin_user):
    services.sanction_give(player=bob, kind="mute", reason="Insults", by=admin_user, duration=timedelta(hours=2))
    client = client_of(bob)
    page = client.get(message.game.get_absolute_url()).content.decode()
    assert "A moderator has muted you in every chat until" in page and "Insults" in page
    assert 'name="text"' not in page  # no box to write in
    chat = reverse("games:chat", args=[message.game.pk])
    assert client.post(chat, {"text": "let me talk"}, HTTP_X_PARTIAL="1").status_code == 409
    told = client.post(chat, {"text": "let me talk"}, follow=True).content.decode()
    assert "Message not sent: a moderator has muted you in every chat until" in told
    assert ChatMessage.objects.count() == 1


def test_a_suspended_player_is_told_why_and_until_when_and_the_try_is_not_counted(user, bob, password, admin_user):
    player = client_of(bob)
    services.sanction_give(
        player=bob, kind="suspend", reason="Stalling games", by=admin_user, duration=timedelta(days=3)
    )
    assert player.get(reverse("games:account")).status_code == 302  # signed out at once
    client = Client()
    response = sign_in(client, "bob", password)
    page = response.content.decode()
    assert response.status_code == 200 and "This account is suspended until" in page and "Stalling games" in page
    assert not signed_in(client) and not AccessAttempt.objects.exists()


def test_the_account_page_keeps_a_players_reports_and_the_decisions_about_them(user, bob, admin_user):
    report = services.report_make(reporter=user, player=bob, reason="spam")
    page = client_of(user).get(reverse("games:account")).content.decode()
    assert "Your reports" in page and "Waiting for a moderator" in page
    services.reports_handle(report_ids=[report.pk], decision="warn", reason="No links in chat", by=admin_user)
    assert "bob was warned" in client_of(user).get(reverse("games:account")).content.decode()
    bobs = client_of(bob).get(reverse("games:account")).content.decode()
    assert "decisions about you" in bobs and "No links in chat" in bobs


# -- the admin, as a moderator ---------------------------------------------------------------


def test_a_moderator_warns_from_the_queue_after_giving_a_reason(user, bob, moderator):
    report = services.report_make(reporter=user, player=bob, reason="abuse")
    admin = client_of(moderator)
    queue = admin.get(reverse("admin:games_report_changelist"))
    assert queue.status_code == 200 and "bob" in queue.content.decode()
    chosen = {"action": "warn", "_selected_action": [report.pk]}
    asked = admin.post(reverse("admin:games_report_changelist"), chosen)
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    assert not Sanction.objects.exists()
    done = admin.post(
        reverse("admin:games_report_changelist"), {**chosen, "apply": "1", "reason": "Mind your words"}, follow=True
    )
    assert "1 report handled: warned." in done.content.decode()
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.reason, sanction.created_by) == ("warn", "Mind your words", moderator)


def test_a_moderator_suspends_for_a_chosen_time(user, bob, moderator):
    report = services.report_make(reporter=user, player=bob, reason="stalling")
    client_of(moderator).post(
        reverse("admin:games_report_changelist"),
        {"action": "suspend", "_selected_action": [report.pk], "apply": "1", "reason": "Stalling", "length": "7d"},
    )
    sanction = Sanction.objects.get()
    assert timedelta(days=7) - timedelta(minutes=1) < sanction.ends_at - sanction.created_at <= timedelta(days=7)
    bob.refresh_from_db()
    assert not bob.is_active


def test_a_moderator_mutes_players_in_bulk_from_the_users_list(bob, carol, moderator):
    response = client_of(moderator).post(
        reverse("admin:auth_user_changelist"),
        {
            "action": "mute_in_chat",
            "_selected_action": [bob.pk, carol.pk],
            "apply": "1",
            "reason": "Spam",
            "length": "1d",
        },
        follow=True,
    )
    assert "2 accounts muted in chat." in response.content.decode()
    assert Sanction.objects.filter(kind="mute").count() == 2


def test_a_moderator_lifts_a_sanction(bob, moderator):
    sanction = services.sanction_give(
        player=bob, kind="suspend", reason="Oops", by=moderator, duration=timedelta(days=1)
    )
    client_of(moderator).post(
        reverse("admin:games_sanction_changelist"), {"action": "lift", "_selected_action": [sanction.pk]}
    )
    bob.refresh_from_db()
    assert bob.is_active


def test_a_moderator_cannot_change_passwords_nor_delete_games(user, bob, moderator):
    game = human_game(user, bob)
    admin = client_of(moderator)
    assert admin.get(reverse("admin:auth_user_change", args=[bob.pk])).status_code == 200  # read only
    assert admin.get(reverse("admin:auth_user_password_change", args=[bob.pk])).status_code == 403
    response = admin.post(
        reverse("admin:auth_user_password_change", args=[bob.pk]),
        {"password1": "new-Passw0rd!x", "password2": "new-Passw0rd!x"},
    )
    assert response.status_code == 403
    bob.refresh_from_db()
    assert not bob.check_password("new-Passw0rd!x")
    assert admin.post(reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_player_without_the_permission_cannot_handle_reports(user, bob, django_user_model):
    staff = django_user_model.objects.create_user("helper", password="x", is_staff=True)
    report = services.report_make(reporter=user, player=bob, reason="abuse")
    response = client_of(staff).post(
        reverse("admin:games_report_changelist"),
        {"action": "close", "_selected_action": [report.pk], "apply": "1", "reason": "x"},
    )
    assert response.status_code == 403
    assert not Sanction.objects.exists()


def test_the_queue_reads_the_same_few_queries_for_many_reports(
    user, moderator, django_user_model, django_assert_max_num_queries
):
    for i in range(12):
        reporter = django_user_model.objects.create_user(f"r{i}")
        services.report_make(reporter=reporter, player=django_user_model.objects.create_user(f"p{i}"), reason="spam")
    admin = client_of(moderator)
    admin.get(reverse("admin:games_report_changelist"))  # the session and permissions, cached
    with django_assert_max_num_queries(12):
        assert admin.get(reverse("admin:games_report_changelist")).status_code == 200


def test_the_admin_index_says_how_many_reports_wait(user, bob, moderator):
    services.report_make(reporter=user, player=bob, reason="spam")
    index = client_of(moderator).get(reverse("admin:index")).content.decode()
    assert "Reports waiting" in index and '?status=waiting">1</a>' in index


def test_migrate_gives_the_moderator_group_what_the_queue_needs_and_no_more():
    granted = set(Group.objects.get(name="moderator").permissions.values_list("codename", flat=True))
    assert {"view_user", "view_report", "handle_report", "add_sanction", "change_sanction"} <= granted
    assert not granted & {"change_user", "delete_user", "delete_game", "change_game", "delete_sanction"}


def test_a_bad_length_or_a_missing_reason_asks_again_and_changes_nothing(user, bob, moderator):
    report = services.report_make(reporter=user, player=bob, reason="abuse")
    chosen = {"action": "suspend", "_selected_action": [report.pk], "apply": "1"}
    for bad in ({"reason": "Stalling", "length": "99y"}, {"reason": "", "length": "1d"}):
        response = client_of(moderator).post(reverse("admin:games_report_changelist"), {**chosen, **bad})
        assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Sanction.objects.exists()
    report.refresh_from_db()
    bob.refresh_from_db()
    assert report.is_waiting and bob.is_active
