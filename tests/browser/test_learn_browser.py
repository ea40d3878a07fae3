"""/learn/ in a real browser: the course's steps in order at desktop and phone
width, readable without JavaScript, and with no accessibility violation."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible

STEPS = [
    "Minimax",
    "Scoring: the fatalist and the depth-aware player",
    "Alpha-beta",
    "Move order",
    "Depth limits and evaluation",
    "Practice",
]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_course_reads_in_order_at_every_width(live_server, page, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(live_server.url + "/learn/")
    titles = page.locator("ol.learn-path > li h2").all_inner_texts()
    assert [title.strip() for title in titles] == STEPS  # an ordered list: a screen reader says "1 of 5"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than a {width} px screen"
    assert_accessible(page)
    page.screenshot(path=f"/tmp/learn-{width}.png", full_page=True)


def test_every_step_leads_somewhere_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/learn/")
    page.get_by_role("link", name="Alpha-beta").click()
    expect(page.get_by_role("heading", name="Alpha-beta", exact=False).first).to_be_visible()
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_depth_limited_search_reads_at_every_width(live_server, page, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(live_server.url + "/learn/")
    page.get_by_role("link", name="Depth limits and evaluation").click()
    expect(page.get_by_role("heading", name="Depth limits and evaluation", level=1)).to_be_visible()
    expect(page.locator("#depth-verdict")).to_contain_text("Here the heuristic is wrong")
    page.get_by_label("Open the", exact=False).first.click()
    expect(page.locator("#tree-drawing")).to_contain_text("evaluated")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than a {width} px screen"
    assert_accessible(page)
    page.screenshot(path=f"/tmp/depth-limited-{width}.png", full_page=True)


def test_the_depth_limited_search_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/learn/tree/depth/")
    page.get_by_label("Position", exact=True).fill("....................XO..X")
    page.get_by_text("3", exact=True).click()
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("heading", name="Searched 3 moves deep")).to_be_visible()
    expect(page.locator("#depth-moves tbody tr")).to_have_count(22)
    context.close()
