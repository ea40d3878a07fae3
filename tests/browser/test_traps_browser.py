"""Traps in a real browser: on the empty 3x3 board the hint names a corner and
says how many ways O has to lose, the AI's view and the analysis board count
each cell's traps, with and without JavaScript. Screenshots go to /tmp."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from playwright.sync_api import expect

from games.play import review_services
from tests import factories
from tests.browser.conftest import assert_accessible
from tests.browser.test_play_browser import play_now_as_x
from tests.engine import reference

REASON = "Every move draws; this corner leaves O 7 ways to lose, an edge only 4."


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The live server shares this process's cache: guests' budgets start afresh."""
    cache.clear()
    yield
    cache.clear()


def _losing_replies(cell: int) -> int:
    """O's replies after X's first move at ``cell`` that lose, by the independent referee."""
    after = reference.play("." * 9, cell)
    return sum(1 for score in reference.move_values(after).values() if score < 0)


def test_the_hint_on_the_empty_board_names_a_corner_and_the_ai_s_view_counts_traps(live_server, page):
    page.set_viewport_size({"width": 1280, "height": 900})
    play_now_as_x(page, live_server)
    page.get_by_role("button", name="Hint", exact=True).click()
    hinted = page.locator("#game .board .cell--hint")
    expect(hinted).to_have_count(1)
    assert int(hinted.get_attribute("value")) in (0, 2, 6, 8)
    expect(page.locator("#game .hint")).to_contain_text(REASON)
    page.screenshot(path="/tmp/tttsite-traps-hint-1280.png")
    assert_accessible(page)

    page.get_by_role("button", name="Show the AI's thinking").click()
    traps = page.locator("#game .board .cell__traps")
    expect(traps).to_have_count(9)
    shown = [text.strip() for text in traps.all_inner_texts()]
    assert shown == [f"{_losing_replies(cell)} traps" for cell in range(9)]
    expect(page.locator("#game .thinking__traps")).to_contain_text("how many of O's replies would then lose")
    page.screenshot(path="/tmp/tttsite-traps-thinking-1280.png")
    assert_accessible(page)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_analysis_board_counts_each_cell_s_traps_on_the_empty_board(live_server, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/analysis/")
    cells = page.locator("#analysis [data-board] a.analysis-cell")
    expect(cells).to_have_count(9)
    texts = [" ".join(text.split()) for text in cells.all_inner_texts()]
    assert texts == [f"draw {_losing_replies(cell)} traps" for cell in range(9)]
    expect(cells.first).to_have_attribute("aria-label", "Row 1, column 1: draw, leaves O 7 ways to lose")
    page.screenshot(path=f"/tmp/tttsite-traps-analysis-{width}.png", full_page=True)
    assert_accessible(page)


def test_the_empty_5x5_analysis_board_shows_traps_too(live_server, page):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/analysis/?board=" + "." * 25)
    cells = page.locator("#analysis [data-board] a.analysis-cell")
    expect(cells).to_have_count(25)
    expect(page.locator("#analysis [data-board] .analysis-cell__traps")).to_have_count(25)
    page.screenshot(path="/tmp/tttsite-traps-analysis-5x5.png")
    assert_accessible(page)


def test_without_javascript_the_hint_still_gives_its_reason(live_server, new_page):
    page = new_page(java_script_enabled=False)
    play_now_as_x(page, live_server)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page).to_have_url(re.compile(r"hint=1"))
    expect(page.locator("#game .hint")).to_contain_text(REASON)


def test_the_review_of_an_edge_opening_keeps_best_and_says_a_corner_leaves_more(live_server, page):
    x = get_user_model().objects.create_user("edge-x", password="a-long-browser-passphrase-77")
    o = get_user_model().objects.create_user("edge-o", password="a-long-browser-passphrase-77")
    game = factories.human_game(x, o, [1, 0, 4, 7, 8, 2, 5, 3, 6])  # a draw, every move best
    review_services.game_review_store(game_id=game.pk)  # as the background worker does once it ends
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}{game.get_absolute_url()}?ply=1")
    lesson = page.locator(".lesson")
    expect(lesson.locator(".lesson__label")).to_have_text("best")
    expect(lesson.locator(".lesson__verdict")).to_have_text(
        "Row 1, col 2 was the best move: after it, it is a draw with best play. "
        f"It left O {_losing_replies(1)} ways to lose; row 1, col 1 would have left {_losing_replies(0)}."
    )
    page.screenshot(path="/tmp/tttsite-traps-review-1280.png", full_page=True)
    assert_accessible(page)
