"""The analysis board as a learner meets it: every free cell's outcome in
words, the line of best play, stepping along the moves, links that carry the
position, clear messages for bad links, and a budget for guests."""

from __future__ import annotations

import html as html_lib
import re
from html.parser import HTMLParser

import pytest

from games import engine
from tests.engine import reference
from tests.factories import ai_game, human_game
from tests.learn.test_explain import referee_words
from tests.web.test_security import _assert_no_inline

pytestmark = pytest.mark.django_db

URL = "/analysis/"
#: Late 5x5 positions (15 marks, O to move): solved at once, small enough for the referee.
LATE_5X5 = [".X..OO..OOO.X.X.OXXXXX.O.", ".X.X.OXOO.OO.XX.XOXO...X."]


class _Cells(HTMLParser):
    """The board's cells as the page draws them: tag, link, label and the words inside."""

    def __init__(self):
        super().__init__()
        self.cells: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "analysis-cell" in (attrs.get("class") or "").split() and tag in ("a", "span"):
            self._open = {"tag": tag, **attrs, "text": ""}
            self.cells.append(self._open)

    def handle_endtag(self, tag):
        if self._open is not None and tag == self._open["tag"]:
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += " " + data


def cells_of(html: str) -> list[dict]:
    parser = _Cells()
    parser.feed(html)
    for cell in parser.cells:
        cell["text"] = " ".join(cell["text"].split())
    return parser.cells


def text_of(html: str) -> str:
    """The page's words, as a reader sees them (tags gone, spaces folded)."""
    words = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([.,:;])", r"\1", words)


def page(client, query: str = "", status: int = 200) -> str:
    response = client.get(URL + query)
    assert response.status_code == status, response.content.decode()[:500]
    return response.content.decode()


# -- every free cell, in words ----------------------------------------------------------


def _losing_replies(position: str, cell: int) -> int:
    """The opponent's replies after ``cell`` that lose, by the independent referee."""
    after = reference.play(position, cell)
    return sum(1 for score in reference.move_values(after).values() if score < 0)


def test_the_empty_board_shows_every_cell_drawn_and_tells_them_apart_by_their_traps(client):
    html = page(client)
    cells = cells_of(html)
    traps = [_losing_replies("." * 9, cell) for cell in range(9)]
    assert traps == [7, 4, 7, 4, 4, 4, 7, 4, 7]
    assert [cell["text"] for cell in cells] == [f"draw {count} traps" for count in traps]
    assert cells[0]["aria-label"] == "Row 1, column 1: draw, leaves O 7 ways to lose"
    assert cells[4]["aria-label"] == "Row 2, column 2: draw, leaves O 4 ways to lose"
    assert cells[0]["href"] == "/analysis/?moves=0"
    words = text_of(html)
    assert "X to move" in words
    assert "With perfect play from both sides: draw." in words
    assert (
        "Every move has the same result here, so each cell also counts its traps: how many of O's replies "
        "would then lose. The more traps, the more ways O has to go wrong."
    ) in words


def test_where_the_outcomes_differ_no_cell_shows_traps(client):
    html = page(client, "?board=XX.OO....")
    assert all("traps" not in cell["text"] for cell in cells_of(html))
    assert "counts its traps" not in text_of(html)


def test_the_empty_5x5_board_shows_each_cell_s_traps_as_an_analysis_of_every_reply_has_them(client):
    html = page(client, "?board=" + "." * 25)
    board = engine.Board.empty(5)
    shown = {int(cell["data-index"]): cell["text"] for cell in cells_of(html) if cell["tag"] == "a"}
    for cell in (0, 6, 12):  # a corner, the diagonal beside it, the centre
        replies = engine.analyse(board.play(cell))
        losing = sum(1 for e in replies.values() if e.outcome == "loss")
        assert shown[cell] == f"draw {losing} trap{'s' if losing != 1 else ''}"


def test_a_win_in_one_is_the_best_cell_and_every_cell_says_who_wins_as_the_referee_has_it(client):
    position = "XX.OO...."
    cells = cells_of(page(client, f"?board={position}"))
    free = {int(cell["data-index"]): cell for cell in cells if cell["tag"] == "a"}
    assert sorted(free) == [2, 5, 6, 7, 8]
    assert free[2]["aria-label"] == "Row 1, column 3: X wins in 1, a best move"
    assert free[2]["text"] == "X wins in 1"
    assert "analysis-cell--best" in free[2]["class"]
    for index, cell in free.items():
        assert cell["aria-label"].split(": ", 1)[1].removesuffix(", a best move") == referee_words(position, index)
        assert cell["text"] == referee_words(position, index)
    assert [cell["aria-label"] for cell in cells if cell["tag"] == "span"][:2] == [
        "Row 1, column 1, X",
        "Row 1, column 2, X",
    ]


def test_the_legend_says_what_the_colours_mean_in_words(client):
    words = text_of(page(client, "?board=XX.OO...."))
    assert "X (to move) wins draw O wins a best move" in words
    assert "“X wins in 3” means within 3 moves, this one included, whatever the other side does" in words


@pytest.mark.parametrize("position", ["X....O..........", "XO..OX..X..O...."])
def test_on_4x4_every_cell_is_exact(client, position):
    board = engine.Board.from_string(position)
    analysis = engine.analyse(board, traps=True)
    cells = [cell for cell in cells_of(page(client, f"?board={position}")) if cell["tag"] == "a"]
    assert analysis.exact and len(cells) == len(analysis) == 16 - board.ply
    every_draw = {e.outcome for e in analysis.values()} == {"draw"}
    for cell in cells:
        index = int(cell["data-index"])
        evaluation = analysis[index]
        winner = {"win": board.to_move, "loss": engine.other_side(board.to_move)}.get(evaluation.outcome)
        expected = f"{winner} wins in {evaluation.plies}" if winner else "draw"
        if every_draw and any(analysis.traps.values()):
            # Every cell draws: each also says how many of the opponent's replies would lose.
            losing = sum(1 for e in engine.analyse(board.play(index)).values() if e.outcome == "loss")
            expected += f" {losing} trap{'s' if losing != 1 else ''}"
        assert cell["text"] == expected


@pytest.mark.parametrize("position", LATE_5X5)
def test_on_5x5_every_cell_is_the_referees(client, position):
    cells = [cell for cell in cells_of(page(client, f"?board={position}")) if cell["tag"] == "a"]
    assert {int(cell["data-index"]): cell["text"] for cell in cells} == {
        cell: referee_words(position, cell) for cell in reference.move_values(position)
    }


def test_a_cell_not_solved_in_time_says_so_and_is_never_a_guess(client, monkeypatch):
    from games.search import analysis, registry

    monkeypatch.setattr(engine, "DEFAULT_BUDGET", 0.0)  # no time at all (an overloaded machine)
    # As a fresh server process: nothing an earlier test searched is remembered.
    monkeypatch.setattr(registry, "_SOLVERS", {})
    analysis.forget()
    html = page(client, "?board=X.O.X.O.X.O..............")  # past the tablebase: a search
    texts = {cell["text"] for cell in cells_of(html) if cell["tag"] == "a"}
    assert "not solved in time" in texts
    assert texts <= {"not solved in time", "draw"} | {f"{side} wins in {n}" for side in "XO" for n in range(1, 24)}
    words = text_of(html)
    assert "With perfect play from both sides: not solved in time." in words
    assert "the engine ran out of its time on them and does not guess" in words
    assert "The engine could not prove even the first move in its time, and it does not guess." in words
    assert "a best move" not in html  # the best of the cells solved might not be the best


# -- the line of best play ------------------------------------------------------------------


def test_the_line_of_best_play_is_listed_move_by_move_and_each_move_steps_into_it(client):
    html = page(client, "?moves=4,0")
    line = engine.principal_variation(engine.Board.from_string("O...X...."))
    words = text_of(html)
    assert "Perfect play from both sides, move by move: a draw." in words
    first = line.cells[0]
    assert f"3. X row {first // 3 + 1}, column {first % 3 + 1}" in words
    steps = re.findall(
        r'<a href="(/analysis/\?moves=4,0,[0-9,]+(?:&amp;ply=\d+)?)">\s*<span class="movelist__number">', html
    )
    every = ",".join(map(str, line.cells))
    assert steps[0] == f"/analysis/?moves=4,0,{every}&amp;ply=3"
    assert steps[-1] == f"/analysis/?moves=4,0,{every}"


def test_a_line_cut_short_lists_the_moves_proven_and_says_where_it_stopped(client, monkeypatch):
    monkeypatch.setattr(engine, "principal_variation", lambda board, budget=None: engine.Line((12, 6), False))
    monkeypatch.setattr(engine, "DEFAULT_BUDGET", 0.0)  # and the cells not solved either: no waiting
    html = page(client, "?board=XO.......................")
    words = text_of(html)
    assert "The moves the engine proved before its time ran out; it does not guess the rest." in words
    assert "3. X row 3, column 3 4. O row 2, column 2" in words


def test_a_won_line_says_who_wins_and_when(client):
    words = text_of(page(client, "?board=XX.OO...."))
    assert "Perfect play from both sides, move by move: X wins in 1." in words


# -- stepping and sharing -----------------------------------------------------------------


def test_the_arrows_step_back_and_forward_along_the_moves(client):
    html = page(client, "?moves=4,0,8&ply=2")
    steps = {step: url for url, step in re.findall(r'href="([^"]+)" data-step="(\w+)"', html)}
    assert steps == {
        "first": "/analysis/?moves=4,0,8&amp;ply=0",
        "prev": "/analysis/?moves=4,0,8&amp;ply=1",
        "next": "/analysis/?moves=4,0,8",
        "last": "/analysis/?moves=4,0,8",
    }
    words = text_of(html)
    assert "2 / 3" in words
    assert re.search(r'class="movelist__item analysis-move--ahead">\s*<a href="/analysis/\?moves=4,0,8"', html)


def test_at_the_start_and_at_the_end_the_arrows_are_disabled(client):
    html = page(client, "?board=X...O....")
    disabled = re.findall(r'data-step="(\w+)" aria-label="[^"]+" aria-disabled="true"', html)
    assert disabled == ["first", "prev", "next", "last"]


def test_the_link_to_share_is_the_address_of_the_position_shown(client):
    html = page(client, "?board=................&moves=5,0&ply=1")
    assert 'value="http://testserver/analysis/?board=................&amp;moves=5,0&amp;ply=1"' in html
    assert 'name="board" value=".....X.........."' in html  # the position shown, ready to edit


def test_a_finished_game_shows_its_result_and_no_cell_to_play(client):
    html = page(client, "?moves=0,3,1,4,2")
    assert "X won: the game is over" in text_of(html)
    cells = cells_of(html)
    assert [cell["tag"] for cell in cells] == ["span"] * 9
    assert cells[2]["aria-label"] == "Row 1, column 3, X, the last move, in the winning line"


# -- bad links: a message on the page, never an error page ------------------------------------------


@pytest.mark.parametrize(
    "query, message, shown",
    [
        ("?board=XXX......", 'This position cannot be analysed: "XXX......" has X 3 marks ahead of O', "........."),
        ("?moves=4,4", 'cell 4 is occupied in "....X....". The move before it is shown.', "....X...."),
        ("?moves=4,0&ply=9", "This line has no position at ply 9: it has plies 0 to 2. Showing ply 2.", "O...X...."),
        ("?board=<script>", "This position cannot be analysed", "........."),
    ],
)
def test_a_bad_link_gets_a_clear_message_and_what_could_be_shown(client, query, message, shown):
    html = page(client, query, status=400)
    alert = re.search(r'<div class="analysis__problems" role="alert">(.*?)</div>', html, re.S).group(1)
    assert message in html_lib.unescape(alert)
    assert "".join(cell["text"] if cell["tag"] == "span" and cell["text"] else "." for cell in cells_of(html)) == shown
    assert "<script>" not in html.split("<main", 1)[1].split("</main>")[0]  # escaped, never run


def test_a_bad_position_stays_in_the_box_with_its_reason_to_put_right(client):
    html = page(client, "?board=XOO.O....", status=400)
    assert 'value="XOO.O...."' in html and 'aria-invalid="true"' in html
    assert (
        '<ul class="errorlist" id="position-error"><li>This position cannot be analysed: "XOO.O...." has more O than X'
        in html_lib.unescape(html)
    )


def test_the_page_takes_no_post(client):
    assert client.post(URL, {"board": "X...O...."}).status_code == 405


def test_no_inline_script_or_style(client):
    for query in ("", "?moves=4,0&ply=1", "?board=XXX......", "?moves=0,3,1,4,2", "?board=" + "." * 25):
        _assert_no_inline(client, URL + query, status=400 if "XXX" in query else 200)


# -- "Analyse this position" from a game -------------------------------------------------


def test_a_finished_game_and_each_replayed_ply_link_to_the_analysis_board(client, user, bob):
    game = human_game(user, bob)  # X wins along the top row: 0, 3, 1, 4, 2
    html = client.get(game.get_absolute_url()).content.decode()
    assert (
        '<a class="button button--ghost button--small" href="/analysis/?moves=0,3,1,4,2">Analyse this position</a>'
        in html
    )
    html = client.get(game.get_absolute_url() + "?ply=2").content.decode()
    assert 'href="/analysis/?moves=0,3,1,4,2&amp;ply=2">Analyse this position</a>' in html
    marks = [
        cell["text"] if cell["tag"] == "span" else "." for cell in cells_of(page(client, "?moves=0,3,1,4,2&ply=2"))
    ]
    assert "".join(marks) == "X..O....."  # the position after move 2, as the replay showed it


def test_a_4x4_game_against_the_ai_links_with_its_empty_board(client_logged_in, user):
    game = ai_game(user, variant="4x4", first=5, resign=True)
    html = client_logged_in.get(game.get_absolute_url()).content.decode()
    cells = ",".join(map(str, game.cells))
    assert f'href="/analysis/?board=................&amp;moves={cells}">Analyse this position</a>' in html


def test_a_game_between_people_in_progress_offers_no_analysis(client_logged_in, user, bob):
    game = human_game(user, bob, cells=[4])
    assert "Analyse this position" not in client_logged_in.get(game.get_absolute_url()).content.decode()


def test_the_search_card_links_to_this_positions_tree_and_the_tree_draws_it(client):
    html = page(client, "?board=X...O....")
    link = re.search(r'<a href="([^"]+)" id="tree-link">See this position\'s search step by step</a>', html)
    assert link, "no link to the tree explorer"
    tree = client.get(html_lib.unescape(link.group(1)))
    assert tree.status_code == 200
    assert 'value="X...O...."' in tree.content.decode()  # the explorer's position box holds it


def test_a_position_too_big_for_the_tree_says_why_and_links_to_the_depth_limited_search(client):
    html = page(client, "?board=" + "." * 16)
    assert 'id="tree-link"' not in html
    assert "The whole tree is not drawn here: this 4x4 position has 16 free cells" in text_of(html)
    assert "so play 7 more moves first" in text_of(html)
    # It links to the depth-limited search of the same position instead.
    link = re.search(r'<a href="([^"]+)" id="depth-link">', html)
    assert link, "no link to the depth-limited search"
    depth = client.get(html_lib.unescape(link.group(1)))
    assert depth.status_code == 200
    assert 'value="' + "." * 16 + '"' in depth.content.decode()


def test_a_finished_game_offers_no_tree(client):
    html = page(client, "?board=XXXOO....")
    assert 'id="tree-link"' not in html and 'id="tree-refused"' not in html


def test_where_every_cell_draws_and_no_reply_loses_the_board_says_none_is_better(client):
    # The empty 4x4 board: every move draws, and after each of them every reply of O's draws too.
    board = engine.Board.empty(4)
    assert all(
        e.outcome == "draw" for cell in (0, 1, 5) for e in engine.analyse(board.play(cell)).values()
    )  # a corner, an edge, a centre cell (the rest are their mirror images)
    html = page(client, "?board=" + "." * 16)
    assert all(cell["text"] == "draw" for cell in cells_of(html) if cell["tag"] == "a")
    assert "Every free cell leads to the same result here: none is better than another." in text_of(html)
