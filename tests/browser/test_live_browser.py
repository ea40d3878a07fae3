"""Two people playing live, in two browsers, against Daphne (HTTP and WebSockets).

Each person has a browser context of their own (their own cookies). Pages are
marked with ``window.__noReload``: a mark that survives shows that what the
page shows arrived over the socket and the fetch that followed, not a reload.
"""

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from games.lobby import services
from games.play.models import Game

X_WINS = [0, 3, 1, 4, 2]  # X takes the top row


def signed_in(page, server, username):
    """``page``'s browser context, signed in as a new player called ``username``."""
    user = get_user_model().objects.create_user(username, password="a-long-browser-passphrase-77")
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server.url}])
    return user


def cell(page, index):
    return page.locator(f'#game .board .cell[value="{index}"]')


def mark_no_reload(*pages):
    for page in pages:
        page.evaluate("window.__noReload = true")


def assert_not_reloaded(*pages):
    for page in pages:
        assert page.evaluate("window.__noReload") is True, f"{page.url} was reloaded"


def expect_live(page):
    expect(page.locator("[data-live-indicator]")).to_have_text("live")


def game_between(x, o, **terms) -> Game:
    challenge = services.challenge_create(challenger=x, side="X", **terms)
    return services.challenge_accept(user=o, challenge_id=challenge.pk)


def alice_and_bob_in_a_game(alice, bob, server, **terms) -> Game:
    """Sign the pages in as alice (X) and bob (O) and start a game between them."""
    return game_between(signed_in(alice, server, "alice"), signed_in(bob, server, "bob"), **terms)


def test_two_people_meet_in_the_lobby_and_play_a_whole_game_live(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    signed_in(alice, asgi_live_server, "alice")
    signed_in(bob, asgi_live_server, "bob")

    # Bob waits in the lobby; nobody has offered a game yet.
    bob.goto(server + "/lobby/")
    expect(bob.locator("#lobby-lists")).to_contain_text("Nobody is waiting for a game right now")
    expect_live(bob)
    mark_no_reload(bob)

    # Alice offers a game in the lobby, playing X.
    alice.goto(server + "/")
    alice.locator(".site-header").get_by_role("link", name="Lobby").click()
    expect(alice.get_by_role("heading", name="Lobby")).to_be_visible()
    alice.get_by_label("X (you move first)").check()
    alice.get_by_label("Anyone, in the lobby").check()
    alice.get_by_role("button", name="Create the challenge").click()
    expect(alice.locator(".message")).to_contain_text("Your challenge is in the lobby")
    expect(alice.locator("#lobby-lists")).to_contain_text("In the lobby, waiting for anyone")
    expect_live(alice)

    # Bob's lobby shows it without a reload; he accepts, and alice's page
    # follows him into the game by itself.
    accept = bob.get_by_role("button", name="Accept alice's challenge")
    expect(accept).to_be_visible()
    assert_not_reloaded(bob)
    accept.click()
    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))
    expect(alice).to_have_url(bob.url)
    expect_live(alice)
    expect_live(bob)
    expect(alice.locator("#game-status")).to_contain_text("Your turn")
    expect(bob.locator("#game-status")).to_contain_text("Waiting for alice")
    mark_no_reload(alice, bob)

    players = [(alice, bob, "X"), (bob, alice, "O")]
    for ply, index in enumerate(X_WINS):
        mover, waiter, mark = players[ply % 2]
        expect(mover.locator("#game")).to_have_attribute("data-your-turn", "1")
        cell(mover, index).click()
        # The opponent's mark appears on the other page with no reload.
        expect(cell(waiter, index)).to_have_text(mark)
        expect(waiter.locator("#game")).to_have_attribute("data-ply", str(ply + 1))

    expect(alice.locator("#game-status")).to_contain_text("You won!")
    expect(bob.locator("#game-status")).to_contain_text("You lost")
    expect(bob.locator("#game .cell--win")).to_have_count(3)
    assert_not_reloaded(alice, bob)
    game = Game.objects.get()
    assert (game.status, game.result, game.move_count) == ("finished", "x_won", 5)

    # A rematch: bob offers, alice hears of it live and accepts; both pages
    # move on to the new game, where bob now plays X.
    bob.get_by_role("button", name="Offer a rematch").click()
    expect(alice.locator("#game")).to_contain_text("bob offers a rematch")
    assert_not_reloaded(alice)
    alice.get_by_role("button", name="Accept rematch").click()
    rematch = Game.objects.get(rematch_of=game)
    expect(alice).to_have_url(server + rematch.get_absolute_url())
    expect(bob).to_have_url(server + rematch.get_absolute_url())
    expect(bob.locator("#game-status")).to_contain_text("Your turn")
    alice.screenshot(path="/tmp/tttsite-live-rematch.png", full_page=True)


def test_a_spectator_watches_live_and_the_players_see_the_count(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob, carol = new_page(), new_page(), new_page()
    signed_in(carol, asgi_live_server, "carol")
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server, move_time_limit=300)
    url = server + game.get_absolute_url()

    alice.goto(url)
    bob.goto(url)
    expect_live(alice)
    carol.goto(url)
    expect_live(carol)
    expect(carol.locator("#game-status")).to_contain_text("X to move")
    expect(carol.locator("#game .board button.cell:not([disabled])")).to_have_count(0)
    expect(carol.locator("[data-countdown]")).to_contain_text(re.compile(r"\(\d:\d\d left\)"))
    expect(alice.locator("[data-watchers]")).to_have_text("1 watching")
    mark_no_reload(carol)

    cell(alice, 4).click()
    expect(cell(carol, 4)).to_have_text("X")
    expect(carol.locator("#game-status")).to_contain_text("O to move")
    cell(bob, 0).click()
    expect(cell(carol, 0)).to_have_text("O")
    expect(carol.locator("#game .board button.cell:not([disabled])")).to_have_count(0)
    assert_not_reloaded(carol)
    carol.screenshot(path="/tmp/tttsite-spectator.png", full_page=True)

    carol.close()
    expect(alice.locator("[data-watchers]")).to_be_hidden()


def test_a_background_tab_says_it_is_your_turn(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    expect_live(alice)
    expect_live(bob)
    title = bob.title()

    # Bob switches to another tab.
    bob.evaluate(
        """() => {
          Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    cell(alice, 4).click()
    expect(cell(bob, 4)).to_have_text("X")
    expect(bob).to_have_title("Your turn · " + title)
    expect(alice).to_have_title(title)

    # And comes back.
    bob.evaluate(
        """() => {
          Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    expect(bob).to_have_title(title)


def test_a_page_that_lost_its_connection_catches_up_when_it_is_back(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)

    # Bob's socket goes through a switch the test can turn off.
    network = {"down": False, "open": []}

    def route(ws):
        if network["down"]:
            ws.close(code=1012, reason="server restarting")
            return
        ws.connect_to_server()
        network["open"].append(ws)

    bob.route_web_socket(re.compile(r"/ws/games/"), route)
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    expect_live(alice)
    expect_live(bob)
    mark_no_reload(bob)

    network["down"] = True
    for ws in network["open"]:
        ws.close(code=1012, reason="server restarting")
    expect(bob.locator("[data-live-indicator]")).to_have_text("offline — refreshing every 5 s")

    cell(alice, 4).click()  # bob's page cannot hear of this move
    expect(alice.locator("#game")).to_have_attribute("data-ply", "1")
    expect(cell(bob, 4)).to_have_text("")

    network["down"] = False
    expect_live(bob)
    expect(cell(bob, 4)).to_have_text("X")
    expect(bob.locator("#game-status")).to_contain_text("Your turn")
    assert_not_reloaded(bob)


def test_a_refused_move_shows_the_server_s_reason(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page(expected_errors=["status of 409"])
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server)
    alice.goto(server + game.get_absolute_url())
    bob.goto(server + game.get_absolute_url())
    expect_live(bob)
    # Bob's board is locked; force a click through as a stale page would.
    bob.evaluate("document.querySelector('#game .cell[value=\"4\"]').disabled = false")
    cell(bob, 4).click()
    expect(bob.locator(".game-error")).to_have_text("Move refused: it is X's turn, not yours.")
    assert Game.objects.get().move_count == 0
