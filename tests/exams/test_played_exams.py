"""Played exams: a student's program against each level of the AI, on both
sides, as ordinary games over the API; each result counted on the exam as the
game ends, and shown in the report."""

from __future__ import annotations

import pytest

from games import engine
from games.exams import services
from games.exams.models import Exam, ExamGame, ExamPosition
from games.play import services as play_services
from games.play.models import Game, Level
from games.play.players import Player
from tests.races import at_once, refusal_codes

pytestmark = pytest.mark.django_db

EXAMS = "/api/exams/"


def _played_exam(client, games: int = 1, **more) -> dict:
    response = client.post(EXAMS, {"variant": "3x3", "games": games, **more}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _play_out(client, game_id: int, choose) -> dict:
    """Play the program's moves with ``choose(board) -> cell`` until the game is over."""
    game = client.get(f"/api/games/{game_id}/").json()
    while game["status"] == "in_progress":
        assert game["to_move"] == game["your_side"], game
        cell = choose(engine.Board.from_string(game["board"]))
        response = client.post(f"/api/games/{game_id}/moves/", {"cell": cell, "ply": game["ply"]}, format="json")
        assert response.status_code == 201, response.content
        game = response.json()
    return game


def _perfect(board) -> int:
    return engine.best_move(board, "perfect", seed=0)


def _lowest_free(board) -> int:
    return min(board.legal_moves)


def test_an_exam_of_games_starts_one_per_level_and_side_with_the_ai_moving_first_as_x(as_alice, alice):
    exam = _played_exam(as_alice, games=2)
    assert exam["positions"] == [] and exam["games_per_side"] == 2
    assert exam["played"] == {"games": 16, "won": 0, "drawn": 0, "lost": 0, "aborted": 0, "playing": 16}
    assert exam["summary"] == "16 games: 0 won, 0 drawn, 0 lost, 16 being played"
    seen = {(g["level"], g["side"]) for g in exam["games"]}
    assert seen == {(level, side) for level in Level.values for side in "XO"}
    for row in exam["games"]:
        game = Game.objects.get(pk=row["id"])
        assert game.ai_level == row["level"] and game.ai_side != row["side"] and not game.rated
        mine = game.x_player if row["side"] == "X" else game.o_player
        assert mine == alice
        # Where the AI has X, its first move is made: the program is to move in every game.
        assert game.move_count == (1 if row["side"] == "O" else 0)
        assert row["outcome"] == "playing" and row["page"].endswith(game.get_absolute_url())
    # Two games against one level on one side are not the same game: each has its own seed.
    seeds = Game.objects.filter(pk__in=[g["id"] for g in exam["games"]]).values_list("seed", flat=True)
    assert len(set(seeds)) == 16


def test_perfect_play_never_loses_draws_the_perfect_ai_and_finishes_the_exam(as_alice):
    exam = _played_exam(as_alice)
    for row in exam["games"]:
        game = _play_out(as_alice, row["id"], _perfect)
        assert game["status"] == "finished"
    report = as_alice.get(f"{EXAMS}{exam['id']}/").json()
    assert report["status"] == "finished" and report["finished_at"]
    assert report["played"]["lost"] == 0 and report["played"]["playing"] == 0
    against_perfect = [g["outcome"] for g in report["games"] if g["level"] == "perfect"]
    assert against_perfect == ["drawn", "drawn"]
    assert report["summary"].startswith("8 games: ")
    assert report["summary"].endswith(" drawn, 0 lost")


def test_a_program_that_plays_the_lowest_free_cell_loses_and_the_report_says_where(as_alice, client):
    exam = _played_exam(as_alice)
    outcomes = {}
    for row in exam["games"]:
        _play_out(as_alice, row["id"], _lowest_free)
    report = as_alice.get(f"{EXAMS}{exam['id']}/").json()
    outcomes = {(g["level"], g["side"]): g["outcome"] for g in report["games"]}
    assert outcomes[("perfect", "X")] == outcomes[("perfect", "O")] == "lost"
    assert report["played"]["lost"] == sum(1 for o in outcomes.values() if o == "lost") >= 2
    page = client.get(report["report"])
    html = page.content.decode()
    assert page.status_code == 200
    assert f"Against the AI: {report['summary']}" in html
    lost_game = next(g for g in report["games"] if g["outcome"] == "lost")
    assert f'aria-label="Game {lost_game["id"]}: lost"' in html
    assert "Every loss is a game to replay" in html


def test_a_resigned_game_is_lost_and_an_aborted_one_called_off(as_alice):
    exam = _played_exam(as_alice)
    as_o = [g for g in exam["games"] if g["side"] == "O"]
    # As O the AI has moved: the program moves, and resigns; another it calls off at once.
    first, second = as_o[0]["id"], as_o[1]["id"]
    as_alice.post(f"/api/games/{first}/moves/", {"cell": _lowest_free(_board(first)), "ply": 1}, format="json")
    assert as_alice.post(f"/api/games/{first}/resign/").status_code == 200
    assert as_alice.post(f"/api/games/{second}/abort/").status_code == 200
    report = as_alice.get(f"{EXAMS}{exam['id']}/").json()
    assert report["played"] == {"games": 8, "won": 0, "drawn": 0, "lost": 1, "aborted": 1, "playing": 6}
    assert report["summary"] == "8 games: 0 won, 0 drawn, 1 lost, 1 called off, 6 being played"
    assert report["status"] == "open"
    outcomes = {g["id"]: g["outcome"] for g in report["games"]}
    assert outcomes[first] == "lost" and outcomes[second] == "aborted"


def _board(game_id: int) -> engine.Board:
    game = Game.objects.get(pk=game_id)
    return engine.Board.from_moves(game.cells, size=game.size)


def test_positions_and_games_in_one_exam_finish_together(as_alice):
    exam = _played_exam(as_alice, positions="all")
    assert len(exam["positions"]) == 4520 and len(exam["games"]) == 8
    answers = [
        {"position": p["index"], "cell": _perfect(engine.Board.from_string(p["board"]))} for p in exam["positions"]
    ]
    for start in range(0, len(answers), 1000):
        as_alice.post(exam["answers"], {"answers": answers[start : start + 1000]}, format="json")
    # Every position answered, but the games are still to play: not finished.
    assert as_alice.get(f"{EXAMS}{exam['id']}/").json()["status"] == "open"
    for row in exam["games"]:
        _play_out(as_alice, row["id"], _perfect)
    report = as_alice.get(f"{EXAMS}{exam['id']}/").json()
    assert report["status"] == "finished"
    assert report["summary"].startswith("4,520 positions: 4,520 best, 0 slower wins, 0 losses; 8 games: ")


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "3x3", "games": 11},
        {"variant": "3x3", "games": -1},
        {"variant": "3x3", "games": "2"},
        {"variant": "3x3", "games": 0},
        {"variant": "3x3"},
        {"variant": "3x3", "positions": 0, "games": 0},
    ],
)
def test_bad_game_counts_are_refused_and_nothing_is_started(as_alice, body):
    response = as_alice.post(EXAMS, body, format="json")
    assert response.status_code == 400, response.content
    assert not Exam.objects.exists() and not Game.objects.exists()


def test_the_games_are_the_owners_alone(as_alice, as_bob):
    exam = _played_exam(as_alice)
    game = exam["games"][0]["id"]
    response = as_bob.post(f"/api/games/{game}/moves/", {"cell": 4, "ply": 0}, format="json")
    assert response.status_code == 403
    assert as_bob.get(f"{EXAMS}{exam['id']}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_an_exams_games_ending_at_once_are_all_counted_and_finish_it(alice):
    """Every game resigned at the same moment, each in its own request: none
    is lost from the count, and the last one finishes the exam."""
    exam = services.exam_create(owner=alice, variant="3x3", count=0, games=1)
    player = Player(user=alice)
    rows = list(ExamGame.objects.filter(exam=exam).select_related("game"))
    for row in rows:
        if row.side == "X":
            play_services.game_play_move(
                game_id=row.game_id, player=player, cell=_lowest_free(_board(row.game_id)), ply=0
            )
        else:
            play_services.game_play_move(
                game_id=row.game_id, player=player, cell=_lowest_free(_board(row.game_id)), ply=1
            )
    results = at_once(*(lambda g=row.game_id: play_services.game_resign(game_id=g, player=player) for row in rows))
    assert refusal_codes(results) == ["ok"] * len(rows)
    exam.refresh_from_db()
    assert (exam.games_lost, exam.games_over, exam.status) == (8, 8, "finished")


@pytest.mark.django_db(transaction=True)
def test_two_batches_of_answers_at_once_are_both_graded_and_a_position_once(alice):
    exam = services.exam_create(owner=alice, variant="3x3", count=None)
    rows = list(ExamPosition.objects.filter(exam=exam).order_by("index")[:30])

    def batch(chosen):
        answers = [services.Answer(row.index, _lowest_free(engine.Board.from_string(row.board))) for row in chosen]
        return lambda: services.exam_answer(exam_id=exam.pk, owner=alice, answers=answers)

    # Two batches of their own, and then two that share a position.
    assert refusal_codes(at_once(batch(rows[:10]), batch(rows[10:20]))) == ["ok", "ok"]
    codes = refusal_codes(at_once(batch(rows[20:30]), batch(rows[25:26])))
    assert sorted(codes) == ["already_answered", "ok"]
    exam.refresh_from_db()
    answered = ExamPosition.objects.filter(exam=exam).exclude(cell=None).count()
    assert exam.answered == answered in (21, 30)
