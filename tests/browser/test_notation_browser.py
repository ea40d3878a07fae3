"""A game taken along, in Chromium: downloaded from its page in the site's
notation, then pasted into the analysis board, which opens on the position it
ended in, coordinates around the board. Screenshots go to /tmp."""

import re

from playwright.sync_api import expect

from games.play import services
from games.play.players import Player
from tests.browser.conftest import assert_accessible
from tests.browser.test_live_browser import signed_in


def test_a_game_downloads_and_opens_on_the_analysis_board(live_server, new_page):
    # The bad import at the end is answered 400, which Chromium logs.
    page = new_page(expected_errors=["status of 400"])
    user = signed_in(page, live_server, "walker")
    game = services.game_create_against_ai(player=Player(user=user), side="X", level="easy", seed=3)
    for cell in (4, 0, 8):
        game.refresh_from_db()
        if game.status != "in_progress" or cell in game.cells:
            break
        services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count)
    game.refresh_from_db()
    page.goto(live_server.url + game.get_absolute_url())
    with page.expect_download() as downloading:
        page.get_by_role("link", name="Download").click()
    download = downloading.value
    assert download.suggested_filename == f"tttsite-game-{game.pk}.txt"
    text = open(download.path(), encoding="utf-8").read()
    assert '[X "walker"]' in text and '[Board "3x3"]' in text

    page.goto(live_server.url + "/analysis/")
    page.get_by_label("Import a game").fill(text)
    page.get_by_role("button", name="Import").click()
    expect(page).to_have_url(re.compile(r"/analysis/\?moves=" + ",".join(map(str, game.cells)) + "$"))
    board = page.locator("[data-board]")
    for cell, mark in zip(game.cells, "XOXOXOXOX", strict=False):
        expect(board.locator(f'[data-index="{cell}"]')).to_have_text(re.compile(f"^{mark}"))
    expect(page.locator(".board-coords__files")).to_have_text("abc")
    assert_accessible(page)
    page.screenshot(path="/tmp/notation-imported.png")

    # Text that is not a game is said to be so, where it is wrong.
    page.get_by_label("Import a game").fill("b2 b2")
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error")).to_have_text('line 1, move 2: "b2" cannot be played: that cell is occupied')
    expect(page.get_by_label("Import a game")).to_have_value("b2 b2")
