"""Learn from the mistakes (/games/<id>/learn/): the position before each
mistake and blunder comes back, the learner tries a move with a plain form,
and the page says whether it keeps the outcome, as the exact analysis (and the
independent referee, tests/engine/reference.py) says."""

import html as html_lib
import re

import pytest

from games import engine
from games.play import services
from games.play.players import Player
from tests import factories
from tests.engine import reference
from tests.web.test_security import INLINE

pytestmark = pytest.mark.django_db

#: X: 2, O: 1 (a blunder: only the centre draws), X: 4, O: 0, X: 7 (a mistake: 6
#: won at once) ... a draw. O's blunder is move 2, X's mistake move 5.
BOTH_ERR = [2, 1, 4, 0, 7, 6, 3, 5, 8]
#: O blunders on move 2 and X wins; X makes no mistake.
O_BLUNDERS = [0, 1, 4, 8, 3, 5, 6]
#: A 4x4 game with a blunder (move 8), a mistake (9), a blunder (10) and an inaccuracy (12).
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def _url(game) -> str:
    return f"/games/{game.pk}/learn/"


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _verdict(page: str) -> str:
    found = re.search(r'<p class="trainer__verdict[^"]*" role="status">(.*?)</p>', page, re.S)
    return _text(found.group(1)) if found else ""


def _board(page: str) -> str:
    """The position the trainer shows, one character per cell, from the cells' labels."""
    marks = re.findall(r'aria-label="Row \d, col \d, (X|O|empty)', page)
    return "".join("." if mark == "empty" else mark for mark in marks)


def _marked(page: str, css: str) -> set[int]:
    cells = re.findall(r'name="cell" value="(\d+)"\s+class="([^"]*)"', page)
    return {int(value) for value, classes in cells if css in classes.split()}


def _name(cell: int, size: int = 3) -> str:
    return f"row {cell // size + 1}, col {cell % size + 1}"


def _position(cells, size=3) -> str:
    position = "." * size * size
    for cell in cells:
        position = reference.play(position, cell)
    return position


def test_a_player_is_put_back_in_the_position_before_their_mistake(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    client.force_login(user)  # alice played X

    page = client.get(_url(game)).content.decode()

    assert "Mistake 1 of 1 · move 5" in page
    assert _text(page).count("X (you) 1") == 1  # the side switch, with each side's count
    assert (
        "In the game, X played row 3, col 2, a mistake: a win thrown to a draw. Find a move that keeps the win."
        in _text(page)
    )
    assert _board(page) == _position(BOTH_ERR[:4]) == "OOX.X...."
    assert 'aria-label="Row 3, col 2, empty, played in the game"' in page
    # A plain form per attempt: the empty cells are its buttons, the taken ones are not.
    form = re.search(r'<form method="get" action="" class="board-form">.*?</form>', page, re.S).group(0)
    assert '<input type="hidden" name="side" value="X">' in form
    assert '<input type="hidden" name="mistake" value="1">' in form
    assert len(re.findall(r'name="cell" value="\d+"\s+class="[^"]*"\s+aria-label="[^"]*">', form)) == 5
    assert 'value="0"\n' in form and len(re.findall(r"disabled>", form)) == 4


def test_every_answer_is_judged_as_the_referee_judges_it(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    client.force_login(user)
    before = _position(BOTH_ERR[:4])
    values = reference.move_values(before)
    for cell, value in values.items():
        page = client.get(_url(game), {"side": "X", "mistake": 1, "cell": cell}).content.decode()
        verdict = _verdict(page)
        assert verdict.startswith("Yes:") == (value > 0), (cell, verdict)
        assert _marked(page, "cell--answer") == {cell}
        assert _marked(page, "cell--right") == ({cell} if value > 0 else set())
    fastest = {cell for cell, value in values.items() if value == max(values.values())}
    assert fastest == {6}
    messages = {
        cell: _verdict(client.get(_url(game), {"side": "X", "mistake": 1, "cell": cell}).content.decode())
        for cell in (6, 3, 7)
    }
    assert messages[6] == "Yes: Row 3, col 1 keeps the win, as well as any move can. After it, X has won."
    outcome, plies = reference.describe(values[3], before)
    assert (outcome, plies) == ("win", 3)
    assert messages[3] == (
        "Yes: Row 2, col 1 keeps the win (after it, X wins in 2 more moves), though row 3, col 1 wins at once."
    )
    assert messages[7] == (
        "Row 3, col 2 is the move played in the game: after it, it is a draw with best play. Try another cell."
    )


def test_a_wrong_answer_says_what_follows_and_invites_another_try(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))  # O's blunder: an edge, not the centre
    before = _position(BOTH_ERR[:1])
    outcome, plies = reference.describe(reference.move_values(before)[3], before)
    assert outcome == "loss"

    page = client.get(_url(game), {"side": "O", "cell": 3}).content.decode()

    assert _verdict(page) == (
        f"No: Row 2, col 1 does not keep the draw: after it, X wins in {plies - 1} more moves. Try another cell."
    )
    assert 'aria-label="Row 2, col 1, empty, your move, it does not keep the draw"' in page
    assert "Show the answer" in page
    assert '<ol class="line"' not in page  # the solution is not given away


def test_showing_the_answer_marks_every_cell_that_keeps_the_outcome_and_the_line(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    before = _position(BOTH_ERR[:1])
    values = reference.move_values(before)

    page = client.get(_url(game), {"side": "O", "show": 1}).content.decode()

    assert _marked(page, "cell--keeps") == {cell for cell, value in values.items() if value == 0} == {4}
    assert "Cells that keep the draw are marked “keeps” on the board." in _text(page)
    assert "Best play after row 2, col 2: 2. O row 2, col 2 (instead)" in _text(page)
    assert "Show the answer" not in page


def test_a_right_answer_shows_the_line_of_best_play(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    page = client.get(_url(game), {"side": "O", "cell": 4}).content.decode()
    assert (
        _verdict(page)
        == "Yes: Row 2, col 2 keeps the draw, as well as any move can. After it, it is a draw with best play."
    )
    assert "Then: a draw." in _text(page)


def test_anyone_may_learn_from_a_game_and_sees_both_sides(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    page = client.get(_url(game)).content.decode()  # not signed in: not a player
    assert "Mistake 1 of 2 · move 2" in page
    listed = re.findall(
        r'<span class="movelist__number">(\d+)\.</span>\s*<span class="mark mark--\w">(\w)</span>\s*([^<]+?)\s*</a>\s*<span class="label label--(\w+)">',
        page,
    )
    assert listed == [("2", "O", "row 1, col 2", "blunder"), ("5", "X", "row 3, col 2", "mistake")]
    second = client.get(_url(game), {"side": "both", "mistake": 2}).content.decode()
    assert "Mistake 2 of 2 · move 5" in second and "Previous mistake" in second and "Next mistake" not in second


def test_a_player_without_mistakes_is_shown_the_opponents(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, O_BLUNDERS))
    client.force_login(user)  # X made no mistake
    page = client.get(_url(game)).content.decode()
    assert "You made no mistake or blunder in this game" in page
    assert (
        "In the game, O played row 1, col 2, a blunder: a draw thrown to a loss. Find a move that keeps the draw."
        in _text(page)
    )
    own = client.get(_url(game), {"side": "X"}).content.decode()
    assert "You made no mistake or blunder in this game: every move of yours kept the outcome." in own


@pytest.mark.parametrize(
    "query, message",
    [
        ({"cell": "abc"}, "A move is a cell of the board: choose one of its empty cells."),
        ({"cell": "-1"}, "A move is a cell of the board: choose one of its empty cells."),
        ({"cell": "9"}, "Cell 9 is off the board: choose one of its empty cells."),
        ({"cell": "2"}, "Row 1, col 3 is taken already: choose an empty cell."),
        ({"mistake": "7"}, "There is no mistake 7 here: both sides made 2."),
        ({"mistake": "first"}, "The mistake to try again is a number: 1 for the first."),
        ({"mistake": "0"}, "The mistakes are numbered from 1."),
        ({"side": "Z"}, "“Z” is not a side: choose X, O or both."),
    ],
)
def test_bad_input_gets_a_clear_message_on_the_page(client, user, bob, query, message, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    response = client.get(_url(game), query)
    page = response.content.decode()
    assert response.status_code == 400
    assert f'<li class="message message--error">{html_lib.escape(message, quote=False)}</li>' in page.replace(
        "&#x27;", "'"
    )
    assert "Traceback" not in page
    assert "Mistake 1 of 2" in page  # the trainer is still there to use


def test_an_unknown_game_is_the_sites_404(client):
    response = client.get("/games/999999/learn/")
    assert response.status_code == 404 and "This square is empty" in response.content.decode()


def test_a_game_in_progress_or_aborted_has_nothing_to_learn_from_yet(client, user, bob):
    playing = factories.human_game(user, bob, O_BLUNDERS[:3])
    page = client.get(_url(playing)).content.decode()
    assert "This game is still being played. Once it ends, its mistakes come back here to be tried again." in page
    assert 'class="board-form"' not in page
    aborted = factories.human_game(user, bob, [4])
    services.game_abort_by_player(game_id=aborted.pk, player=Player(user=user))
    page = client.get(_url(aborted)).content.decode()
    assert "This game was aborted before it ended: there is nothing to learn from here." in page


def test_the_mistakes_of_a_4x4_game_are_tried_again_against_the_referee(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    review = engine.review(EVERY_LABEL_4X4, size=4)
    retried = [move for move in review.moves if move.label in ("mistake", "blunder")]
    assert [move.label for move in retried] == ["blunder", "mistake", "blunder"]  # the inaccuracy is left out
    for number, move in enumerate(retried, start=1):
        before = _position(EVERY_LABEL_4X4[: move.ply], 4)
        values = reference.move_values(before)
        keep = reference.describe(max(values.values()), before)[0]
        page = client.get(_url(game), {"side": "both", "mistake": number}).content.decode()
        assert _board(page) == before
        assert f"Find a move that keeps the {keep}." in _text(page)
        for cell, value in values.items():
            verdict = _verdict(
                client.get(_url(game), {"side": "both", "mistake": number, "cell": cell}).content.decode()
            )
            keeps = reference.describe(value, before)[0] == keep
            assert verdict.startswith("Yes:") == keeps, (move.ply, cell, verdict)


def test_a_5x5_blunder_is_tried_again_against_the_exact_analysis(client, user, bob, reviewed):
    cells = [12, 0, 13, 1, 14, 2, 11]  # O's first move, a corner, loses: X wins
    game = reviewed(factories.human_game(user, bob, cells, variant="5x5"))
    client.force_login(bob)
    page = client.get(_url(game)).content.decode()
    assert "Mistake 1 of 1 · move 2" in page
    assert "In the game, O played row 1, col 1, a blunder: a draw thrown to a loss." in _text(page)
    analysis = engine.analyse(engine.Board.from_moves(cells[:1], size=5))
    draws = {cell for cell, evaluation in analysis.items() if evaluation.outcome == "draw"}
    assert draws == {6, 8, 16, 18}
    assert _verdict(client.get(_url(game), {"cell": 6}).content.decode()).startswith(
        "Yes: Row 2, col 2 keeps the draw, as well as any move can."
    )
    assert _verdict(client.get(_url(game), {"cell": 1}).content.decode()).startswith(
        "No: Row 1, col 2 does not keep the draw: after it, X wins in"
    )
    shown = client.get(_url(game), {"show": 1}).content.decode()
    assert _marked(shown, "cell--keeps") == draws


def test_the_review_and_the_trainer_need_no_inline_script_or_style(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    for url, query in [
        (game.get_absolute_url(), {"ply": 2}),
        (_url(game), {}),
        (_url(game), {"cell": 3}),
        (_url(game), {"show": 1}),
    ]:
        page = client.get(url, query).content.decode()
        for pattern, what in INLINE:
            assert pattern.search(page) is None, f"{url} {query} has {what}"


def test_the_trainer_never_searches(client, user, bob, reviewed, engine_searches):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    engine_searches.clear()
    for number in (1, 2, 3):
        page = client.get(_url(game), {"side": "both", "mistake": number}).content.decode()
        empty = [i for i, mark in enumerate(_board(page)) if mark == "."]
        for query in [{"show": 1}, *({"cell": cell} for cell in empty)]:
            response = client.get(_url(game), {"side": "both", "mistake": number, **query})
            assert response.status_code == 200 and "Find a move that keeps the" in _text(response.content.decode())
    assert engine_searches == []


def test_a_game_not_reviewed_yet_says_its_review_is_being_prepared(client, user, bob, engine_searches):
    game = factories.human_game(user, bob, BOTH_ERR)
    for query in ({}, {"cell": 3}, {"show": 1}):
        response = client.get(_url(game), query)
        page = _text(response.content.decode())
        assert response.status_code == 200
        assert "The review is being prepared… Reload the page in a moment to try its mistakes again." in page
        assert 'class="board-form"' not in response.content.decode()
    assert engine_searches == []
