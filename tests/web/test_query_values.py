"""Every page, read with hostile values in every query parameter the site
reads: never a 500, for a visitor or a player, and reading stores nothing.

The pages are read from games/urls.py (and Django's account views), and the
parameter names from the views and the forms that read ``request.GET``, so a
page or a parameter added later is walked too."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse
from django.urls.converters import IntConverter

from games.exams import services as exam_services
from games.learn.mistakes import AttemptForm
from games.learn.models import Puzzle
from games.learn.tree_form import DepthLimitedForm, TreeForm
from games.lobby import services as lobby_services
from games.play.forms import HistoryFilterForm
from games.urls import app_name, urlpatterns
from tests.factories import ai_game, human_game
from tests.web.pages import signed_in
from tests.web.test_csrf import stored

pytestmark = pytest.mark.django_db

#: What the views read from ``request.GET`` by name, and what their forms read.
READ_BY_VIEWS = [
    "next",
    "page",
    "ply",
    "board",
    "moves",
    "variant",
    "thinking",
    "hint",
    "solution",
    "played",
    "cell",
    "game",
]
PARAMETERS = sorted(
    {
        *READ_BY_VIEWS,
        *HistoryFilterForm.base_fields,
        *AttemptForm.base_fields,
        *TreeForm.base_fields,
        *DepthLimitedForm.base_fields,
    }
)

HOSTILE = [
    "foo",
    "x y",
    '">',
    "<script>alert(1)</script>",
    "-1",
    "99999999999999999999999",
    "1e309",
    "NaN",
    "4.0",
    "",
    "\x00",
    "../../etc/passwd",
    "//evil.example/",
    "javascript:alert(1)",
    "\u202e\u200b",
    "ＸＯ",
    "X" * 3000,
]

#: Django's account pages that answer a GET.
ACCOUNT_PAGES = ["login", "logout", "password_change", "password_change_done", "password_reset", "password_reset_done"]


def _pages(things: dict) -> list[str]:
    """Every page of games/urls.py, its path arguments filled with real things."""
    pages = []
    for pattern in urlpatterns:
        route = str(pattern.pattern)
        kwargs = {}
        for arg, converter in pattern.pattern.converters.items():
            if arg == "pk" and isinstance(converter, IntConverter):
                kind = next(
                    (k for k in ("challenges", "puzzles", "quick") if route.startswith(k) or f"/{k}/" in route), "game"
                )
                kwargs[arg] = things[kind]
            else:
                kwargs[arg] = things[arg]
        pages.append(reverse(f"{app_name}:{pattern.name}", kwargs=kwargs))
    return pages + [reverse(name) for name in ACCOUNT_PAGES]


@pytest.fixture
def things(user, bob):
    finished = ai_game(user)
    between_people = human_game(user, bob)
    challenge = lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username=user.username)
    puzzle = Puzzle.objects.create(
        position="OO..X...X", variant="3x3", side="X", cell=2, win_in=3, solution="2,3,5", theme="fork"
    )
    exam = exam_services.exam_create(owner=user, variant="4x4", count=3, seed=1)
    exam_services.exam_answer(
        exam_id=exam.pk,
        owner=user,
        answers=[exam_services.Answer(row.index, min(map(int, row.outcomes))) for row in exam.positions.all()],
    )
    return {
        "game": finished.pk,
        "key": exam.key,  # an exam's report
        "people": between_people.pk,
        "challenges": challenge.pk,
        "token": challenge.token,
        "puzzles": puzzle.pk,
        "quick": 1,
        "username": user.username,
        "variant": "3x3",
        "kind": "json",  # a tree's download
        "name": "tttbot.py",  # a file of the reference bot client
    }


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_no_page_breaks_on_a_hostile_query_value(client, user, things, value):
    player = signed_in(user)
    before = stored()
    query = urlencode({name: value for name in PARAMETERS})
    broken = []
    for page in _pages(things):
        for who, browser in (("visitor", client), ("player", player)):
            response = browser.get(f"{page}?{query}")
            if response.status_code >= 500:
                broken.append((who, page, response.status_code))
    assert broken == []
    assert stored()["games"] == before["games"] and stored()["moves"] == before["moves"]
