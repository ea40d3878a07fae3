"""The front page for a first visit (no cookie but perhaps the CSRF one) is
rendered once and served from Django's cache for a few seconds
(games/serving/first_visit.py); each visit still gets a CSRF token of its
own that works, and anyone with a session gets their own page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.learn.models import Puzzle
from games.play.models import Game
from games.serving.first_visit import PLACEHOLDER

pytestmark = pytest.mark.django_db


def token_in(page: bytes) -> str:
    return re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()


def test_first_visits_are_served_without_querying_again_each_with_a_working_token(django_assert_num_queries):
    first = Client(enforce_csrf_checks=True)
    first.get("/")  # rendered and kept
    visitors = [Client(enforce_csrf_checks=True) for _ in range(3)]
    with django_assert_num_queries(0):
        pages = [visitor.get("/") for visitor in visitors]
    tokens = [token_in(page.content) for page in pages]
    assert len(set(tokens)) == 3 and PLACEHOLDER not in pages[0].content.decode()
    for page in pages:
        assert page.cookies[settings.CSRF_COOKIE_NAME].value

    # The token works: the page's "Play now" form starts a game.
    answer = visitors[1].post(
        "/play/",
        {"csrfmiddlewaretoken": tokens[1], "variant": "3x3", "level": "perfect", "start_mode": "minimax", "side": "X"},
    )
    assert answer.status_code == 302 and Game.objects.count() == 1


def test_a_visitor_with_a_session_gets_their_own_page(user):
    Client().get("/")  # a first visit's page kept
    signed_in = Client()
    signed_in.force_login(user)
    page = signed_in.get("/").content.decode()
    assert "Signed in as" in page and user.username in page

    guest = Client()
    guest.post(
        "/play/", {"variant": "3x3", "level": "perfect", "start_mode": "minimax", "side": "X"}
    )  # a guest with a game in progress
    assert "Your games in progress" in guest.get("/").content.decode()


def test_the_kept_page_is_rendered_again_after_a_while(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("time.time", lambda: clock[0])  # the cache's clock
    assert "Today's puzzle" not in Client().get("/").content.decode()
    Puzzle.objects.create(
        position="OO..X...X", variant="3x3", side="X", cell=2, win_in=3, solution="2,3,5", theme="fork"
    )
    assert "Today's puzzle" not in Client().get("/").content.decode()  # kept
    clock[0] += 11
    assert "Today's puzzle" in Client().get("/").content.decode()


def test_a_visitor_who_brings_the_csrf_cookie_keeps_it_and_a_token_not_made_from_it_is_refused():
    visitor = Client(enforce_csrf_checks=True)
    first = visitor.get("/")
    secret = first.cookies[settings.CSRF_COOKIE_NAME].value
    again = visitor.get("/")  # the kept page, to a visitor holding the cookie
    tokens = token_in(first.content), token_in(again.content)
    assert tokens[0] != tokens[1]  # masked anew on every page
    assert again.cookies[settings.CSRF_COOKIE_NAME].value == secret

    form = {"variant": "3x3", "level": "perfect", "start_mode": "minimax", "side": "X"}
    forged = tokens[1][:-1] + ("a" if tokens[1][-1] != "a" else "b")
    assert visitor.post("/play/", {"csrfmiddlewaretoken": forged, **form}).status_code == 403
    assert Game.objects.count() == 0
    assert visitor.post("/play/", {"csrfmiddlewaretoken": tokens[0], **form}).status_code == 302


def test_a_page_kept_by_one_server_process_gets_working_tokens_in_another(monkeypatch):
    from games.serving import first_visit

    Client().get("/")  # kept in the cache, which every server process shares
    monkeypatch.setattr(first_visit, "PLACEHOLDER", "first-visit-csrf-of-another-process")
    visitor = Client(enforce_csrf_checks=True)
    token = token_in(visitor.get("/").content)
    form = {"csrfmiddlewaretoken": token, "variant": "3x3", "level": "perfect", "start_mode": "minimax", "side": "X"}
    assert visitor.post("/play/", form).status_code == 302 and Game.objects.count() == 1
