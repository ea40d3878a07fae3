"""Puzzles in a real browser, as a learner meets them: today's puzzle from the
home page, solved with the mouse and with the keyboard, a miss explained, the
same without JavaScript, the starter set on a fresh site with its themes,
and the pages at phone and desktop widths."""

import re

import pytest
from playwright.sync_api import expect

from games.learn import puzzle_selectors, puzzle_services
from games.learn.models import Puzzle
from tests.browser.conftest import assert_accessible
from tests.learn.test_puzzle_pages import FIVE, FORK, FORK_4X4

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def cell(page, index: int):
    return page.locator(f'#puzzle .board .cell[value="{index}"]')


def status(page):
    return page.locator("#puzzle-status")


def no_sideways_scrolling(page, where: str):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{where} scrolls sideways by {overflow}px"


@pytest.fixture
def browser_context_args():
    return {"viewport": DESKTOP}


def test_a_learner_solves_todays_puzzle_from_the_home_page(live_server, page):
    puzzle = Puzzle.objects.create(**FORK)  # the only puzzle: today's
    page.goto(live_server.url + "/")
    expect(page.locator(".daily-puzzle")).to_contain_text("X to play and win with your second move")
    page.screenshot(path="/tmp/puzzles-home-1280.png", full_page=True)

    page.get_by_role("link", name="Solve today's puzzle").click()
    expect(page).to_have_url(live_server.url + puzzle.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_have_text("X to play and win with your second move")
    page.evaluate("window.stillTheSamePage = true")  # gone if a move reloaded the page

    page.get_by_role("button", name="Cell 2, row 1, column 3, empty").click()

    expect(page.locator(".puzzle-steps")).to_contain_text("That wins: O's best reply is cell 5. Your move.")
    expect(cell(page, 2)).to_have_text("X")
    expect(cell(page, 5)).to_have_text("O")
    expect(page).to_have_url(re.compile(r"\?played=2$"))
    page.get_by_role("button", name="Cell 6, row 3, column 1, empty").click()

    expect(status(page)).to_contain_text("Solved!")
    expect(page.locator(".puzzle-solution")).to_contain_text("X cell 2 (row 1, column 3): the only winning move")
    expect(page.locator("#puzzle .cell--win")).to_have_count(3)
    expect(page.locator("#puzzle button.cell:not([disabled])")).to_have_count(0)
    assert page.evaluate("window.stillTheSamePage") is True
    page.screenshot(path="/tmp/puzzles-solved-1280.png", full_page=True)

    page.go_back()  # the address held each step: back is the puzzle before the winning move
    expect(status(page)).to_contain_text("Right so far")
    expect(cell(page, 6)).to_be_enabled()


def test_a_miss_names_the_winning_move_on_a_phone(live_server, browser):
    puzzle = Puzzle.objects.create(**FIVE)
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + puzzle.get_absolute_url())
        no_sideways_scrolling(page, "a puzzle at 390px")
        page.screenshot(path="/tmp/puzzles-start-390.png", full_page=True)

        page.get_by_role("button", name="Cell 4, row 2, column 2, empty").click()

        expect(status(page)).to_contain_text("Not solved")
        expect(page.locator(".puzzle-steps")).to_contain_text("That lets O draw: the only winning move was cell 2.")
        expect(page.get_by_role("button", name="Cell 2, row 1, column 3, empty: the winning move")).to_be_visible()
        expect(
            page.get_by_role("button", name="Cell 4, row 2, column 2, empty: your move, which lets O draw")
        ).to_be_visible()
        expect(page.locator(".puzzle-solution li")).to_have_count(5)
        no_sideways_scrolling(page, "a missed puzzle at 390px")
        page.screenshot(path="/tmp/puzzles-missed-390.png", full_page=True)

        page.get_by_role("link", name="Start again").click()
        expect(status(page)).to_contain_text("X to play and win with your third move")
        expect(page.locator("#puzzle button.cell:not([disabled])")).to_have_count(7)
    finally:
        context.close()


def test_the_keyboard_alone_solves_a_puzzle(live_server, page):
    puzzle = Puzzle.objects.create(**FORK)
    page.goto(live_server.url + puzzle.get_absolute_url())

    cell(page, 3).focus()
    page.keyboard.press("ArrowUp")  # cell 0 is taken and nothing is free above it: focus stays
    expect(cell(page, 3)).to_be_focused()
    page.keyboard.press("ArrowRight")  # past the taken cell 4, on to 5
    expect(cell(page, 5)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(cell(page, 2)).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator(".puzzle-steps")).to_contain_text("Your move.")
    # Focus stays on the board, on the free cell nearest the one played.
    expect(page.locator("#puzzle .cell:focus")).to_have_count(1)
    cell(page, 6).focus()
    page.keyboard.press("Enter")
    expect(status(page)).to_contain_text("Solved!")


def test_a_puzzle_is_solved_without_javascript(live_server, browser):
    puzzle = Puzzle.objects.create(**FORK)
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + puzzle.get_absolute_url())
        with page.expect_navigation():  # a plain GET form
            page.get_by_role("button", name="Cell 2, row 1, column 3, empty").click()
        expect(page).to_have_url(re.compile(r"\?played=2&cell=2$|\?cell=2$"))
        expect(page.locator(".puzzle-steps")).to_contain_text("O's best reply is cell 5")
        with page.expect_navigation():
            page.get_by_role("button", name="Cell 6, row 3, column 1, empty").click()
        expect(status(page)).to_contain_text("Solved!")
        expect(page).to_have_url(re.compile(r"\?played=2&cell=6$"))
    finally:
        context.close()


@pytest.mark.parametrize("viewport, width, scheme", [(PHONE, 390, "dark"), (DESKTOP, 1280, "light")])
def test_the_puzzle_pages_fit_the_screen(live_server, browser, viewport, width, scheme):
    Puzzle.objects.create(**FORK)
    Puzzle.objects.create(**FIVE)
    big = Puzzle.objects.create(**FORK_4X4)
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        for name, path in [
            ("home", "/"),
            ("index", "/puzzles/"),
            ("board", "/puzzles/3x3/"),
            ("missed", "/puzzles/%d/?cell=3" % Puzzle.objects.get(position=FORK["position"]).pk),
            ("4x4", big.get_absolute_url() + "?played=7"),
        ]:
            page.goto(live_server.url + path)
            no_sideways_scrolling(page, f"{path} at {width}px")
            page.screenshot(path=f"/tmp/puzzles-{name}-{width}.png", full_page=True)
        expect(page.locator(".puzzle-steps")).to_contain_text("That wins: O's best reply is cell 3. Your move.")
    finally:
        context.close()


def test_a_fresh_site_offers_a_starter_puzzle_and_the_learner_solves_it(live_server, page):
    puzzle_services.puzzles_make_starter()
    daily = puzzle_selectors.daily_puzzle()
    page.goto(live_server.url + "/")
    expect(page.locator(".daily-puzzle")).to_contain_text(daily.title)
    assert_accessible(page)
    page.screenshot(path="/tmp/starter-home-1280.png", full_page=True)

    page.get_by_role("link", name="Solve today's puzzle").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(daily.title)
    expect(page.locator(".puzzle-brief")).to_contain_text(daily.brief)
    assert_accessible(page)
    page.screenshot(path="/tmp/starter-puzzle-1280.png", full_page=True)
    # The learner's moves of the stored line; the page plays the replies.
    for number, answer in enumerate(daily.solution_cells[::2]):
        if daily.goal == "draw" and number:
            break
        page.locator(f'#puzzle .board .cell[value="{answer}"]').click()
        expect(page.locator(".puzzle-steps li")).to_have_count(number + 1)

    expect(status(page)).to_contain_text("Solved!")
    expect(page.locator(".puzzle-solution")).to_be_visible()
    assert_accessible(page)
    page.screenshot(path="/tmp/starter-solved-1280.png", full_page=True)


def test_the_theme_pages_pass_the_accessibility_check(live_server, page):
    puzzle_services.puzzles_make_starter()
    page.goto(live_server.url + "/puzzles/")
    expect(page.get_by_role("heading", name="Themes")).to_be_visible()
    assert_accessible(page)
    page.screenshot(path="/tmp/starter-themes-1280.png", full_page=True)

    page.get_by_role("link", name="5x5 Save a draw puzzles").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("5×5, four in a row puzzles: save a draw")
    assert_accessible(page)


def test_the_themes_lead_to_a_block_solved_without_javascript(live_server, browser):
    puzzle_services.puzzles_make_starter()
    block = puzzle_selectors.puzzles_on("3x3", "block").first()
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/puzzles/")
        page.get_by_role("link", name="3x3 Block puzzles").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("3×3, three in a row puzzles: block")
        with page.expect_navigation():
            page.get_by_role("link", name=re.compile(f"Puzzle {block.pk} ")).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            f"{block.side} to play and stop {block.opponent}'s win"
        )
        with page.expect_navigation():  # a plain GET form
            cell(page, block.cell).click()
        expect(status(page)).to_contain_text("Solved!")
        expect(page.locator(".puzzle-steps")).to_contain_text("That keeps the draw: the only move that does not lose.")
        expect(page.locator(".puzzle-solution")).to_contain_text("best play from both sides ends in a draw")
        page.screenshot(path="/tmp/starter-block-solved-1280.png", full_page=True)
    finally:
        context.close()
