"""Moderation in Chromium, three people in browsers of their own: alice
reports bob's chat message from the game page, a moderator who is not a
superuser suspends bob from the admin's queue, bob is told why when he tries
to sign in, and alice reads the outcome on her account page. Screenshots go
to /tmp."""

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from games.moderation.models import Report, Sanction
from games.play import chat_services
from games.play.players import Player
from tests.browser.conftest import assert_accessible
from tests.browser.test_live_browser import signed_in
from tests.factories import human_game

PASSWORD = "a-long-browser-passphrase-77"  # tests.browser.test_live_browser.signed_in's


def test_a_reported_message_ends_in_a_suspension_the_player_is_told_of(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice_page, mod_page = new_page(), new_page()
    alice = signed_in(alice_page, asgi_live_server, "alice")
    moderator = signed_in(mod_page, asgi_live_server, "mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name="moderator"))
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    game = human_game(alice, bob)
    chat_services.chat_send(game_id=game.pk, player=Player(user=bob), text="you play like a potato")

    # Alice reports the message from the game's chat.
    alice_page.goto(server + game.get_absolute_url())
    alice_page.get_by_role("link", name="Report this message from bob").click()
    expect(alice_page.get_by_role("heading", name="Report a message")).to_be_visible()
    expect(alice_page.locator("blockquote")).to_have_text("you play like a potato")
    alice_page.get_by_label("Insults or harassment").check()
    alice_page.get_by_label("In your own words (optional)").fill("He says this every game.")
    assert_accessible(alice_page)
    alice_page.screenshot(path="/tmp/moderation-report-form.png", full_page=True)
    alice_page.get_by_role("button", name="Send the report").click()
    expect(alice_page.get_by_text("your report is with the moderators")).to_be_visible()
    assert Report.objects.get().message_text == "you play like a potato"

    # The moderator, staff but not a superuser, suspends bob from the queue.
    assert not moderator.is_superuser
    mod_page.goto(server + "/admin/games/report/")
    row = mod_page.locator("#result_list tbody tr").filter(has_text="bob")
    expect(row).to_contain_text("you play like a potato")
    row.locator("input.action-select").check()
    mod_page.locator("select[name=action]").select_option(label="Suspend the reported players, for a time")
    mod_page.get_by_role("button", name="Go").click()
    expect(mod_page.get_by_role("heading", name="Suspend the reported players")).to_be_visible()
    mod_page.get_by_label("Reason").fill("Insults in chat")
    mod_page.get_by_label("For how long").select_option(label="3 days")
    mod_page.screenshot(path="/tmp/moderation-admin-decide.png", full_page=True)
    mod_page.get_by_role("button", name="Suspend the reported players").click()
    expect(mod_page.get_by_text("1 report handled: suspended.")).to_be_visible()
    mod_page.screenshot(path="/tmp/moderation-admin-queue.png", full_page=True)
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.created_by) == ("suspend", moderator)

    # Bob, suspended, is told why and until when when he tries to sign in.
    bob_page = new_page(viewport={"width": 390, "height": 844})
    bob_page.goto(server + "/accounts/login/")
    bob_page.get_by_label("Username").fill("bob")
    bob_page.get_by_label("Password").fill(PASSWORD)
    bob_page.get_by_role("button", name=re.compile("^(Sign in|Log in)$")).click()
    told = bob_page.get_by_text(re.compile(r"This account is suspended until .+: Insults in chat"))
    expect(told).to_be_visible()
    assert_accessible(bob_page)
    bob_page.screenshot(path="/tmp/moderation-suspended-sign-in.png", full_page=True)

    # Alice reads the outcome on her account page.
    alice_page.goto(server + "/account/")
    expect(alice_page.locator("#reports")).to_contain_text("bob was suspended")
    expect(alice_page.get_by_role("link", name=re.compile("^Notifications, 1 unread"))).to_be_visible()
