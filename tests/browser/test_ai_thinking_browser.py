"""Waiting for the AI in a real browser: its spectators see the move and the
reply arrive live, the player reads "The AI is thinking…" meanwhile, and the
Hint button says it is busy while the hint is searched.

The server's AI is slowed down on purpose (the server is forked from the test
process after the patch), so each wait is long enough to be seen.
"""

import time

import pytest
from playwright.sync_api import expect

from games import engine
from games.play import services
from games.play.models import Game
from games.play.players import Player
from tests.browser.test_live_browser import assert_not_reloaded, cell, expect_live, mark_no_reload, signed_in

THINKS_FOR = 1.5  # seconds the server's AI takes over each reply and each analysis
THINKING = "The AI is thinking…"


@pytest.fixture
def slow_ai_server(monkeypatch, request):
    """Daphne serving the site, whose AI takes THINKS_FOR seconds to reply and to analyse."""
    choose, analyse = services._ai_choice, engine.analyse

    def slow_choice(game, board):
        time.sleep(THINKS_FOR)
        return choose(game, board)

    def slow_analyse(*args, **kwargs):
        time.sleep(THINKS_FOR)
        return analyse(*args, **kwargs)

    monkeypatch.setattr(services, "_ai_choice", slow_choice)
    monkeypatch.setattr(engine, "analyse", slow_analyse)
    return request.getfixturevalue("asgi_live_server")


def _alices_5x5_game(page, server):
    """Alice (X, signed in on ``page``) against the perfect AI on 5x5, no move yet."""
    alice = signed_in(page, server, "alice")
    return services.game_create_against_ai(player=Player(user=alice), variant="5x5", side="X", seed=7)


def test_spectators_of_a_game_against_the_ai_see_the_move_and_the_reply_live(slow_ai_server, new_page):
    server = slow_ai_server
    alice, guest, carol = new_page(), new_page(), new_page()
    signed_in(carol, server, "carol")
    game = _alices_5x5_game(alice, server)
    url = server.url + game.get_absolute_url()

    alice.goto(url)
    for spectator in (guest, carol):  # a visitor who is not signed in, and a signed-in one
        spectator.goto(url)
        expect_live(spectator)
        expect(spectator.locator("#game-status")).to_have_text("X to move Live")
    mark_no_reload(guest, carol)
    expect(carol.locator("[data-watchers]")).to_have_text("2 watching")

    cell(alice, 12).click()
    for spectator in (guest, carol):  # alice's move first, while the AI thinks
        expect(cell(spectator, 12)).to_have_text("X")
        expect(spectator.locator("#game-status")).to_have_text(THINKING)
    for spectator in (guest, carol):  # then the AI's reply
        expect(spectator.locator("#game")).to_have_attribute("data-ply", "2", timeout=THINKS_FOR * 1000 + 10_000)
        expect(spectator.locator("#game-status")).to_have_text("X to move Live")
        expect(spectator.locator("#game .board .cell--o")).to_have_count(1)
    assert_not_reloaded(guest, carol)
    assert Game.objects.get(pk=game.pk).cells[0] == 12


def test_the_player_reads_that_the_ai_is_thinking_and_the_hint_button_is_busy(slow_ai_server, page):
    server = slow_ai_server
    game = _alices_5x5_game(page, server)
    page.goto(server.url + game.get_absolute_url())
    status, board = page.locator("#game-status"), page.locator("#game .board")
    expect(status).to_have_text("Your turn X")
    expect(status).to_have_attribute("aria-live", "polite")
    mark_no_reload(page)

    cell(page, 12).click()
    expect(status).to_have_text(THINKING)
    expect(board).to_have_attribute("aria-busy", "true")
    expect(page.locator("#game .board button.cell:not([disabled])")).to_have_count(0)
    # The reply ends the wait: the board is the player's again.
    expect(status).to_have_text("Your turn X", timeout=THINKS_FOR * 1000 + 10_000)
    expect(page.locator("#game")).to_have_attribute("data-ply", "2")
    expect(board).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#game .board button.cell:not([disabled])")).to_have_count(23)

    hint = page.locator("#game .game-actions button", has_text="Hint")
    hint.click()
    busy = page.locator("#game .game-actions button[aria-busy='true']")
    expect(busy).to_have_text("Thinking…")
    expect(busy).to_be_disabled()
    expect(page.locator("#game .hint")).to_be_visible(timeout=THINKS_FOR * 1000 + 10_000)
    expect(busy).to_have_count(0)
    expect(page.get_by_role("button", name="Hint", exact=True)).to_be_enabled()
    assert_not_reloaded(page)
