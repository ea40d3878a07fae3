"""Playwright fixtures for every browser test: Debian's Chromium, headless.

Use them with pytest-django's `live_server`:

    def test_something(live_server, page):
        page.goto(live_server.url + "/")

Every test in this folder runs with `transactional_db`, so the live server's
thread sees the rows a test writes.
"""
import os
import shutil

import pytest

# Playwright's sync API runs an asyncio event loop in the test thread. Django
# sees that loop and refuses ORM calls from the test ("You cannot call this from
# an async context"), although the test code itself is plain synchronous code.
# The loop never runs Django code, so the check is a false alarm here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # The machines this runs on have no internet: without these, Chromium keeps
    # trying to reach Google's services at start-up.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(scope="session")
def chromium_path():
    """Debian's Chromium; a missing browser fails the run, it is never a skip."""
    path = shutil.which("chromium")
    if path is None:
        pytest.fail(
            "chromium is not installed: browser tests need Debian's chromium "
            "(scripts/test installs it: apt-get install -y chromium)",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance, chromium_path):
    """One headless Chromium for the whole session."""
    browser = playwright_instance.chromium.launch(
        executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture
def browser_context_args():
    """Options for each test's browser context; override in a test module to change them."""
    return {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture
def context(browser, browser_context_args):
    """A fresh browser context (cookies, storage) per test."""
    context = browser.new_context(**browser_context_args)
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context):
    """A page that fails the test on any JavaScript error or console error."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(
        "console",
        lambda message: errors.append(f"console.{message.type}: {message.text}")
        if message.type == "error"
        else None,
    )
    yield page
    assert not errors, "the page reported errors:\n" + "\n".join(errors)
