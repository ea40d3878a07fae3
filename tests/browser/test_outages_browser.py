"""Two people playing while the live connection is gone: the game page fetches
the game every few seconds instead, so the opponent's moves still appear; a
move the server cannot take says so on the page.
"""

import re

import pytest
from playwright.sync_api import expect

from games.play.models import Game
from tests.browser.test_live_browser import (
    alice_and_bob_in_a_game,
    assert_not_reloaded,
    cell,
    expect_live,
    mark_no_reload,
)

OFFLINE = "offline — refreshing every 5 s"
POLLED = 12_000  # ms: one poll (5 s) and its fetch, with room to spare on a busy machine


@pytest.fixture
def server_without_redis(settings, request):
    """Daphne whose channel layer is a Redis that is not there: every socket
    is closed with 4503 as soon as it is opened."""
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }
    return request.getfixturevalue("asgi_live_server")


def test_a_blocked_socket_falls_back_on_fetching_the_game(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)

    # Bob's socket never reaches the server: whatever the page opens is closed at once.
    bob.route_web_socket(re.compile(r"/ws/games/"), lambda ws: ws.close(code=1006, reason="blocked"))
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    expect_live(alice)
    expect(bob.locator("[data-live-indicator]")).to_have_text(OFFLINE)
    mark_no_reload(bob)

    cell(alice, 4).click()
    expect(cell(bob, 4)).to_have_text("X", timeout=POLLED)
    expect(bob.locator("#game-status")).to_contain_text("Your turn")
    cell(bob, 0).click()  # moves are POSTs: they need no socket
    expect(cell(alice, 0)).to_have_text("O")  # alice's page is live
    expect(bob.locator("[data-live-indicator]")).to_have_text(OFFLINE)
    assert_not_reloaded(bob)


def test_with_redis_down_both_pages_play_on_by_fetching(server_without_redis, new_page):
    server = server_without_redis.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, server_without_redis)
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    for page in (alice, bob):
        expect(page.locator("[data-live-indicator]")).to_have_text(OFFLINE)
    mark_no_reload(alice, bob)

    for ply, (mover, waiter, index, mark) in enumerate([(alice, bob, 4, "X"), (bob, alice, 0, "O")]):
        expect(mover.locator("#game")).to_have_attribute("data-your-turn", "1", timeout=POLLED)
        cell(mover, index).click()
        expect(cell(waiter, index)).to_have_text(mark, timeout=POLLED)
        expect(waiter.locator("#game")).to_have_attribute("data-ply", str(ply + 1))
    assert_not_reloaded(alice, bob)
    assert Game.objects.get().move_count == 2


def test_a_move_the_server_cannot_take_is_put_back_with_the_reason(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(expected_errors=["status of 503"]), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    alice.goto(server + game.get_absolute_url())
    expect_live(alice)
    mark_no_reload(alice)

    # The database stops just as alice moves: the server answers 503.
    alice.route(
        re.compile(r"/games/\d+/move/$"),
        lambda route: route.fulfill(
            status=503, headers={"Retry-After": "5"}, content_type="text/html", body="<h1>Back in a moment</h1>"
        ),
    )
    cell(alice, 4).click()
    expect(alice.locator(".game-error")).to_have_text(
        "The site is not answering just now, so your move was not played. Try again in a few seconds."
    )
    expect(cell(alice, 4)).to_have_text("")  # the mark shown at once is taken back
    expect(cell(alice, 4)).to_be_enabled()
    assert Game.objects.get().move_count == 0

    # Back: the same click plays.
    alice.unroute(re.compile(r"/games/\d+/move/$"))
    cell(alice, 4).click()
    expect(cell(alice, 4)).to_have_text("X")
    expect(alice.locator(".game-error")).to_have_count(0)
    assert_not_reloaded(alice)
    assert Game.objects.get().move_count == 1
