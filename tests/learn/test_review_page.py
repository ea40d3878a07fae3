"""The game page and its replay teach each move of a finished game: what was
played, its label, and for anything but *best* the better move marked on the
board and the line of best play after it. Outcomes are checked against the
independent referee (tests/engine/reference.py)."""

import html as html_lib
import re

import pytest

from games import engine
from games.play import reviews
from games.play.review_models import GameReview
from tests import factories
from tests.engine import reference

pytestmark = pytest.mark.django_db

#: X: 0, O: 1 (a blunder: the draw thrown away), X: 4, O: 8, X: 3 (two threats), O: 5, X: 6 wins.
O_BLUNDERS = [0, 1, 4, 8, 3, 5, 6]
#: A 4x4 game X wins down the first column, with one move of each kind in it.
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment: tags dropped, spaces collapsed."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _cell_classes(page: str) -> dict[int, str]:
    return {int(v): c for v, c in re.findall(r'name="cell" value="(\d+)"\s+class="([^"]*)"', page)}


def _better_cells(page: str) -> set[int]:
    return {cell for cell, classes in _cell_classes(page).items() if "cell--better" in classes.split()}


def _lesson(page: str) -> str:
    found = re.search(r'<div class="lesson .*?(?=<ol class="movelist">)', page, re.S)  # the list follows it
    assert found, "no lesson on the page"
    return found.group(0)


def _lines(page: str) -> list[list[tuple[str, int, int]]]:
    """Each line of best play shown: its steps as (mark, row, col)."""
    return [
        [(m, int(r), int(c)) for m, r, c in re.findall(r'mark--\w">(\w)</span> row (\d), col (\d)', line)]
        for line in re.findall(r'<ol class="line".*?</ol>', page, re.S)
    ]


def _position(cells, size=3) -> str:
    position = "." * size * size
    for cell in cells:
        position = reference.play(position, cell)
    return position


def _is_best_play(position: str, steps, size=3) -> str:
    """Play ``steps`` from ``position``, checking with the referee that each is
    a best move (fastest win, slowest loss); the position at the end."""
    for mark, row, col in steps:
        cell = (row - 1) * size + col - 1
        assert reference.to_move(position) == mark
        values = reference.move_values(position)
        assert values[cell] == max(values.values()), (position, cell, values)
        position = reference.play(position, cell)
    return position


def test_the_decisive_blunder_shows_the_better_move_its_line_and_why_it_decided(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    page = client.get(game.get_absolute_url(), {"ply": 2}).content.decode()

    before = _position(O_BLUNDERS[:1])
    values = reference.move_values(before)
    best = {cell for cell, value in values.items() if value == max(values.values())}
    assert _better_cells(page) == best == {4}
    assert (
        'aria-label="Row 2, column 2, empty: the better move for O, it would have drawn"' in page
    )  # for screen readers
    lesson = _text(_lesson(page))
    assert lesson.startswith("Move 2: O played row 1, col 2 blunder decided the game")
    outcome, plies = reference.describe(values[1], before)
    assert outcome == "loss"
    assert f"Row 2, col 2 would have drawn; after row 1, col 2, X wins in {plies - 1} more moves." in lesson
    assert (
        "This move decided the game: until it, O could still draw; "
        "from here X wins with best play, whatever O does." in lesson
    )
    better_line, played_line = _lines(_lesson(page))
    assert better_line[0] == ("O", 2, 2)  # the better move first, then best play from both sides
    end = _is_best_play(before, better_line)
    assert reference.is_over(end) and reference.winner(end) is None
    assert "Best play after row 2, col 2: 2. O row 2, col 2 (instead)" in lesson
    assert "Then: a draw." in lesson
    end = _is_best_play(reference.play(before, 1), played_line)
    assert reference.winner(end) == "X"
    assert "Best play after row 1, col 2, the move played" in lesson and "Then: X wins." in lesson


def test_a_best_move_says_so_and_marks_no_better_cell(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    page = client.get(game.get_absolute_url(), {"ply": 3}).content.decode()

    before = _position(O_BLUNDERS[:2])
    outcome, plies = reference.describe(reference.move_values(before)[4], before)
    assert outcome == "win"
    lesson = _text(_lesson(page))
    assert lesson.startswith("Move 3: X played row 2, col 2 best")
    assert f"Row 2, col 2 was the best move: after it, X wins in {plies - 1} more moves." in lesson
    assert _better_cells(page) == set() and '<ol class="line"' not in _lesson(page)


def test_the_final_position_explains_the_decisive_move_and_links_to_it(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    page = client.get(game.get_absolute_url()).content.decode()

    assert "Move 7: X played row 3, col 1" in _text(_lesson(page))
    assert "Row 3, col 1 was the best move: after it, X has won." in _text(_lesson(page))
    summary = _text(re.search(r'<p class="muted review-summary">.*?</p>', page, re.S).group(0))
    assert summary == (
        "The result was decided by move 2, O at row 1, col 2: until it, O could still draw; "
        "from here X wins with best play, whatever O does. Show move 2"
    )
    assert '<a href="?ply=2">Show move 2</a>' in page
    assert f'href="/games/{game.pk}/learn/">Learn from the mistakes</a>' in page


def test_the_replay_panel_fetched_by_javascript_carries_the_lesson(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    partial = client.get(game.get_absolute_url(), {"ply": 2}, HTTP_X_PARTIAL="1").content.decode()
    assert not partial.startswith("<!doctype")
    assert "Row 2, col 2 would have drawn" in partial and _better_cells(partial) == {4}


def test_every_ply_of_a_4x4_game_teaches_its_own_label_and_better_cells(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    review = engine.review(EVERY_LABEL_4X4, size=4)
    seen = set()
    for move in review.moves:
        page = client.get(game.get_absolute_url(), {"ply": move.ply + 1}).content.decode()
        lesson = _text(_lesson(page))
        row, col = divmod(move.cell, 4)
        assert lesson.startswith(f"Move {move.ply + 1}: {move.player} played row {row + 1}, col {col + 1} {move.label}")
        seen.add(move.label)
        if move.label == "best":
            assert _better_cells(page) == set()
            assert "was the best move" in lesson
            continue
        assert _better_cells(page) == set(move.best_cells)
        first = move.best_cells[0]
        assert lesson.startswith(f"Move {move.ply + 1}: {move.player} played row {row + 1}, col {col + 1} {move.label}")
        assert f"Row {first // 4 + 1}, col {first % 4 + 1} would have" in lesson
        # The line shown is best play by the referee's own minimax, to the end of the game.
        better_line, played_line = _lines(_lesson(page))
        end = _is_best_play(_position(EVERY_LABEL_4X4[: move.ply], 4), better_line, 4)
        assert reference.is_over(end)
        assert reference.is_over(_is_best_play(_position(EVERY_LABEL_4X4[: move.ply + 1], 4), played_line, 4))
    assert seen == {"best", "inaccuracy", "mistake", "blunder"}


def test_lines_are_worked_out_once_by_the_review_for_moves_but_the_best(client, user, bob, reviewed, monkeypatch):
    game = factories.human_game(user, bob, O_BLUNDERS)
    asked = []
    real = engine.principal_variation
    monkeypatch.setattr(
        engine, "principal_variation", lambda board, budget=None: asked.append(str(board)) or real(board, budget)
    )

    reviewed(game)  # the blunder is the one move but the best
    assert asked == ["X...O....", "XO......."]  # after the better move, after the move played
    for ply in ("", "2", "1"):
        client.get(game.get_absolute_url(), {"ply": ply})
    assert len(asked) == 2  # stored with the review: the pages never search


def test_a_finished_game_s_page_its_replay_and_its_panel_run_no_search(client, user, bob, reviewed, engine_searches):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    assert {"review", "principal_variation", "analyse", "search"} <= set(engine_searches)  # all counted
    engine_searches.clear()
    for ply in range(game.move_count + 1):
        page = client.get(game.get_absolute_url(), {"ply": ply}).content.decode()
        assert ply == 0 or _lesson(page)
    partial = client.get(game.get_absolute_url(), {"ply": 9}, HTTP_X_PARTIAL="1").content.decode()
    assert "would have" in _text(_lesson(partial))
    assert engine_searches == []


def test_a_game_not_reviewed_yet_shows_its_moves_and_says_the_review_is_being_prepared(
    client, user, bob, engine_searches
):
    game = factories.human_game(user, bob, O_BLUNDERS)
    for ply, partial in (("", False), ("2", False), ("2", True)):
        headers = {"HTTP_X_PARTIAL": "1"} if partial else {}
        page = client.get(game.get_absolute_url(), {"ply": ply}, **headers).content.decode()
        assert "The review is being prepared" in _text(page)
        assert "Reload the page in a moment to see it." in _text(page)  # without JavaScript
        assert page.count('class="movelist__item') == len(O_BLUNDERS)  # the moves, unlabelled
        assert 'class="label label--' not in page and 'class="lesson' not in page
        assert _better_cells(page) == set() and "Learn from the mistakes" not in page
    assert engine_searches == []


def test_a_game_in_progress_teaches_nothing_yet(client, user, bob):
    game = factories.human_game(user, bob, O_BLUNDERS[:4])
    for ply in ("", "2"):
        page = client.get(game.get_absolute_url(), {"ply": ply}).content.decode()
        assert 'class="lesson' not in page and _better_cells(page) == set()
        assert "Learn from the mistakes" not in page


def test_a_move_not_solved_in_time_is_not_guessed_at(client, user, bob):
    game = factories.human_game(user, bob, factories.X_WINS)
    draw = engine.Evaluation("draw", 9, 0)
    review = engine.Review(
        (
            engine.MoveReview(0, "X", 0, "best", draw, draw, tuple(range(9))),
            engine.MoveReview(1, "O", 3, "unsolved", engine.UNSOLVED, engine.UNSOLVED, ()),
        ),
        decisive_ply=None,
        exact=False,
    )
    GameReview.objects.create(game=game, review=reviews.ReviewedGame(review, {}, {}).to_json())
    page = client.get(game.get_absolute_url(), {"ply": 2}).content.decode()
    lesson = _text(_lesson(page))
    assert (
        lesson
        == "Move 2: O played row 2, col 1 not solved Row 2, col 1: not solved in time, and the engine does not guess."
    )
    assert _better_cells(page) == set()


#: A drawn 3x3 game, every move best: X opens on an edge, where a corner leaves O more ways to lose.
EDGE_OPENING_DRAW = [1, 0, 4, 7, 8, 2, 5, 3, 6]


def _losing_replies(position: str, cell: int) -> int:
    """The opponent's replies after ``cell`` that lose, by the independent referee."""
    after = reference.play(position, cell)
    return sum(1 for score in reference.move_values(after).values() if score < 0)


def test_an_edge_opening_is_best_and_its_verdict_says_a_corner_leaves_more_ways_to_lose(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EDGE_OPENING_DRAW))
    lesson = _text(_lesson(client.get(game.get_absolute_url(), {"ply": 1}).content.decode()))
    assert lesson.startswith("Move 1: X played row 1, col 2 best")  # the label stays exact
    edge, corner = _losing_replies("." * 9, 1), _losing_replies("." * 9, 0)
    assert (edge, corner) == (4, 7)
    assert (
        "Row 1, col 2 was the best move: after it, it is a draw with best play. "
        f"It left O {edge} ways to lose; row 1, col 1 would have left {corner}."
    ) in lesson


def test_a_move_leaving_the_most_traps_says_so(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EDGE_OPENING_DRAW))
    # Move 3, X in the centre: by the referee no other drawing move leaves O more losing replies.
    before = _position(EDGE_OPENING_DRAW[:2])
    values = reference.move_values(before)
    drawing = [cell for cell, score in values.items() if score == 0]
    assert max(_losing_replies(before, cell) for cell in drawing) == _losing_replies(before, 4) > 0
    lesson = _text(_lesson(client.get(game.get_absolute_url(), {"ply": 3}).content.decode()))
    assert f"It left O {_losing_replies(before, 4)} ways to lose, as many as any move could." in lesson
