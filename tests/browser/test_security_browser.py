"""The Content-Security-Policy in a real browser: every main page, the admin and
the API docs load and work with nothing blocked, live updates included.

Chromium reports each blocked script, style, image or connection on the
console and as a ``securitypolicyviolation`` event; both are collected here and
any one of them fails the test (the ``page`` fixture fails on console errors too).
"""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.play.models import Game
from tests.factories import ai_game, human_game

PASSWORD = "a-long-browser-passphrase-77"

# Runs before any of the page's own scripts, in every document of the context.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline") +
                              " at " + event.sourceFile + ":" + event.lineNumber);
});
"""


class PolicyWatch:
    """Everything the browser said about the policy while the test ran."""

    def __init__(self, page):
        self.page = page
        self.messages = []
        page.context.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)
        page.on("pageerror", self._console)

    def _console(self, message):
        text = getattr(message, "text", None) or str(message)
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.messages.append(text)

    def visit(self, url):
        """Open ``url``, check the policy it came with, and nothing blocked so far."""
        response = self.page.goto(url)
        assert response.status == 200, (url, response.status)
        self.assert_policy(response.headers.get("content-security-policy", ""), url)
        self.assert_nothing_blocked()
        return response

    @staticmethod
    def assert_policy(header, url):
        assert header, f"{url} came without a Content-Security-Policy"
        sources = dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())
        assert sources["script-src"] == "'self'", (url, header)
        assert "'unsafe-inline'" not in header and "'unsafe-eval'" not in header, (url, header)

    def assert_nothing_blocked(self):
        self.page.wait_for_load_state("load")
        violations = self.page.evaluate("window.__cspViolations || []")
        assert not violations and not self.messages, "\n".join([*violations, *self.messages])


def sign_in(page, server, username, *, login_url="/accounts/login/", button="Log in"):
    page.goto(server + login_url)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=button).click()
    page.wait_for_load_state("load")


def test_the_pages_load_and_work_with_nothing_blocked(asgi_live_server, page):
    server = asgi_live_server.url
    User = get_user_model()
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    # Finished games, so the stats page and the profile draw their charts.
    human_game(alice, bob)
    human_game(bob, alice)
    ai_game(alice)
    live = human_game(alice, bob, cells=[4])  # bob (O) to move
    watch = PolicyWatch(page)

    watch.visit(server + "/accounts/login/")
    sign_in(page, server, "alice")
    expect(page.locator(".nav__user")).to_have_text("alice")
    watch.assert_nothing_blocked()

    for url in ["/", "/play/", "/leaderboard/", "/games/"]:
        watch.visit(server + url)
    watch.visit(server + "/stats/")
    expect(page.locator(".chart-frame__axis text").first).to_be_visible()
    page.screenshot(path="/tmp/tttsite-stats-under-csp.png", full_page=True)
    watch.visit(server + "/players/alice/")
    expect(page.locator(".chart-frame__axis text").first).to_be_visible()

    # Against the AI: a move sent with fetch, the AI's answer swapped in.
    watch.visit(server + "/")
    page.get_by_role("button", name="Play now as X").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    page.locator('#game .board .cell[value="4"]').click()
    page.wait_for_function("() => Number(document.getElementById('game').dataset.ply) >= 2")
    watch.assert_nothing_blocked()

    # Live over WebSockets: connect-src 'self' lets the same site's ws:// through.
    watch.visit(server + "/lobby/")
    expect(page.locator("[data-live-indicator]")).to_have_text("live")
    watch.visit(server + live.get_absolute_url())
    expect(page.locator("[data-live-indicator]")).to_have_text("live")
    watch.assert_nothing_blocked()


def test_the_api_docs_work_with_nothing_blocked(asgi_live_server, page):
    server = asgi_live_server.url
    watch = PolicyWatch(page)

    watch.visit(server + "/api/docs/")

    # Swagger UI started from its script file, fetched the schema and drew it.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("tttsite API")
    expect(page.get_by_text("/api/games/{id}/moves/").first).to_be_visible()
    # And it still answers a request from its "Try it out" panel.
    page.locator("#operations-statistics-leaderboard .opblock-summary").click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    expect(page.locator(".live-responses-table tbody td.response-col_status").first).to_have_text("200")
    watch.assert_nothing_blocked()


def test_the_admin_works_with_nothing_blocked(asgi_live_server, page):
    server = asgi_live_server.url
    User = get_user_model()
    User.objects.create_superuser("root", password=PASSWORD)
    alice = User.objects.create_user("alice", password=PASSWORD)
    game = ai_game(alice)
    watch = PolicyWatch(page)

    watch.visit(server + "/admin/login/")
    sign_in(page, server, "root", login_url="/admin/login/")
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    watch.assert_nothing_blocked()

    watch.visit(server + "/admin/games/game/")
    # The changelist's script: "select all" ticks every row.
    page.locator("#action-toggle").check()
    expect(page.locator("input.action-select").first).to_be_checked()
    watch.visit(server + f"/admin/games/game/{game.pk}/change/")
    expect(page.locator("#game_form")).to_be_visible()
    watch.visit(server + "/admin/axes/accessattempt/")
    watch.assert_nothing_blocked()
    assert Game.objects.count() == 1
