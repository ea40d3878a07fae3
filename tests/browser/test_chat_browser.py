"""Two people chat live beside their game, in two browsers, against Daphne;
one mutes the other. Pages are marked with ``window.__noReload``: a mark that
survives shows that what a page shows arrived over the socket, not a reload."""

from playwright.sync_api import expect

from games.play.chat_models import ChatMessage
from tests.browser.test_live_browser import (
    alice_and_bob_in_a_game,
    assert_not_reloaded,
    cell,
    expect_live,
    mark_no_reload,
)


def chat_lines(page):
    return page.locator("#chat .chat__message")


def send(page, text):
    page.get_by_label("Message to").fill(text)
    page.get_by_label("Message to").press("Enter")


def test_two_players_chat_live_and_one_mutes_the_other(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page(expected_errors=["status of 409"])  # refused once muted, on purpose
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    for page in (alice, bob):
        page.goto(server + game.get_absolute_url())
        expect_live(page)
        expect(page.locator("#chat")).to_contain_text("No messages yet.")
    mark_no_reload(alice, bob)

    # Alice writes; bob reads it at once, as text (no markup made of it).
    send(alice, "good luck <b>bob</b>")
    expect(chat_lines(bob)).to_have_count(1)
    expect(chat_lines(bob).first).to_contain_text("alice")
    expect(bob.locator("#chat .chat__text").first).to_have_text("good luck <b>bob</b>")
    expect(bob.locator("#chat b")).to_have_count(0)
    expect(alice.get_by_label("Message to")).to_have_value("")  # sent: the box is empty again
    expect(chat_lines(alice)).to_have_count(1)

    send(bob, "thanks, you too")
    expect(chat_lines(alice)).to_have_count(2)
    expect(chat_lines(alice).last).to_contain_text("thanks, you too")

    # A move swaps the game panel, not the chat: what bob is typing stays.
    bob.get_by_label("Message to").fill("half a thou")
    cell(alice, 4).click()
    expect(cell(bob, 4)).to_have_text("X")
    expect(bob.get_by_label("Message to")).to_have_value("half a thou")

    # Alice mutes bob: his messages disappear from her page, and his next is refused.
    alice.get_by_role("button", name="Mute bob").click()
    expect(alice.locator("#chat")).to_contain_text("You muted bob")
    expect(chat_lines(alice)).to_have_count(1)
    expect(alice.get_by_role("button", name="Unmute bob")).to_be_visible()

    send(bob, "hello? are you there?")
    expect(bob.locator("#chat .chat__error")).to_contain_text("your opponent has muted you")
    expect(bob.get_by_label("Message to")).to_have_value("hello? are you there?")  # kept, not lost
    send(alice, "still here")
    expect(chat_lines(bob).last).to_contain_text("still here")  # the muter still reaches bob
    expect(chat_lines(alice)).to_have_count(2)
    assert "hello? are you there?" not in alice.locator("#chat").inner_text()

    # Unmuted, bob's messages show again.
    alice.get_by_role("button", name="Unmute bob").click()
    expect(chat_lines(alice)).to_have_count(3)
    expect(alice.locator("#chat")).to_contain_text("thanks, you too")
    assert_not_reloaded(alice, bob)
    assert list(ChatMessage.objects.order_by("id").values_list("side", "text")) == [
        ("X", "good luck <b>bob</b>"),
        ("O", "thanks, you too"),
        ("X", "still here"),
    ]
