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
            if "asgi_live_server" in item.fixturenames:
                item.add_marker(pytest.mark.asgi)


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
    browser = playwright_instance.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
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
        lambda message: errors.append(f"console.{message.type}: {message.text}") if message.type == "error" else None,
    )
    yield page
    assert not errors, "the page reported errors:\n" + "\n".join(errors)


def assert_accessible(page) -> None:
    """axe-core finds no accessibility violation on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.fixture(autouse=True)
def pages_open_no_socket_the_wsgi_server_cannot_serve(request, settings):
    """pytest-django's live_server serves no WebSockets: there, a signed-in
    player's pages open no notifications socket, as a site serving none
    would be set up (NOTIFICATIONS_SOCKET)."""
    if "live_server" in request.fixturenames and "asgi_live_server" not in request.fixturenames:
        settings.NOTIFICATIONS_SOCKET = False


# -- a live server that speaks WebSockets too ---------------------------------------------
#
# pytest-django's live_server is a WSGI thread: no WebSockets. This one runs
# Daphne with the project's ASGI application in a child process, as Channels'
# ChannelsLiveServerTestCase does. The child is forked from this process after
# the test database exists, so it inherits settings that already name the test
# database; the channel layer and the cache live in the child's memory, so
# every event a test relies on must come from a request to this server.


class AsgiLiveServer:
    def __init__(self, host: str, port: int):
        self.host = host
        self.port = port
        self.url = f"http://{host}:{port}"
        self.ws_url = f"ws://{host}:{port}"

    def __str__(self) -> str:
        return self.url


def _start_afresh():
    """In the child, before serving: drop what was inherited from the test process.

    Database connections are opened anew rather than shared. asgiref's one
    thread for thread-sensitive work (the consumers' database calls) is made
    anew too: a fork copies the executor but not its thread, so once the tests
    in tests/live have used it, work sent to the copy would wait forever and
    every WebSocket handshake would time out. The in-memory channel layer
    starts empty, without the groups and queues earlier tests left in it.
    """
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.connection = None
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends = {}


def _start_afresh_with_a_worker():
    """As :func:`_start_afresh`, and run the clock worker in the server's process:
    the channel layer lives in that process's memory, so the results the
    worker pushes reach the pages only from there."""
    import threading

    from games import worker

    _start_afresh()
    threading.Thread(target=worker.run, args=(threading.Event(),), kwargs={"jobs": []}, daemon=True).start()


@pytest.fixture
def asgi_live_server(request, transactional_db, settings):
    """Daphne serving HTTP and WebSockets against the test database; with the
    clock worker beside it for a test marked ``@pytest.mark.worker``."""
    from functools import partial

    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail("the ASGI live server needs a database file, not SQLite in memory", pytrace=False)
    host = "127.0.0.1"
    if host not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, host]
    # Close this process's connections before forking, so the child does not
    # inherit a socket that the parent goes on using.
    connections.close_all()
    process = DaphneProcess(
        host,
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=_start_afresh_with_a_worker if request.node.get_closest_marker("worker") else _start_afresh,
    )
    process.start()
    try:
        if not process.ready.wait(timeout=20):
            if not process.errors.empty():
                _, trace = process.errors.get(False)
                pytest.fail(f"Daphne did not start:\n{trace}", pytrace=False)
            pytest.fail("Daphne did not start within 20 seconds", pytrace=False)
        yield AsgiLiveServer(host, process.port.value)
    finally:
        process.terminate()
        process.join(timeout=10)
        connections.close_all()


@pytest.fixture
def new_page(browser, browser_context_args):
    """Open another page in a browser context of its own (its own cookies: another
    person), failing the test on its JavaScript or console errors like `page`.
    ``expected_errors``: substrings of console errors the test causes on purpose
    (Chromium logs a refused request's status, for one)."""
    contexts, errors = [], []

    def open_page(expected_errors=(), **context_args):
        context = browser.new_context(**{**browser_context_args, **context_args})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()

        def on_console(message):
            if message.type == "error" and not any(text in message.text for text in expected_errors):
                errors.append(f"console.{message.type}: {message.text}")

        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
        page.on("console", on_console)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, "a page reported errors:\n" + "\n".join(errors)
