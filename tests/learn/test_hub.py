"""/learn/: the way in to every learning page, reached from the site's header."""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.learn.models import Puzzle
from tests.factories import human_game

pytestmark = pytest.mark.django_db


def test_the_header_leads_to_learn_and_learn_lays_out_a_course_in_order(client):
    home = client.get(reverse("games:home")).content.decode()
    assert '<a href="/learn/">Learn</a>' in home
    page = client.get(reverse("games:learn"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/learn/" aria-current="page">Learn</a>' in html
    steps = re.findall(
        r'<li class="card learn-path__step" id="([^"]+)">\s*<h2 class="card__title"><a href="([^"]+)">', html
    )
    assert [step for step, _link in steps] == [
        "minimax",
        "scoring",
        "alphabeta",
        "move-order",
        "depth-limits",
        "practice",
    ]
    links = dict(steps)
    assert links["minimax"] == reverse("games:tree") + "?algorithm=minimax"
    assert links["alphabeta"] == reverse("games:tree") + "?algorithm=alphabeta"
    assert links["scoring"] == reverse("games:tree_scoring")
    assert links["depth-limits"] == reverse("games:tree_depth")
    for link in links.values():
        link = link.replace("&amp;", "&")
        assert client.get(link).status_code == 200, link
    assert 'href="/analysis/">the analysis board</a>' in html
    assert "None yet." in html


def test_learn_counts_the_puzzles_of_each_board(client, user, bob):
    human_game(user, bob, cells=[4, 0, 8, 1, 2, 3, 5])  # X's fork: "OO..X...X", X to play and win in 3
    call_command("make_puzzles", "--variant", "3x3", stdout=io.StringIO())
    count = Puzzle.objects.filter(variant="3x3").count()
    assert count >= 1
    html = client.get(reverse("games:learn")).content.decode()
    assert f'{count} so far: <a href="/puzzles/3x3/">{count} on 3x3</a>.' in html
