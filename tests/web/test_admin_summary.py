"""The admin index: staff see the site's figures above the apps."""

import re

import pytest

from games.stats.models import DailyStats
from tests.factories import DRAW, X_WINS, ai_game, human_game

pytestmark = pytest.mark.django_db


def _summary(html: str) -> str:
    block = re.search(r'<div class="module site-summary".*?</div>', html, re.S).group(0)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block))


def test_staff_see_todays_games_the_perfect_ai_and_the_top_players(admin_client, user, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x")
    human_game(user, bob, X_WINS)
    human_game(user, bob, DRAW)
    ai_game(user, level="perfect")
    DailyStats.objects.filter(result="draw", opponent="human").update(day="2020-01-01")  # an older day
    html = admin_client.get("/admin/").content.decode()
    summary = _summary(html)
    assert 'href="/admin/games/game/"' in html  # the apps are still listed below
    assert "Games finished today 2" in summary
    assert "Games finished in all 3" in summary
    assert "Perfect AI's losses 0" in summary
    assert re.search(r"Top players 3x3 : 1\. alice \(\d+\), 2\. bob \(\d+\) 4x4 : no rated games yet", summary)


def test_an_empty_site_shows_zeroes(admin_client):
    summary = _summary(admin_client.get("/admin/").content.decode())
    assert "Games finished in all 0" in summary and "3x3 : no rated games yet" in summary


def test_only_staff_reach_the_admin_index(client, user):
    client.force_login(user)
    response = client.get("/admin/")
    assert response.status_code == 302 and "site-summary" not in response.content.decode()
    assert response["Location"] == "/admin/login/?next=/admin/"
