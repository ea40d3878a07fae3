"""An exam's report in Chromium, as a student and the teacher they share it
with read it: the summary, the pattern behind the mistakes and each wrong
answer on a small board, and the games against each level of the AI, at
desktop and phone widths, without an accessibility violation. Screenshots go
to /tmp."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import engine
from games.exams import positions, services
from games.exams.models import ExamGame
from games.exams.services import Answer
from games.play import services as play_services
from games.play.players import Player
from tests.browser.conftest import assert_accessible

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _lowest_free_cell(board: str) -> int:
    return board.index(".")


@pytest.fixture
def report_url(db):
    """A finished 3x3 exam of a bot that plays the lowest free cell: many
    mistakes, of every kind, and games lost to the AI."""
    student = get_user_model().objects.create_user("student", password="a long password")
    exam = services.exam_create(owner=student, variant="3x3", count=None, games=1)
    answers = [Answer(i, _lowest_free_cell(board)) for i, (board, _) in enumerate(positions.every_position_3x3())]
    for start in range(0, len(answers), 1000):
        services.exam_answer(exam_id=exam.pk, owner=student, answers=answers[start : start + 1000])
    player = Player(user=student)
    for exam_game in ExamGame.objects.filter(exam=exam).select_related("game"):
        game = exam_game.game
        while game.status == "in_progress":
            board = engine.Board.from_moves(game.cells, size=game.size)
            play_services.game_play_move(
                game_id=game.pk, player=player, cell=_lowest_free_cell(str(board)), ply=game.move_count
            )
            game.refresh_from_db()
    exam.refresh_from_db()
    assert exam.status == "finished" and exam.games_lost
    return exam.get_absolute_url(), exam


@pytest.mark.parametrize("size, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_shared_report_reads_at_both_widths(live_server, new_page, report_url, size, name):
    url, exam = report_url
    page = new_page(viewport=size)  # a visitor who is not signed in: the link is enough
    page.goto(live_server.url + url)

    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("main")).to_contain_text(f"4,520 positions: {exam.best:,} best")
    first_wrong = page.locator("main a[href*='/analysis/?board=']").first
    expect(first_wrong).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert_accessible(page)
    page.screenshot(path=f"/tmp/exam-report-{name}.png", full_page=False)

    # A wrong answer opens the analysis board on its position.
    board = first_wrong.get_attribute("href").split("board=")[1]
    first_wrong.click()
    expect(page).to_have_url(re.compile(r"/analysis/\?board=" + re.escape(board)))
    expect(page.locator("[data-value]").first).to_be_visible()


def test_the_games_against_the_ai_read_as_a_table_and_open_as_replays(live_server, new_page, report_url):
    url, exam = report_url
    page = new_page(viewport=DESKTOP)
    page.goto(live_server.url + url)
    table = page.locator("#played")
    expect(page.get_by_role("heading", name=re.compile("^Against the AI: 8 games"))).to_be_visible()
    for level in ("Easy", "Medium", "Hard", "Perfect"):
        expect(table.get_by_role("rowheader", name=level)).to_be_visible()
    perfect = table.get_by_role("row", name=re.compile("^Perfect"))
    expect(perfect).to_contain_text("0 won, 0 drawn, 1 lost")
    page.locator("#played").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/exam-played.png", full_page=False)
    lost = perfect.get_by_role("link", name=re.compile(r"^Game \d+: lost$")).first
    game = lost.get_attribute("href")
    lost.click()
    expect(page).to_have_url(re.compile(re.escape(game) + "$"))
    expect(page.locator("main")).to_contain_text("won")
