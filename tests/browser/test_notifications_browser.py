"""Notifications in Chromium, two people in browsers of their own (Daphne:
HTTP and WebSockets): a challenge by name noticed on the home page without a
reload (the bell's count and a note), accepted from the home page; the bell at
phone width; the notifications page read once seen; a correspondence move
mailed once to the player who is away. Screenshots go to /tmp."""

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games.lobby import services
from games.notifications import services as notification_services
from tests.browser.conftest import assert_accessible
from tests.browser.test_live_browser import assert_not_reloaded, mark_no_reload, signed_in


def test_a_challenge_is_noticed_on_the_home_page_and_accepted_there(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice_page, bob_page = new_page(viewport={"width": 1280, "height": 800}), new_page()
    signed_in(alice_page, asgi_live_server, "alice")
    signed_in(bob_page, asgi_live_server, "bob")
    alice_page.goto(server + "/")
    bell = alice_page.get_by_role("link", name=re.compile("^Notifications"))
    expect(bell).to_have_accessible_name("Notifications")
    # The bell's socket is open once the page has loaded: then bob challenges, from the lobby.
    alice_page.wait_for_load_state("networkidle")
    mark_no_reload(alice_page)
    bob_page.goto(server + "/lobby/")
    bob_page.get_by_label("A player I name").check()
    bob_page.get_by_label("Player's username").fill("alice")
    bob_page.get_by_role("button", name="Create the challenge").click()
    expect(bob_page.locator(".message")).to_be_visible()

    expect(bell).to_have_accessible_name("Notifications, 1 unread")
    note = alice_page.get_by_role("status").filter(has_text="bob challenges you (3×3, no limit, rated)")
    expect(note).to_be_visible()
    assert_not_reloaded(alice_page)
    alice_page.screenshot(path="/tmp/notification-note.png")

    # The home page lists it, with accept and decline right there.
    alice_page.reload()
    mine = alice_page.locator("#for-you-title").locator("xpath=..")
    expect(mine).to_contain_text("bob")
    assert_accessible(alice_page)
    mine.get_by_role("button", name="Accept").click()
    expect(alice_page).to_have_url(re.compile(r"/games/\d+/$"))


def test_the_bell_fits_the_phone_header_and_the_list_is_read_once_seen(asgi_live_server, new_page):
    server = asgi_live_server.url
    page = new_page(viewport={"width": 390, "height": 844})
    alice = signed_in(page, asgi_live_server, "alice")
    bob = signed_in(new_page(), asgi_live_server, "bob")
    services.challenge_create(challenger=bob, kind="direct", opponent_username=alice.username)
    page.goto(server + "/")
    bell = page.get_by_role("link", name="Notifications, 1 unread")
    expect(bell).to_be_visible()
    box = bell.bounding_box()
    assert box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/notification-bell-phone.png")
    bell.click()
    expect(page.get_by_role("heading", name="Notifications", level=1)).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("^bob challenges you"))).to_be_visible()
    assert_accessible(page)
    page.screenshot(path="/tmp/notifications-phone.png", full_page=True)
    page.reload()
    expect(page.get_by_role("link", name="Notifications")).to_be_visible()  # read: no count


def test_a_correspondence_move_is_mailed_once_to_the_player_away(asgi_live_server, new_page, mailoutbox):
    server = asgi_live_server.url
    alice_page = new_page()
    alice = signed_in(alice_page, asgi_live_server, "alice")
    bob = get_user_model().objects.create_user("bob", email="bob@example.com", password="a-long-passphrase-77")
    challenge = services.challenge_create(challenger=alice, side="X", time_control="3d")
    game = services.challenge_accept(user=bob, challenge_id=challenge.pk)

    alice_page.goto(server + game.get_absolute_url())
    alice_page.locator('#game .board .cell[value="4"]').click()
    expect(alice_page.locator("#game-status")).to_contain_text("Waiting for bob")

    # Ten minutes on, bob has not been on the site: one mail, and only one.
    later = timezone.now() + timedelta(minutes=11)
    assert notification_services.turn_mails_send(now=later) == 1
    assert notification_services.turn_mails_send(now=later + timedelta(minutes=5)) == 0
    (mail,) = mailoutbox
    assert mail.to == ["bob@example.com"] and mail.subject == "Your turn against alice (3×3) (tttsite)"
    assert game.get_absolute_url() in mail.body and "/notifications/unsubscribe/" in mail.body


def test_the_signed_in_phone_menu_shows_every_link(asgi_live_server, new_page):
    page = new_page(viewport={"width": 390, "height": 844})
    signed_in(page, asgi_live_server, "alice")
    page.goto(asgi_live_server.url + "/")
    nav = page.get_by_role("navigation", name="Main")
    for name in ("Play", "Lobby", "My games", "Learn", "Leaderboard", "Stats"):
        link = nav.get_by_role("link", name=name, exact=True)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, name
    page.screenshot(path="/tmp/phone-menu.png")


#: A stand-in for the Web Audio API that writes down every tone started.
RECORD_TONES = """
window.__tones = [];
window.AudioContext = function () {
  this.currentTime = 0;
  this.destination = {};
  this.createGain = function () {
    return { gain: { setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {} },
             connect: function (next) { return next; } };
  };
  this.createOscillator = function () {
    var oscillator = { frequency: { value: 0 }, connect: function (next) { return next; }, stop: function () {} };
    oscillator.start = function () { window.__tones.push(oscillator.frequency.value); };
    return oscillator;
  };
};
"""


def test_sounds_chosen_on_the_account_page_play_for_moves_and_the_end(live_server, new_page):
    from tests.browser.test_play_browser import free_cells, game_over, log_in

    page = new_page()
    page.add_init_script(RECORD_TONES)
    log_in(page, live_server, "listener")
    page.goto(live_server.url + "/account/")
    page.get_by_label("Play a sound for each move and the end of a game").check()
    page.locator("#notification-settings").get_by_role("button", name="Save").click()
    expect(page.locator(".message")).to_contain_text("Notification settings saved")

    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Play now as X").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    page.wait_for_load_state()  # game.js is there to play the move in place (and its sound)
    page.locator(f'#game .board .cell[value="{free_cells(page)[0]}"]').click()
    page.wait_for_function("() => window.__tones.length >= 1")
    assert page.evaluate("window.__tones") == [880]  # a move (and the AI's reply) arrived
    while not game_over(page):
        ply = page.locator("#game").get_attribute("data-ply")
        page.locator(f'#game .board .cell[value="{free_cells(page)[0]}"]').click()
        expect(page.locator("#game")).not_to_have_attribute("data-ply", ply)
    page.wait_for_function("() => window.__tones.slice(-2).join() === '660,440'")
