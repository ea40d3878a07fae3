"""Your account in a real browser, served over ASGI as in production: download
your games, then delete the account."""

import csv
import io
import json

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.play import live
from tests.factories import DRAW, X_WINS, human_game

PASSWORD = "a-long-browser-passphrase-77"


def _log_in(page, server, username):
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav__user")).to_have_text(username)


def test_download_your_games_then_delete_your_account(asgi_live_server, new_page, django_user_model, monkeypatch):
    # The games are made here, where Playwright's event loop runs: their live
    # messages could not be sent from this thread, and nobody in the server's
    # process would hear them anyway.
    monkeypatch.setattr(live, "_send", lambda group, message: None)
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    bob = django_user_model.objects.create_user("bob", password=PASSWORD)
    won = human_game(alice, bob, X_WINS)
    human_game(bob, alice, DRAW)
    ongoing = human_game(bob, alice, [4])
    page = new_page(expected_errors=["status of 400"])  # the wrong password, on purpose

    _log_in(page, asgi_live_server, "alice")
    page.locator(".nav__user").click()
    page.get_by_role("link", name="Download your games (JSON, CSV)").click()
    expect(page.get_by_role("heading", name="Your account", exact=True)).to_be_visible()
    page.screenshot(path="/tmp/tttsite-your-account.png", full_page=True)

    with page.expect_download() as download:
        page.get_by_role("link", name="Your games as JSON").click()
    assert download.value.suggested_filename == "tttsite-alice-games.json"
    data = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert [game["outcome"] for game in data["games"]] == ["win", "draw", "unfinished"]
    assert [move["cell"] for move in data["games"][0]["moves"]] == X_WINS

    with page.expect_download() as download:
        page.get_by_role("link", name="Your games as CSV").click()
    assert download.value.suggested_filename == "tttsite-alice-games.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert [(row["id"], row["opponent"], row["moves"]) for row in rows][0] == (str(won.pk), "bob", "0 3 1 4 2")

    page.get_by_role("link", name="Delete your account…").click()
    page.get_by_label("Your password").fill("not-it")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_label("Your password")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".errorlist")).to_contain_text("That is not your password")
    page.screenshot(path="/tmp/tttsite-delete-account.png", full_page=True)

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page).to_have_url(asgi_live_server.url + "/")
    expect(page.locator(".message--success")).to_contain_text("Your account has been deleted.")
    expect(page.locator(".site-header").get_by_role("link", name="Log in")).to_be_visible()
    assert not get_user_model().objects.filter(username="alice").exists()

    # Bob's side: the game alice left is his, won by resignation, against a deleted player.
    page.context.clear_cookies()
    _log_in(page, asgi_live_server, "bob")
    page.goto(f"{asgi_live_server.url}/games/{ongoing.pk}/")
    expect(page.locator(".players")).to_contain_text("Deleted player")
    expect(page.get_by_text("Your opponent has deleted their account: no rematch.")).to_be_visible()
    page.screenshot(path="/tmp/tttsite-opponent-deleted.png", full_page=True)
