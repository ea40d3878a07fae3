"""A class of forty in Chromium: every student a guest with a browser of their
own, all behind the school's one address, following the course on /learn/ at
the same moment, with the engine's production budgets and its pool of
processes. Nobody is refused, and every page gives its answer."""

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine_work import budget as engine_budget

STUDENTS = 40


@pytest.fixture
def classroom(browser, engine_processes, settings):
    """Forty fresh guests, their budgets the ones a site runs with."""
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
        page.on(
            "response",
            lambda response, n=number: problems.append(f"student {n}: {response.status} {response.url}")
            if response.request.resource_type == "document" and response.status not in (200, 202)
            else None,
        )
        pages.append(page)
    yield pages, problems
    for context in contexts:
        context.close()
    cache.clear()


def _exercise_4x4(number: int) -> str:
    """A 4x4 position of its own for each student: X on one cell, O on another."""
    x, o = number % 16, (number * 7 + 3) % 16
    if o == x:
        o = (o + 1) % 16
    cells = ["."] * 16
    cells[x], cells[o] = "X", "O"
    return "".join(cells)


def _all_at_once(pages, address, answer):
    """Every student opens their page before anyone's is checked, as a class does."""
    for number, page in enumerate(pages):
        page.goto(address(number), wait_until="commit")
    for page in pages:
        expect(answer(page)).to_be_visible()


def test_a_class_of_forty_on_one_address_follows_the_course_and_nobody_is_refused(live_server, classroom):
    pages, problems = classroom
    site = live_server.url
    _all_at_once(pages, lambda n: f"{site}/learn/", lambda page: page.get_by_role("link", name="Minimax"))
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
    assert not problems, "\n".join(problems)
