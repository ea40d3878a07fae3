"""The game at a glance, in Chromium: at 1280×800 the chat stands beside the
board, all of it above the fold; on a phone the opponent's clock is above the
board and yours below, both on screen with the board, the chat a button away,
and the keys help gone where there is no keyboard. Screenshots go to /tmp."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import services as lobby_services
from games.play import chat_services, services
from games.play.players import Player
from tests.browser.conftest import assert_accessible
from tests.browser.test_live_browser import signed_in


def _clocked_game_with_a_message(alice):
    bob = get_user_model().objects.create_user("bob", password="a-long-passphrase-77")
    challenge = lobby_services.challenge_create(challenger=alice, side="X", time_control="5+3")
    game = lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)
    for ply, cell in enumerate([4, 0, 8]):
        services.game_play_move(game_id=game.pk, player=Player(user=(alice, bob)[ply % 2]), cell=cell, ply=ply)
    chat_services.chat_send(game_id=game.pk, player=Player(user=bob), text="good luck")
    return game


def _inside(box, width, height) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def test_on_a_desktop_the_chat_stands_beside_the_board_above_the_fold(asgi_live_server, new_page):
    page = new_page(viewport={"width": 1280, "height": 800})
    game = _clocked_game_with_a_message(signed_in(page, asgi_live_server, "alice"))
    page.goto(asgi_live_server.url + game.get_absolute_url())
    board, chat = page.locator("#game .board"), page.locator("#chat")
    expect(chat.get_by_text("good luck")).to_be_visible()
    board_box, chat_box = board.bounding_box(), chat.bounding_box()
    assert chat_box["x"] > board_box["x"] + board_box["width"]  # beside, not below
    assert chat_box["y"] < board_box["y"] + board_box["height"]
    assert _inside(chat.get_by_role("button", name="Send").bounding_box(), 1280, 800)
    expect(page.get_by_role("link", name="Chat", exact=True)).to_be_hidden()  # the phone's button
    assert_accessible(page)
    page.screenshot(path="/tmp/game-desktop-chat.png")


def test_on_a_phone_both_clocks_are_on_screen_with_the_board(asgi_live_server, new_page):
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    game = _clocked_game_with_a_message(signed_in(page, asgi_live_server, "alice"))
    page.goto(asgi_live_server.url + game.get_absolute_url())
    top, bottom = page.locator(".clock-bar--top"), page.locator(".clock-bar--bottom")
    expect(top).to_contain_text("bob")  # the opponent above
    expect(bottom).to_contain_text("alice (you)")  # yourself below
    board = page.locator("#game .board").bounding_box()
    top_box, bottom_box = top.bounding_box(), bottom.bounding_box()
    assert top_box["y"] + top_box["height"] <= board["y"] <= board["y"] + board["height"] <= bottom_box["y"]
    for box in (top_box, bottom_box, board):
        assert _inside(box, 390, 844)
    expect(top.locator("[data-clock-face]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator(".keys-help")).to_be_hidden()  # no keyboard on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/game-phone-clocks.png")

    # The chat is a button away, not a scroll past the moves.
    jump = page.get_by_role("link", name="Chat", exact=True)
    assert _inside(jump.bounding_box(), 390, 844)
    jump.click()
    expect(page.locator("#chat").get_by_text("good luck")).to_be_in_viewport()
    assert_accessible(page)
