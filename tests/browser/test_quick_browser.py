"""Quick games and invite links in real browsers, against Daphne (HTTP and
WebSockets): two people press Play for the same board and time control and
meet in one game; a "Copy link" button puts an invite link on the clipboard."""

import re

from playwright.sync_api import expect

from games.lobby.models import Challenge, PairingRequest
from games.play.models import Game
from tests.browser.test_live_browser import signed_in


def test_two_people_press_play_and_meet_in_the_same_game_live(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    signed_in(alice, asgi_live_server, "alice")
    signed_in(bob, asgi_live_server, "bob")

    # Alice asks for a 4x4 game at 3+2 and waits; the time waited ticks.
    alice.goto(server + "/play/quick/")
    alice.get_by_label("4×4, four in a row").check()
    alice.get_by_label("3+2", exact=True).check()
    alice.get_by_role("button", name="Play").click()
    expect(alice).to_have_url(re.compile(r"/play/quick/\d+/$"))
    heading = alice.get_by_role("heading", name=re.compile("Waiting for an opponent"))
    expect(heading).to_contain_text(re.compile(r"0:0[0-2]"))
    expect(heading).to_contain_text(re.compile(r"0:0[2-9]"), timeout=6000)  # ticking, with no reload
    # Every few seconds the page checks in (a POST that keeps the request alive), with no reload.
    alice.evaluate("window.__noReload = true")
    with alice.expect_response(lambda r: r.request.method == "POST" and "/play/quick/" in r.url) as checked_in:
        pass
    assert checked_in.value.status == 200
    assert 'data-status="waiting"' in checked_in.value.text()
    assert alice.evaluate("window.__noReload") is True
    alice.screenshot(path="/tmp/tttsite-quick-waiting.png", full_page=True)

    # Bob asks for the same from the lobby's Quick game card.
    bob.goto(server + "/lobby/")
    card = bob.locator("#quick-game")
    card.get_by_label("4×4, four in a row").check()
    card.get_by_label("3+2", exact=True).check()
    card.get_by_role("button", name="Play").click()

    # Both are in the same game: bob by the answer to his Play, alice by her page hearing of it.
    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    expect(alice).to_have_url(server + game.get_absolute_url())
    assert bob.url == alice.url
    assert (game.variant, game.clock_initial, game.clock_increment) == ("4x4", 180, 2)
    assert set(PairingRequest.objects.values_list("status", "game")) == {("matched", game.pk)}
    expect(bob.locator(".message")).to_contain_text("Paired: your game has started.")
    for page in (alice, bob):
        expect(page.locator("#game")).to_be_visible()


def test_without_javascript_the_waiting_page_reloads_itself_into_the_game(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(java_script_enabled=False), new_page(java_script_enabled=False)
    signed_in(alice, asgi_live_server, "alice")
    signed_in(bob, asgi_live_server, "bob")

    alice.goto(server + "/play/quick/")
    alice.get_by_label("1+0", exact=True).check()
    alice.get_by_role("button", name="Play").click()
    expect(alice.get_by_role("heading", name=re.compile("Waiting for an opponent"))).to_be_visible()

    bob.goto(server + "/play/quick/")
    bob.get_by_label("1+0", exact=True).check()
    bob.get_by_role("button", name="Play").click()
    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))
    # Alice's page reloads itself within a few seconds, and goes to the game.
    expect(alice).to_have_url(bob.url, timeout=10_000)


def test_cancelling_from_the_waiting_page(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice = new_page()
    signed_in(alice, asgi_live_server, "alice")
    alice.goto(server + "/play/quick/")
    alice.get_by_role("button", name="Play").click()
    expect(alice.get_by_role("heading", name=re.compile("Waiting for an opponent"))).to_be_visible()
    alice.get_by_role("button", name="Cancel").click()
    expect(alice).to_have_url(server + "/play/quick/")
    expect(alice.locator(".message")).to_contain_text("You are no longer waiting for a game.")
    assert PairingRequest.objects.get().status == "cancelled"


def test_the_copy_button_puts_the_invite_link_on_the_clipboard(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice = new_page(permissions=["clipboard-read", "clipboard-write"])
    signed_in(alice, asgi_live_server, "alice")
    alice.goto(server + "/challenges/new/")
    alice.get_by_label("Whoever I send a link to").check()
    alice.get_by_label("5+3", exact=True).check()
    alice.get_by_role("button", name="Create the challenge").click()
    challenge = Challenge.objects.get()
    expect(alice).to_have_url(server + challenge.get_absolute_url())
    expect(alice.locator(".terms")).to_contain_text("Time control5+3 (5 minutes + 3 s a move)")

    link = alice.get_by_label("Send this link to the person you want to play:")
    expect(link).to_have_value(server + challenge.get_absolute_url())
    expect(link).to_have_attribute("readonly", "")
    button = alice.get_by_role("button", name="Copy link")
    button.click()
    expect(alice.locator("[data-copy-status]")).to_have_text("Copied: the link is on your clipboard.")
    expect(alice.get_by_role("button", name="Copied")).to_be_visible()
    assert alice.evaluate("navigator.clipboard.readText()") == server + challenge.get_absolute_url()
    alice.screenshot(path="/tmp/tttsite-invite-copied.png", full_page=True)
    # The button says what it does again a few seconds later.
    expect(alice.get_by_role("button", name="Copy link")).to_be_visible(timeout=6000)


def test_without_javascript_the_invite_link_is_a_field_to_copy_and_no_button(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice = new_page(java_script_enabled=False)
    user = signed_in(alice, asgi_live_server, "alice")
    challenge = Challenge.objects.create(challenger=user, kind="link", token="t0ken-for-the-browser-test")
    alice.goto(server + challenge.get_absolute_url())
    link = alice.get_by_label("Send this link to the person you want to play:")
    expect(link).to_have_value(server + challenge.get_absolute_url())
    expect(alice.get_by_role("button", name="Copy link")).to_be_hidden()
