"""The search tree in a real browser, as a learner uses it: switch to
alpha-beta, step through the search node by node (with and without
JavaScript), walk the tree with the keyboard, and compare the fatalist with
the depth-aware player. Screenshots at phone and desktop widths go to /tmp."""

import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from games import engine
from games.learn.tree_layout import signed
from tests.browser.conftest import assert_accessible

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def default_position() -> str:
    return engine.fatalist_examples()[-1].position


def step_heading(page):
    return page.locator(".tree-steps__where")


@pytest.fixture
def explorer(live_server, page):
    page.goto(live_server.url + "/learn/tree/")
    expect(page.get_by_role("heading", level=1)).to_have_text("The search, step by step")
    return page


def test_a_learner_switches_to_alpha_beta_and_steps_through_it(explorer):
    page = explorer
    board = engine.Board.from_string(default_position())
    visits = engine.nodes_visited(board, "alphabeta")
    page.get_by_label("Alpha-beta: skip what cannot matter").check()
    page.get_by_role("button", name="Search").click()

    expect(page).to_have_url(re.compile(r"algorithm=alphabeta"))
    expect(page.locator(".tree-summary")).to_contain_text(f"Alpha-beta visits {visits} positions.")
    cut = page.locator(".tree-node--cut").first
    expect(cut).to_contain_text("not searched (cut)")
    expect(cut).to_contain_text("already has a better move elsewhere")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path="/tmp/tree-alphabeta-desktop.png", full_page=True)

    page.evaluate("window.stayedOnThePage = true")
    page.get_by_role("link", name="Step through the search").click()
    expect(step_heading(page)).to_have_text(f"Step 1 of {visits}")
    expect(page.locator("[data-step-story] p").first).to_have_text("The search starts at the position, O to move.")
    # Only the root is drawn yet, still searching.
    expect(page.get_by_role("treeitem")).to_have_count(1)
    expect(page.get_by_role("treeitem").first).to_contain_text("searching: no move back yet")

    first_move = engine.search_tree(board, "alphabeta").nodes[1].move
    page.get_by_role("link", name="Next node →").click()
    expect(step_heading(page)).to_have_text(f"Step 2 of {visits}")
    expect(page.locator("[data-step-story]")).to_contain_text(f"O tries cell {first_move}.")
    expect(page).to_have_url(re.compile(r"step=2"))
    # The step came without a reload, and the focus stayed on "Next node" for the next one.
    assert page.evaluate("window.stayedOnThePage") is True
    expect(page.locator('[data-step-link="next"]')).to_be_focused()
    # A screen reader hears the step: a live region that stays put says it.
    expect(page.locator("body > [aria-live=polite]")).to_contain_text(f"Step 2 of {visits}. O tries cell {first_move}.")
    for n in range(3, 8):
        page.keyboard.press("Enter")
        expect(step_heading(page)).to_have_text(f"Step {n} of {visits}")
    # By now a game end has been reached and its value has come up the tree.
    expect(page.locator("[data-step-story]")).to_contain_text("ends the game")
    expect(page.locator('[aria-current="step"]')).to_be_visible()
    page.screenshot(path="/tmp/tree-step-desktop.png", full_page=True)

    page.get_by_role("link", name="Last").click()
    expect(step_heading(page)).to_have_text(f"Step {visits} of {visits}")
    expect(page.locator("[data-step-story]")).to_contain_text("The search is over: the position is worth")
    page.go_back()
    expect(step_heading(page)).to_have_text(f"Step 7 of {visits}")


def test_the_tree_is_walked_with_the_keyboard(explorer):
    page = explorer
    page.get_by_text("The tree as a list").click()
    tree = page.get_by_role("tree")
    root = tree.get_by_role("treeitem").first
    root.focus()
    expect(root).to_be_focused()
    expect(root).to_have_attribute("tabindex", "0")

    page.keyboard.press("ArrowDown")
    child = page.locator("#node-1")
    expect(child).to_be_focused()
    expect(child).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("ArrowLeft")
    expect(child).to_have_attribute("aria-expanded", "false")
    expect(child.locator(':scope > [role="group"]')).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    expect(root).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(child).to_have_attribute("aria-expanded", "true")
    expect(child.locator(':scope > [role="group"]')).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#node-2")).to_be_focused()
    page.keyboard.press("ArrowLeft")  # an open node closes first, then ← goes up
    expect(page.locator("#node-2")).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#node-2")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(child).to_be_focused()
    page.keyboard.press("End")
    expect(tree.locator('[role="treeitem"]:visible').last).to_be_focused()
    # Enter searches from that node's position.
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    position = page.locator("#node-1").get_attribute("data-explore")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(position.split("&board=")[1])))
    expect(page.locator(".tree-position")).to_be_visible()


def test_every_step_is_a_link_without_javascript(live_server, new_page):
    page = new_page(java_script_enabled=False, viewport=PHONE)
    page.goto(live_server.url + "/learn/tree/?algorithm=alphabeta&step=1")
    visits = engine.nodes_visited(engine.Board.from_string(default_position()), "alphabeta")
    expect(step_heading(page)).to_have_text(f"Step 1 of {visits}")

    for n in (2, 3, 4):
        page.get_by_role("link", name="Next node →").click()
        expect(step_heading(page)).to_have_text(f"Step {n} of {visits}")
    # Every node drawn is open: nothing needs a script to be seen.
    expect(page.locator('[aria-expanded="false"]')).to_have_count(0)
    page.screenshot(path="/tmp/tree-step-phone.png", full_page=True)
    page.locator(".tree-layout__main").screenshot(path="/tmp/tree-step-phone-tree.png")

    page.get_by_role("link", name="The whole search").click()
    expect(page.locator(".tree-summary")).to_contain_text("The position is worth")
    page.screenshot(path="/tmp/tree-whole-phone.png", full_page=True)
    page.locator(".tree-node--cut").first.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/tree-cut-phone.png")


def test_a_bad_position_in_the_address_is_explained_on_the_page(live_server, page):
    page.goto(live_server.url + "/learn/tree/?board=XXXOO....")

    expect(page.get_by_role("alert")).to_contain_text(
        'This position cannot be searched: the game is over in "XXXOO....": there is nothing left to search.'
    )
    expect(page.get_by_label("Position")).to_have_attribute("aria-invalid", "true")


def test_the_empty_board_is_drawn_in_part_and_says_so(live_server, page):
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/learn/tree/?board=.........&order=centre")

    expect(page.locator(".tree-capped")).to_contain_text("it is drawn 2 moves deep (82 nodes)")
    expect(page.locator(".tree-summary")).to_contain_text("Plain minimax visits 549,946 positions.")
    page.get_by_text("The tree as a list").click()
    # A node closes and opens again on a click.
    first = page.locator("#node-1")
    expect(first).to_have_attribute("aria-expanded", "true")
    first.locator(":scope > .tree-node__row .tree-node__move").click()
    expect(first).to_have_attribute("aria-expanded", "false")
    expect(first).to_be_focused()
    first.locator(":scope > .tree-node__row .tree-node__move").click()
    expect(first).to_have_attribute("aria-expanded", "true")
    page.screenshot(path="/tmp/tree-empty-phone.png", full_page=False)


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_fatalist_and_the_depth_aware_player_side_by_side(live_server, page, size, name):
    page.set_viewport_size(size)
    page.goto(live_server.url + "/learn/tree/scoring/")
    slower, sooner = engine.fatalist_examples()

    block = page.locator(".tree-versus").nth(1)
    expect(block.locator(".tree-versus__side--fatalist")).to_contain_text(f"Plays cell {sooner.fatalist.cell}")
    expect(block.locator(".tree-versus__side--depth")).to_contain_text(f"Plays cell {sooner.depth_aware.cell}")
    page.screenshot(path=f"/tmp/tree-scoring-{name}.png", full_page=True)

    block.get_by_role("link", name="The fatalist's tree").click()
    expect(page).to_have_url(re.compile(r"scoring=fatalist"))
    expect(page.locator(".tree-summary")).to_contain_text(f"plays cell {sooner.fatalist.cell}")


@pytest.mark.parametrize("size, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_tree_is_drawn_and_a_phone_scrolls_inside_the_drawing(live_server, page, size, name):
    page.set_viewport_size(size)
    page.goto(live_server.url + "/learn/tree/")
    drawing = page.locator("#tree-drawing svg.tree-drawing")
    search = engine.search_tree(engine.Board.from_string(default_position()))

    expect(drawing).to_be_visible()
    expect(drawing.locator("#tree-svg-node-0 > title")).to_have_text(f"The position, value {signed(search.value)}")
    # The page itself never scrolls sideways; the drawing scrolls in its own region.
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    region = page.get_by_role("region", name="The tree drawn: scroll sideways to see all of it")
    assert region.evaluate("r => r.scrollWidth") >= drawing.evaluate("d => d.getBoundingClientRect().width") - 1
    assert_accessible(page)
    page.screenshot(path=f"/tmp/tree-drawing-{name}.png", full_page=True)
    region.screenshot(path=f"/tmp/tree-drawing-{name}-region.png")


def test_a_node_folds_and_opens_again_without_javascript(live_server, new_page):
    page = new_page(java_script_enabled=False, viewport=PHONE)
    search = engine.search_tree(engine.Board.from_string(default_position()))
    first = search.nodes[1]
    page.goto(live_server.url + "/learn/tree/?fold=")
    boxes = page.locator("#tree-drawing g.tree-drawing__node")
    expect(boxes).to_have_count(len(search.nodes))

    page.get_by_role("link", name=f"Fold the moves below {first.mover} plays {first.move}", exact=True).click()
    below = first.last - first.step
    expect(boxes).to_have_count(len(search.nodes) - below)
    expect(page).to_have_url(re.compile(r"fold=1#tree-drawing$"))
    page.get_by_role("link", name=f"Open the {below} nodes below {first.mover} plays {first.move}").click()
    expect(boxes).to_have_count(len(search.nodes))


def test_a_teacher_prints_a_worksheet_and_its_answer_key(live_server, page):
    search = engine.search_tree(engine.Board.from_string(default_position()))
    page.goto(live_server.url + "/learn/tree/")
    page.get_by_role("link", name="Worksheet to print, with its answer key").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Plain minimax: fill in the tree")
    assert_accessible(page)

    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    sheet, key = (p.extract_text() for p in pdf.pages)
    assert len(pdf.pages) == 2
    assert "fill in the tree" in sheet and "Which cell should O play?" in sheet
    assert "given" in sheet and "Answer key" not in sheet
    assert "Answer key" in key and f"so O plays cell {search.best_move}" in key
    assert f"the position\n{signed(search.value)}" in key  # the key's root box has its value
    page.emulate_media(media="print")
    page.screenshot(path="/tmp/tree-worksheet-print.png", full_page=True)
