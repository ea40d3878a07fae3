"""A socket the server will not serve: the browser hears the code and the
reason (the server accepts, then closes), and the page says why instead of
trying again forever."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_browser import alice_and_bob_in_a_game, signed_in

OPEN_AND_WAIT_FOR_CLOSE = """url => new Promise(resolve => {
  const socket = new WebSocket(url);
  socket.addEventListener("close", event => resolve([event.code, event.reason]));
})"""


def _closed_with(page, url: str) -> tuple[int, float]:
    """The code ``page`` hears closing a socket it opens to ``url``, and the seconds it took."""
    started = time.monotonic()
    code, _reason = page.evaluate(OPEN_AND_WAIT_FOR_CLOSE, url)
    return code, time.monotonic() - started


def test_the_browser_hears_why_a_socket_is_closed(asgi_live_server, new_page):
    """Daphne (runserver, these tests) drops the reason, uvicorn sends it
    (tests/live/test_production_server.py): the page has its own words for
    each code."""
    server = asgi_live_server.url
    alice, bob, stranger = new_page(), new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    stranger.goto(server + game.get_absolute_url())
    code, seconds = _closed_with(stranger, f"{asgi_live_server.ws_url}/ws/games/{game.pk}/")
    assert code == 4401, f"closed with {code} after {seconds:.1f} s"


def test_the_browser_hears_that_there_is_no_such_game(asgi_live_server, new_page):
    alice = new_page()
    signed_in(alice, asgi_live_server, "alice")
    alice.goto(asgi_live_server.url + "/")
    code, seconds = _closed_with(alice, f"{asgi_live_server.ws_url}/ws/games/999999/")
    assert code == 4404, f"closed with {code} after {seconds:.1f} s"


@pytest.mark.parametrize(
    "code, reason, shown",
    [
        (4401, "sign in to follow a game between people", "not live — sign in to follow a game between people"),
        (4403, "", "not live — this page is not served by the site"),
        (4404, "no such game", "not live — no such game"),
    ],
)
def test_the_game_page_says_why_it_is_not_live_and_stops_trying(asgi_live_server, new_page, code, reason, shown):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    opened = []

    def close_at_once(ws):
        opened.append(ws.url)
        ws.close(code=code, reason=reason)

    alice.route_web_socket(re.compile(r"/ws/games/"), close_at_once)
    alice.goto(server + game.get_absolute_url())
    indicator = alice.locator("[data-live-indicator]")
    expect(indicator).to_have_text(shown)
    expect(indicator).to_be_visible()
    alice.wait_for_timeout(3500)  # the retries would have come at 1 s and 3 s
    assert len(opened) == 1
    expect(indicator).to_have_text(shown)


def test_the_lobby_says_why_it_is_not_live_and_stops_trying(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice = new_page()
    signed_in(alice, asgi_live_server, "alice")
    opened = []

    def close_at_once(ws):
        opened.append(ws.url)
        ws.close(code=4401, reason="sign in to follow the lobby")

    alice.route_web_socket(re.compile(r"/ws/lobby/"), close_at_once)
    alice.goto(server + "/lobby/")
    expect(alice.locator("[data-live-indicator]")).to_have_text("not live — sign in to follow the lobby")
    alice.wait_for_timeout(3500)
    assert len(opened) == 1
