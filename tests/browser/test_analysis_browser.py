"""The analysis board in a real browser, as a learner uses it: pasting a
position, reading every cell, stepping through the line of best play with the
mouse and the keys, sharing the link, a bad link, no JavaScript, and arriving
from a game's replay. Screenshots at phone and desktop width go to /tmp."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from playwright.sync_api import expect

from games import engine
from tests.factories import human_game
from tests.learn.test_explain import referee_words

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
FREE = "#analysis [data-board] a.analysis-cell"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The live server shares this process's cache: guests' budgets start afresh."""
    cache.clear()
    yield
    cache.clear()


def cell(page, index: int):
    return page.locator(f'#analysis [data-board] [data-index="{index}"]')


def marks(page) -> str:
    """The board as its string form, read from the page."""
    texts = page.locator("#analysis [data-board] .analysis-cell").evaluate_all(
        "cells => cells.map(c => c.tagName === 'A' ? '.' : (c.textContent.trim() || '.'))"
    )
    return "".join(texts)


def test_a_learner_pastes_a_position_reads_every_cell_and_steps_through_the_line(live_server, page):
    page.set_viewport_size(DESKTOP)
    page.goto(live_server.url + "/analysis/")
    expect(page.get_by_role("heading", name="Analysis board")).to_be_visible()
    expect(page.locator(FREE)).to_have_count(9)
    expect(page.locator("[data-value]")).to_have_text("With perfect play from both sides: draw.")

    # Paste a position: X to move, with a win in one on the top row.
    page.get_by_label("Position", exact=True).fill("xx.oo....")  # lower case reads too
    page.get_by_role("button", name="Analyse").click()
    expect(page).to_have_url(re.compile(r"/analysis/\?board=xx\.oo\.\.\.\.$"))
    # The link to share is the position's own form.
    expect(page.get_by_label("Link to this position")).to_have_value(live_server.url + "/analysis/?board=XX.OO....")
    expect(page.locator("#analysis-status")).to_have_text(re.compile(r"X\s+to move"))
    # Every free cell says who wins and when, as the referee does, to the eye and to a screen reader.
    for index in (2, 5, 6, 7, 8):
        words = referee_words("XX.OO....", index)
        assert " ".join(cell(page, index).inner_text().split()) == words  # two lines: "X wins", "in 1"
        expect(cell(page, index)).to_have_attribute("aria-label", re.compile(rf"^Row \d, column \d: {words}"))
    expect(cell(page, 2)).to_have_accessible_name("Row 1, column 3: X wins in 1, a best move")
    expect(page.locator("[data-value]")).to_have_text("With perfect play from both sides: X wins in 1.")
    page.screenshot(path="/tmp/analysis-pasted-desktop.png", full_page=True)

    # The line of best play from an earlier position: step into it, then back and forward with the keys.
    page.goto(live_server.url + "/analysis/?moves=4,0")
    line = engine.principal_variation(engine.Board.from_string("O...X...."))
    items = page.locator(".analysis-line__moves a")
    expect(items).to_have_count(len(line.cells))
    first = line.cells[0]
    expect(items.first).to_have_text(re.compile(rf"3\.\s+X\s+row {first // 3 + 1}, column {first % 3 + 1}"))
    items.nth(1).click()  # the position after the line's second move
    expect(page.locator(".replay__position")).to_have_text(f"4 / {2 + len(line.cells)}")
    played = engine.Board.from_string("O...X....").play(line.cells[0]).play(line.cells[1])
    assert marks(page) == str(played)
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay__position")).to_have_text(f"3 / {2 + len(line.cells)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay__position")).to_have_text(f"4 / {2 + len(line.cells)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay__position")).to_have_text(f"5 / {2 + len(line.cells)}")
    page.screenshot(path="/tmp/analysis-line-desktop.png", full_page=True)

    # The link to share opens the same position in a fresh page.
    shared = page.get_by_label("Link to this position").input_value()
    page.goto(shared)
    expect(page.locator(".replay__position")).to_have_text(f"5 / {2 + len(line.cells)}")


def test_the_keyboard_moves_between_free_cells_and_enter_plays(live_server, page):
    page.goto(live_server.url + "/analysis/?moves=4")
    expect(page.locator("[data-keys-help]")).to_be_visible()
    cell(page, 3).focus()
    page.keyboard.press("ArrowRight")  # the centre is taken: skipped
    expect(cell(page, 5)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(cell(page, 2)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/analysis/\?moves=4,2$"))
    expect(page.locator("#analysis-status")).to_have_text(re.compile(r"X\s+to move"))


def test_on_a_phone_a_5x5_position_reads_and_a_bad_link_says_why(live_server, new_page):
    # A bad link is answered 400 (with the page), which Chromium logs.
    page = new_page(expected_errors=("status of 400",), viewport=PHONE)
    position = ".X..OO..OOO.X.X.OXXXXX.O."
    page.goto(live_server.url + f"/analysis/?board={position}")
    expect(page.locator(FREE)).to_have_count(10)
    for link in page.locator(FREE).all():
        index = int(link.get_attribute("data-index"))
        expect(link).to_have_attribute(
            "aria-label", re.compile(rf": {referee_words(position, index)}(, a best move)?$")
        )
    # Nothing spills out of its cell: every outcome fits at phone width.
    overflow = page.locator(FREE).evaluate_all("cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).length")
    assert overflow == 0
    page.screenshot(path="/tmp/analysis-5x5-phone.png", full_page=True)

    page.goto(live_server.url + "/analysis/?moves=4,4")
    expect(page.get_by_role("alert").first).to_have_text(
        'Move 2 in this link cannot be played: cell 4 is occupied in "....X....". The move before it is shown.'
    )
    assert marks(page) == "....X...."
    page.screenshot(path="/tmp/analysis-bad-link-phone.png", full_page=True)


def test_from_a_games_replay_to_the_analysis_board(live_server, page):
    alice = get_user_model().objects.create_user("alice-analysis", password="a-long-browser-passphrase-77")
    bob = get_user_model().objects.create_user("bob-analysis", password="a-long-browser-passphrase-77")
    game = human_game(alice, bob)  # X wins along the top row: 0, 3, 1, 4, 2
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + game.get_absolute_url() + "?ply=3")
    page.get_by_role("link", name="Analyse this position").click()
    expect(page).to_have_url(re.compile(r"/analysis/\?moves=0,3,1,4,2&ply=3$"))
    assert marks(page) == "XX.O....."
    expect(cell(page, 2)).to_have_attribute(
        "aria-label", re.compile(rf"^Row 1, column 3: {referee_words('XX.O.....', 2)}")
    )
    expect(page.locator(".replay__position")).to_have_text("3 / 5")
    page.screenshot(path="/tmp/analysis-from-game-phone.png", full_page=True)


def test_without_javascript_cells_and_steps_are_plain_links(live_server, new_page):
    page = new_page(java_script_enabled=False, viewport=DESKTOP)
    page.goto(live_server.url + "/analysis/?board=................")
    expect(page.locator(FREE)).to_have_count(16)
    cell(page, 5).click()
    expect(page).to_have_url(re.compile(r"/analysis/\?board=\.{16}&moves=5$"))
    expect(page.locator("#analysis-status")).to_have_text(re.compile(r"O\s+to move"))
    page.get_by_role("link", name="Back one move").click()
    expect(page.locator(".replay__position")).to_have_text("0 / 1")
    expect(page.locator("[data-keys-help]")).to_be_hidden()  # no keys to offer without JavaScript
    page.screenshot(path="/tmp/analysis-4x4-nojs-desktop.png", full_page=True)
