"""A class of forty in Chromium: every student a guest with a browser of their
own, all behind the school's one address, following the course on /learn/ at
the same moment, with the engine's production budgets and its pool of
processes: the course's pages, a position each on the analysis board and
today's puzzle. No budget refuses anyone, and every page gives its answer:
a student whose search finds the engine's queue full waits on a page that
asks again by itself."""

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine_work import budget as engine_budget
from games.learn import puzzle_selectors, puzzle_services

STUDENTS = 40


@pytest.fixture
def classroom(browser, engine_processes, settings):
    """Forty fresh guests, their budgets the ones a site runs with, on a site
    with its starter puzzles."""
    puzzle_services.puzzles_make_starter()
    settings.ENGINE_SECONDS_GUEST = engine_budget.DEFAULT_SECONDS_GUEST
    settings.ENGINE_SECONDS_ADDRESS = engine_budget.DEFAULT_SECONDS_ADDRESS
    settings.ENGINE_SLOTS = 2
    cache.clear()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(STUDENTS)]
    pages, problems = [], []
    for number, context in enumerate(contexts):
        context.set_default_timeout(60_000)
        page = context.new_page()
        page.on("pageerror", lambda error, n=number: problems.append(f"student {n}: {error}"))
        page.on("response", lambda response, n=number: _note_refusal(problems, n, response))
        pages.append(page)
    yield pages, problems
    for context in contexts:
        context.close()
    cache.clear()


def _note_refusal(problems: list, number: int, response) -> None:
    """A page other than the answer, "working" (202) or "the queue is full,
    this page asks again" (503 with Retry-After) is a refusal."""
    if response.request.resource_type != "document" or response.status in (200, 202):
        return
    if response.status == 503 and "retry-after" in response.headers:
        return
    problems.append(f"student {number}: {response.status} {response.url}")


def _exercise_4x4(number: int) -> str:
    """A 4x4 position of its own for each student: X on one cell, O on another."""
    x, o = number % 16, (number * 7 + 3) % 16
    if o == x:
        o = (o + 1) % 16
    cells = ["."] * 16
    cells[x], cells[o] = "X", "O"
    return "".join(cells)


def _all_at_once(pages, address, answer):
    """Every student opens their page before anyone's is checked, as a class
    does; a page that waits for the engine reloads itself until it answers."""
    for number, page in enumerate(pages):
        page.goto(address(number), wait_until="commit")
    for page in pages:
        expect(answer(page)).to_be_visible(timeout=60_000)


@pytest.mark.timeout(600)  # forty browsers: minutes on a loaded machine, past the suite's five
def test_a_class_of_forty_on_one_address_follows_the_course_and_nobody_is_refused(live_server, classroom):
    pages, problems = classroom
    site = live_server.url
    _all_at_once(pages, lambda n: f"{site}/learn/", lambda page: page.get_by_role("link", name="Minimax", exact=True))
    _all_at_once(
        pages,
        lambda n: f"{site}/learn/tree/?algorithm=minimax",
        lambda page: page.get_by_role("heading", name=re.compile("^Plain minimax")),
    )
    _all_at_once(
        pages,
        lambda n: f"{site}/learn/tree/?algorithm=alphabeta&order=centre",
        lambda page: page.get_by_role("heading", name=re.compile("^Alpha-beta")),
    )
    _all_at_once(
        pages,
        lambda n: f"{site}/analysis/?board={_exercise_4x4(n)}",
        lambda page: page.locator("[data-value]").get_by_text(re.compile("^With perfect play")),
    )
    # Today's puzzle from the home page, and its first move played by everyone.
    _all_at_once(pages, lambda n: f"{site}/", lambda page: page.get_by_role("link", name="Solve today's puzzle"))
    daily = puzzle_selectors.daily_puzzle()
    _all_at_once(
        pages,
        lambda n: site + daily.get_absolute_url(),
        lambda page: page.get_by_role("heading", level=1, name=daily.title),
    )
    for page in pages:
        page.locator(f'#puzzle .board .cell[value="{daily.solution_cells[0]}"]').click(no_wait_after=True)
    for page in pages:
        expect(page.locator(".puzzle-steps li")).to_have_count(1)
    assert not problems, "\n".join(problems)
