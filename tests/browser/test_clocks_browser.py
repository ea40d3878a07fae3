"""A timed game between two people in two browsers: the clocks tick, the
server ends the game when one runs out, and both pages hear it at once."""

import re

import pytest
from playwright.sync_api import expect

from games.play.models import Game
from tests.browser.test_live_browser import alice_and_bob_in_a_game, cell, expect_live, mark_no_reload
from tests.factories import time_passes

pytestmark = pytest.mark.worker


def clock(page, side):
    return page.locator(f'#game .players [data-clock-face][aria-label^="{side}\'s clock"]')


def seconds(text: str) -> float:
    minutes, rest = text.split(":")
    return int(minutes) * 60 + float(rest)


def test_a_timed_game_ticks_live_and_the_server_ends_it_on_time(asgi_live_server, new_page):
    server = asgi_live_server.url
    alice, bob = new_page(), new_page()
    game = alice_and_bob_in_a_game(alice, bob, asgi_live_server, time_control="1+0")
    for page in (alice, bob):
        page.goto(f"{server}/games/{game.pk}/")
        expect_live(page)
    expect(alice.locator("#game")).to_contain_text("X must make a first move by")
    expect(clock(alice, "X")).to_have_text("1:00")

    cell(alice, 4).click()  # first moves cost nothing
    expect(cell(bob, 4)).to_have_text("X")
    cell(bob, 0).click()
    expect(cell(alice, 0)).to_have_text("O")
    # Now alice's clock runs, on both pages, and bob's stands.
    expect(clock(alice, "X")).to_have_attribute("aria-label", "X's clock, running")
    expect(clock(bob, "O")).to_have_attribute("aria-label", "O's clock")
    before = seconds(clock(bob, "X").inner_text())
    bob.wait_for_timeout(1500)
    assert seconds(clock(bob, "X").inner_text()) <= before - 1, "the running clock does not tick"
    assert clock(bob, "O").inner_text() == "1:00"

    cell(alice, 8).click()
    expect(clock(bob, "O")).to_have_attribute("aria-label", "O's clock, running")
    mark_no_reload(alice, bob)
    # Bob thinks too long: as if 58 of his 60 seconds had gone by. Nobody
    # claims anything: the worker ends the game and both pages are told.
    time_passes(Game.objects.get(pk=game.pk), 58)
    expect(alice.locator("#game-status")).to_contain_text(re.compile(r"You won!\s+on time"), timeout=15_000)
    expect(bob.locator("#game-status")).to_contain_text(re.compile(r"You lost\s+on time"))
    expect(clock(bob, "O")).to_have_text("0:00.0")
    assert alice.evaluate("window.__noReload") and bob.evaluate("window.__noReload")
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.result, stored.termination, stored.o_clock_ms) == ("finished", "x_won", "timeout", 0)
    # Too late: the board no longer takes a move.
    expect(cell(bob, 2)).to_be_disabled()
