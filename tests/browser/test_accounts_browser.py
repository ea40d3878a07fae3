"""Accounts in a real browser: what a visitor sees and clicks."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

PASSWORD = "a-long-browser-passphrase-77"


def test_sign_up_through_the_form_lands_home_signed_in(live_server, page):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up to play").click()

    expect(page).to_have_url(live_server.url + "/accounts/signup/")
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    page.get_by_label("Username").fill("dora")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(live_server.url + "/")
    header = page.locator(".site-header")
    expect(header.get_by_role("link", name="dora")).to_be_visible()
    expect(header.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.locator(".message--success")).to_contain_text("Welcome, dora!")
    page.screenshot(path="/tmp/tttsite-signed-up.png", full_page=True)
    assert get_user_model().objects.filter(username="dora").exists()

    # The flash message can be dismissed (site.js is loaded and runs).
    page.get_by_role("button", name="Dismiss message").click()
    expect(page.locator(".message")).to_have_count(0)


def test_bad_sign_up_shows_the_error_next_to_the_field(live_server, page):
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("dora")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD + "typo")
    page.get_by_role("button", name="Sign up").click()

    confirmation = page.get_by_label("Password confirmation")
    expect(confirmation).to_have_attribute("aria-invalid", "true")
    expect(confirmation).to_have_accessible_description(re.compile("didn’t match"))
    error_colour = page.locator("#id_password2_error").evaluate("e => getComputedStyle(e).color")
    assert error_colour in {"rgb(200, 30, 30)", "rgb(248, 113, 113)"}  # --danger, light or dark
    assert not get_user_model().objects.filter(username="dora").exists()


def test_log_in_and_out_from_the_header(live_server, page, django_user_model):
    django_user_model.objects.create_user("erin", password=PASSWORD)

    page.goto(live_server.url + "/")
    page.locator(".site-header").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator(".nav__user")).to_have_text("erin")

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator(".site-header").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator(".nav__user")).to_have_count(0)


def test_pages_fit_a_phone_screen_without_sideways_scrolling(live_server, browser, django_user_model):
    django_user_model.objects.create_user("a-rather-long-username-for-a-phone", password=PASSWORD)
    context = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme="dark")
    page = context.new_page()
    try:
        for path in ["/", "/accounts/signup/", "/accounts/login/", "/no-such-page/"]:
            page.goto(live_server.url + path)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 375px"

        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("a-rather-long-username-for-a-phone")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator(".nav__user")).to_be_visible()
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"signed-in home scrolls sideways by {overflow}px at 375px"
        # Dark mode really is dark.
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 15, 23)", background
        page.screenshot(path="/tmp/tttsite-phone-dark.png", full_page=True)
    finally:
        context.close()
