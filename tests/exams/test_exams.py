"""Exams through the API and the report page: a student's minimax graded
against perfect play, all or nothing per request, and shared by its link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import engine
from games.exams.models import Exam, ExamPosition
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

EXAMS = "/api/exams/"


@pytest.fixture
def exam_3x3(as_alice):
    response = as_alice.post(EXAMS, {"variant": "3x3", "positions": "all"}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _answer_all(client, exam, choose) -> dict:
    """Answer every position with ``choose(board) -> cell``, 1,000 a request; the last report."""
    answers = [
        {"position": p["index"], "cell": choose(engine.Board.from_string(p["board"]))} for p in exam["positions"]
    ]
    for start in range(0, len(answers), 1000):
        response = client.post(exam["answers"], {"answers": answers[start : start + 1000]}, format="json")
        assert response.status_code == 200, response.content
    return response.json()


def _lowest_free(board) -> int:
    return min(board.legal_moves)


def test_a_3x3_exam_asks_every_open_position_once(exam_3x3):
    boards = [p["board"] for p in exam_3x3["positions"]]
    assert len(boards) == len(set(boards)) == 4520
    assert exam_3x3["status"] == "open" and exam_3x3["variant"] == "3x3"
    assert exam_3x3["positions"][0] == {"index": 0, "board": ".........", "to_move": "X"}
    assert all(not engine.Board.from_string(board).is_game_over() for board in boards)


def test_perfect_play_grades_all_best_and_finishes_the_exam(as_alice, exam_3x3):
    report = _answer_all(as_alice, exam_3x3, engine.best_move)
    assert report["status"] == "finished" and report["finished_at"]
    assert report["counts"]["best"] == report["counts"]["positions"] == 4520
    assert report["summary"] == "4,520 positions: 4,520 best, 0 slower wins, 0 losses"
    assert report["wrong_answers"] == []


def _grade_of(report, board):
    return (
        next(w["grade"] for w in report["wrong_answers"] if w["board"] == board)
        if any(w["board"] == board for w in report["wrong_answers"])
        else "best"
    )


@pytest.mark.parametrize(
    ("board", "grade", "best_cells"),
    [
        ("XX.OO....", "best", [2]),  # cell 2 completes X's top row
        ("XOOX.....", "slower_win", [6]),  # 6 wins now; 4 forks, winning a move later
        ("XOX..O...", "win_to_draw", [4, 6]),  # 3 lets O hold; 4 or 6 fork at once
        ("X..OO.X..", "loss", [5]),  # 1 ignores O's threat on 5
        ("XO.XO....", "loss", [6]),  # 2 misses X's own win on 6 and O's on 7
        ("XXO..O...", "quicker_loss", [8]),  # lost either way; 8 blocks and holds out two more moves
    ],
)
def test_the_lowest_free_cell_bot_gets_known_grades(as_alice, exam_3x3, board, grade, best_cells):
    position = next(p for p in exam_3x3["positions"] if p["board"] == board)
    response = as_alice.post(
        exam_3x3["answers"],
        {"answers": [{"position": position["index"], "cell": _lowest_free(engine.Board.from_string(board))}]},
        format="json",
    )
    assert response.status_code == 200
    report = response.json()
    assert report["counts"][grade] == 1 and report["counts"]["answered"] == 1
    if grade != "best":
        assert report["wrong_answers"][0]["grade"] == grade
        assert report["wrong_answers"][0]["best_cells"] == best_cells


def test_the_lowest_free_cell_bot_over_the_whole_exam(as_alice, exam_3x3, client, django_assert_max_num_queries):
    report = _answer_all(as_alice, exam_3x3, _lowest_free)
    counts = report["counts"]
    assert sum(counts[g] for g in ("best", "slower_win", "win_to_draw", "loss", "quicker_loss")) == 4520
    assert counts["loss"] > 0 and counts["slower_win"] > 0
    assert report["summary"].startswith(f"4,520 positions: {counts['best']:,} best")
    exam = Exam.objects.get()
    with django_assert_max_num_queries(8):
        page = client.get(exam.get_absolute_url())
    text = page.content.decode()
    assert page.status_code == 200
    assert report["summary"] in text
    assert reverse("games:tree_scoring") in text
    assert "missed an immediate win" in text and "missed a block of an immediate threat" in text
    wrong = 4520 - counts["best"]
    assert f"{wrong:,} wrong answers (1–50 here)" in text
    assert f"{reverse('games:analysis')}?board=" in text
    second = client.get(exam.get_absolute_url(), {"page": 2})
    assert "(51–100 here)" in second.content.decode()


def test_the_report_page_names_the_better_move(as_alice, exam_3x3, client):
    position = next(p for p in exam_3x3["positions"] if p["board"] == "XOOX.....")
    as_alice.post(exam_3x3["answers"], {"answers": [{"position": position["index"], "cell": 4}]}, format="json")
    text = client.get(Exam.objects.get().get_absolute_url()).content.decode()
    assert "Played cell 4 (win in 3)" in text and "better: cell 6 (win in 1)" in text
    assert "/analysis/?board=XOOX....." in text
    assert "1 slower win:" in text


def test_more_than_1000_answers_is_refused(as_alice, exam_3x3):
    answers = [{"position": i, "cell": min(map(int, ["0"]))} for i in range(1001)]
    response = as_alice.post(exam_3x3["answers"], {"answers": answers}, format="json")
    assert response.status_code == 400
    assert not ExamPosition.objects.exclude(cell=None).exists()


@pytest.mark.parametrize(
    ("bad", "status"),
    [
        ({"position": 99999, "cell": 0}, 400),  # no such position
        ({"position": 0, "cell": 9}, 400),  # off the board
        ({"position": 1, "cell": None}, 400),  # not a cell
        ("first", 409),  # answered already
        ({"position": 2, "cell": 0}, 409),  # twice in one request
    ],
)
def test_one_bad_answer_refuses_the_whole_request(as_alice, exam_3x3, bad, status):
    first = {"position": 0, "cell": 4}
    assert as_alice.post(exam_3x3["answers"], {"answers": [first]}, format="json").status_code == 200
    occupied = next(p for p in exam_3x3["positions"] if p["board"][0] == "X")
    batch = [{"position": 2, "cell": 8}, first if bad == "first" else bad]
    response = as_alice.post(exam_3x3["answers"], {"answers": batch}, format="json")
    assert response.status_code == status
    assert ExamPosition.objects.exclude(cell=None).count() == 1
    assert Exam.objects.get().answered == 1
    taken = as_alice.post(exam_3x3["answers"], {"answers": [{"position": occupied["index"], "cell": 0}]}, format="json")
    assert taken.status_code == 400 and "not a legal move" in taken.json()["message"]


def test_someone_elses_exam_cannot_be_answered_or_read(as_bob, exam_3x3):
    answer = {"answers": [{"position": 0, "cell": 4}]}
    assert as_bob.post(exam_3x3["answers"], answer, format="json").status_code == 404
    assert as_bob.get(f"{EXAMS}{exam_3x3['id']}/").status_code == 404
    assert as_bob.get(EXAMS).json()["results"] == []
    assert not ExamPosition.objects.exclude(cell=None).exists()


def test_an_exam_needs_a_signed_in_player():
    assert client_for(None).post(EXAMS, {"variant": "3x3", "positions": "all"}, format="json").status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "3x3", "positions": 5},
        {"variant": "4x4", "positions": "all"},
        {"variant": "4x4", "positions": 0},
        {"variant": "5x5", "positions": 1001},
        {"variant": "6x6", "positions": "all"},
        {"variant": "4x4", "positions": "5"},
    ],
)
def test_bad_exam_requests_are_refused(as_alice, body):
    assert as_alice.post(EXAMS, body, format="json").status_code == 400
    assert not Exam.objects.exists()


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_sampled_exams_are_reproducible_and_exact(as_alice, variant):
    body = {"variant": variant, "positions": 12, "seed": 7}
    first = as_alice.post(EXAMS, body, format="json").json()
    again = as_alice.post(EXAMS, body, format="json").json()
    assert first["positions"] == again["positions"] and len(first["positions"]) == 12
    assert first["seed"] == 7
    size = int(variant[0])
    for row in ExamPosition.objects.filter(exam_id=first["id"]):
        board = engine.Board.from_string(row.board)
        assert len(row.board) == size * size and not board.is_game_over()
        assert sorted(map(int, row.outcomes)) == board.legal_moves
        assert all(result["outcome"] in ("win", "draw", "loss") for result in row.outcomes.values())
    listed = as_alice.get(EXAMS).json()["results"]
    assert [e["id"] for e in listed] == [again["id"], first["id"]]


def test_an_unknown_report_link_is_a_404(client):
    assert client.get(reverse("games:exam_report", args=["no-such-key"])).status_code == 404


def test_the_owners_profile_lists_their_exams_and_no_one_elses(user, bob, exam_3x3, client):
    report = Exam.objects.get().get_absolute_url()
    profile = reverse("games:profile", args=["alice"])
    client.force_login(user)
    text = client.get(profile).content.decode()
    assert "Your exams" in text and report in text
    client.force_login(bob)
    assert report not in client.get(profile).content.decode()


def test_a_sampled_exam_is_made_by_the_engines_processes_while_the_request_is_answered_202(as_alice, engine_processes):
    """The sampling never holds a request: 202 and Retry-After until the pool is done, then the exam."""
    import time

    asked = {"variant": "5x5", "positions": 20}
    first = as_alice.post(reverse("api:exams"), asked, format="json")
    assert first.status_code == 202 and first.json()["code"] == "engine_working"
    assert int(first["Retry-After"]) >= 1
    assert not Exam.objects.exists()

    for _ in range(60):
        time.sleep(0.5)
        again = as_alice.post(reverse("api:exams"), asked, format="json")
        if again.status_code != 202:
            break
    assert again.status_code == 201, again.content
    assert len(again.json()["positions"]) == 20 and Exam.objects.count() == 1
