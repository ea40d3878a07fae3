"""Reports and sanctions: what a report may be, what each decision does to
the player, and who is told what."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.accounts import services as accounts
from games.errors import ChatRefused, InvalidInput, ReportRefused, ReportsRateLimited
from games.moderation import services
from games.moderation.models import Report, Sanction
from games.notifications.models import Kind, Notification
from games.play import chat_services
from games.play.players import Player
from tests.factories import human_game
from tests.races import at_once, refusal_codes

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", password="x", is_staff=True)


@pytest.fixture
def message(user, bob):
    """bob's message in his game with alice."""
    game = human_game(user, bob)
    return chat_services.chat_send(game_id=game.pk, player=Player(user=bob), text="you are hopeless")


def _told(user, kind):
    return list(Notification.objects.filter(user=user, kind=kind).values_list("text", flat=True))


def _report(reporter, **target):
    return services.report_make(reporter=reporter, reason="abuse", note="  rude   all game ", **target)


# -- reports ---------------------------------------------------------------------------------


def test_a_message_is_reported_with_its_words_and_author(user, bob, message):
    report = _report(user, message=message)
    assert (report.player, report.message_text, report.note) == (bob, "you are hopeless", "rude all game")
    assert report.is_waiting and report.outcome == "Waiting for a moderator"


@pytest.mark.parametrize(
    "target, code",
    [
        ({}, "report_target"),  # nothing named
        ({"player": "alice"}, "own_report"),
        ({"player": "bob", "reason": "meanie"}, "invalid_reason"),
        ({"player": "bob", "note": "x" * 501}, "note_too_long"),
    ],
)
def test_a_bad_report_is_refused_and_nothing_stored(user, bob, target, code):
    players = {"alice": user, "bob": bob}
    kwargs = {"reason": target.pop("reason", "abuse"), "note": target.pop("note", "")}
    if "player" in target:
        kwargs["player"] = players[target["player"]]
    with pytest.raises(InvalidInput) as refusal:
        services.report_make(reporter=user, **kwargs)
    assert refusal.value.code == code
    assert not Report.objects.exists()


def test_the_same_thing_is_reported_once_while_it_waits(user, bob, message):
    _report(user, message=message)
    _report(user, player=bob)  # the player, apart from the message
    for target in ({"message": message}, {"player": bob}):
        with pytest.raises(ReportRefused) as refusal:
            _report(user, **target)
        assert refusal.value.code == "reported_already"
    assert Report.objects.count() == 2


def test_closed_accounts_and_deleted_authors_are_not_reported(user, bob, carol, message):
    carol.is_active = False
    carol.save()
    with pytest.raises(ReportRefused) as refusal:
        _report(user, player=carol)
    assert refusal.value.code == "account_closed"
    bob.delete()
    message.refresh_from_db()
    with pytest.raises(ReportRefused) as refusal:
        _report(user, message=message)
    assert refusal.value.code == "author_gone"
    assert not Report.objects.exists()


def test_a_player_makes_at_most_ten_reports_a_day(user, django_user_model):
    others = [django_user_model.objects.create_user(f"p{i}") for i in range(11)]
    for other in others[:10]:
        _report(user, player=other)
    Report.objects.update(created_at=timezone.now() - timedelta(hours=20))
    with pytest.raises(ReportsRateLimited) as refusal:
        _report(user, player=others[10])
    assert 3 * 3600 < refusal.value.retry_after <= 4 * 3600  # when the oldest is a day old
    assert Report.objects.count() == 10


# -- decisions -------------------------------------------------------------------------------


def test_dismissing_tells_the_reporter_and_does_nothing_to_the_player(user, bob, moderator, message):
    report = _report(user, message=message)
    services.reports_handle(report_ids=[report.pk], decision="dismiss", by=moderator)
    report.refresh_from_db()
    assert (report.decision, report.handled_by, report.sanction) == ("dismiss", moderator, None)
    assert _told(user, Kind.REPORT_OUTCOME) == ["A moderator read your report of a message by bob and took no action"]
    assert not Sanction.objects.exists() and not _told(bob, Kind.SANCTION)


def test_a_warning_is_recorded_and_both_are_told(user, bob, carol, moderator, message):
    reports = [_report(user, message=message), _report(carol, player=bob)]
    handled = services.reports_handle(
        report_ids=[r.pk for r in reports], decision="warn", reason="Be kind in chat.", by=moderator
    )
    sanction = Sanction.objects.get()
    assert (sanction.player, sanction.kind, sanction.reason, sanction.created_by) == (
        bob,
        "warn",
        "Be kind in chat.",
        moderator,
    )
    assert {r.sanction for r in handled} == {sanction}  # one warning for the two reports
    assert _told(bob, Kind.SANCTION) == ["A moderator warned you: Be kind in chat."]
    assert _told(user, Kind.REPORT_OUTCOME) == ["A moderator handled your report of a message by bob: bob was warned"]
    assert _told(carol, Kind.REPORT_OUTCOME) == ["A moderator handled your report of bob: bob was warned"]


def test_a_chat_mute_refuses_every_message_until_it_ends(user, bob, moderator, message):
    report = _report(user, message=message)
    services.reports_handle(
        report_ids=[report.pk], decision="mute", reason="Insults", by=moderator, duration=timedelta(hours=1)
    )
    other_game = human_game(bob, user)
    with pytest.raises(ChatRefused) as refusal:
        chat_services.chat_send(game_id=other_game.pk, player=Player(user=bob), text="sorry")
    assert refusal.value.code == "chat_banned"
    assert "until" in refusal.value.message and refusal.value.message.endswith(": Insults")
    assert "muted you in every chat until" in _told(bob, Kind.SANCTION)[0]
    chat_services.chat_send(game_id=other_game.pk, player=Player(user=user), text="alice still writes")
    bob.chat_ban.until = timezone.now() - timedelta(seconds=1)
    bob.chat_ban.save()
    chat_services.chat_send(game_id=other_game.pk, player=Player(user=bob), text="over")  # the hour is up


def test_a_suspension_closes_the_account_until_it_ends_and_sign_in_says_why(user, bob, moderator, password):
    report = _report(user, player=bob)
    services.reports_handle(
        report_ids=[report.pk], decision="suspend", reason="Stalling games", by=moderator, duration=DAY
    )
    bob.refresh_from_db()
    assert not bob.is_active
    refusal = accounts.sign_in_refusal(username="bob", password=password)
    assert refusal.code == "account_suspended"
    assert refusal.message.startswith("this account is suspended until ") and "Stalling games" in refusal.message
    assert accounts.sign_in_refusal(username="bob", password="wrong") is None  # a wrong password says nothing
    assert services.suspensions_end() == 0  # not yet
    Sanction.objects.update(ends_at=timezone.now() - timedelta(seconds=1))
    assert services.suspensions_end() == 1
    bob.refresh_from_db()
    assert bob.is_active


def test_a_suspension_over_opens_the_account_at_sign_in_without_the_worker(bob, moderator, password):
    services.sanction_give(player=bob, kind="suspend", reason="Cooling off", by=moderator, duration=DAY)
    Sanction.objects.update(ends_at=timezone.now() - timedelta(seconds=1))
    assert accounts.sign_in_refusal(username="bob", password=password) is None
    bob.refresh_from_db()
    assert bob.is_active


def test_a_closing_outlasts_a_suspension_and_says_its_reason(bob, moderator, password):
    services.sanction_give(player=bob, kind="suspend", reason="Cooling off", by=moderator, duration=DAY)
    services.sanction_give(player=bob, kind="close", reason="Repeated abuse", by=moderator)
    Sanction.objects.filter(kind="suspend").update(ends_at=timezone.now() - timedelta(seconds=1))
    assert services.suspensions_end() == 0
    bob.refresh_from_db()
    assert not bob.is_active
    refusal = accounts.sign_in_refusal(username="bob", password=password)
    assert refusal.code == "account_closed" and "Repeated abuse" in refusal.message
    with pytest.raises(ReportRefused) as again:
        services.sanction_give(player=bob, kind="close", reason="Twice", by=moderator)
    assert again.value.code == "account_closed"


def test_staff_are_not_sanctioned_and_a_timed_sanction_needs_its_length(user, moderator, admin_user):
    for staff in (moderator, admin_user):
        with pytest.raises(ReportRefused) as refusal:
            services.sanction_give(player=staff, kind="close", reason="No", by=moderator)
        assert refusal.value.code == "staff_account"
    for kind, reason, code in (("mute", "Rude", "duration_missing"), ("warn", "  ", "reason_missing")):
        with pytest.raises(InvalidInput) as refusal:
            services.sanction_give(player=user, kind=kind, reason=reason, by=moderator)
        assert refusal.value.code == code
    assert not Sanction.objects.exists()
    assert get_user_model().objects.filter(is_active=False).count() == 0


def test_lifting_a_mute_or_a_suspension_gives_back_what_it_took(bob, moderator):
    mute = services.sanction_give(player=bob, kind="mute", reason="Rude", by=moderator, duration=DAY)
    suspension = services.sanction_give(player=bob, kind="suspend", reason="Rude", by=moderator, duration=DAY)
    assert services.sanction_lift(sanction=suspension, by=moderator)
    assert services.sanction_lift(sanction=mute, by=moderator)
    assert not services.sanction_lift(sanction=mute, by=moderator)  # lifted already
    bob.refresh_from_db()
    assert bob.is_active and not hasattr(bob, "chat_ban")
    mute.refresh_from_db()
    assert mute.lifted_by == moderator and not mute.in_force()
    assert "A moderator lifted your chat mute" in _told(bob, Kind.SANCTION)


@pytest.mark.django_db(transaction=True)
def test_two_moderators_handling_the_same_reports_at_once_give_one_sanction(user, bob, carol, moderator, admin_user):
    ids = [_report(user, player=bob).pk, _report(carol, player=bob).pk]
    results = at_once(
        lambda: services.reports_handle(report_ids=ids, decision="warn", reason="One", by=moderator),
        lambda: services.reports_handle(report_ids=ids, decision="warn", reason="Two", by=admin_user),
    )
    assert refusal_codes(results) == ["ok", "ok"]
    assert sorted(len(handled) for handled in results) == [0, 2]
    assert Sanction.objects.count() == 1
    assert len(_told(bob, Kind.SANCTION)) == 1 and len(_told(user, Kind.REPORT_OUTCOME)) == 1


@pytest.mark.django_db(transaction=True)
def test_two_reports_of_the_same_message_at_once_store_one(user, bob, message):
    results = at_once(lambda: _report(user, message=message), lambda: _report(user, message=message))
    assert sorted(refusal_codes(results)) == ["ok", "reported_already"]
    assert Report.objects.count() == 1
