"""Offers between two people in two browsers, live: a takeback asked for and
accepted, then a draw offered and accepted. Each page hears of the other
player's offer over its socket and shows it without a reload."""

from playwright.sync_api import expect

from tests.browser.test_live_browser import (
    alice_and_bob_in_a_game,
    assert_not_reloaded,
    cell,
    expect_live,
    mark_no_reload,
)


def test_a_takeback_and_a_draw_are_offered_and_accepted_live(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server, takebacks_allowed=True)
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    expect_live(alice)
    expect_live(bob)
    mark_no_reload(alice, bob)

    # Alice plays, thinks better of it and asks to take the move back.
    cell(alice, 4).click()
    expect(cell(bob, 4)).to_have_text("X")
    alice.get_by_role("button", name="Ask to take back").click()
    expect(alice.locator("#game")).to_contain_text("Takeback asked for. Waiting for bob to answer.")
    expect(bob.locator("#game")).to_contain_text("alice asks to take back their last move.")
    alice.screenshot(path="/tmp/tttsite-takeback-asked.png", full_page=True)
    bob.get_by_role("button", name="Accept the takeback").click()
    expect(cell(bob, 4)).to_have_text("")
    expect(cell(alice, 4)).to_have_text("")
    expect(alice.locator("#game-status")).to_contain_text("Your turn")

    # She plays elsewhere, bob answers, then she offers a draw; bob sees it at once and accepts.
    cell(alice, 0).click()
    expect(cell(bob, 0)).to_have_text("X")
    cell(bob, 4).click()
    expect(cell(alice, 4)).to_have_text("O")
    alice.get_by_role("button", name="Offer a draw").click()
    expect(alice.locator("#game")).to_contain_text("Draw offered. Waiting for bob to answer.")
    expect(bob.locator("#game")).to_contain_text("alice offers a draw.")
    bob.screenshot(path="/tmp/tttsite-draw-offered.png", full_page=True)
    bob.get_by_role("button", name="Accept the draw").click()

    for page in (alice, bob):
        expect(page.locator("#game-status")).to_contain_text("Draw")
        expect(page.locator("#game-status")).to_contain_text("by agreement")
        expect(page.get_by_role("button", name="Offer a draw")).to_have_count(0)
    assert_not_reloaded(alice, bob)
    game.refresh_from_db()
    assert (game.status, game.result, game.termination, game.cells) == ("finished", "draw", "agreed", [0, 4])
    bob.screenshot(path="/tmp/tttsite-offers.png", full_page=True)
