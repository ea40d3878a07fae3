"""/learn/tree/depth/: the depth-limited search of a 4x4 or 5x5 position,
with its evaluation function written out and the exact answer beside it."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from games import engine
from games.learn.tree_form import DepthLimitedForm
from games.learn.tree_layout import signed

pytestmark = pytest.mark.django_db

URL = reverse("games:tree_depth")


def text_of(html: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rows_of(html: str) -> list[tuple[str, str, str]]:
    body = html[html.index('id="depth-moves"') :]
    body = body[: body.index("</table>")]
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>\s*<td>(.*?)</td>\s*<td>(.*?)</td>", body, re.S)
    return [tuple(text_of(cell) for cell in row) for row in rows]


def test_the_page_states_its_evaluation_function_and_says_where_it_is_wrong(client):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    words = text_of(html)
    assert text_of(engine.EVALUATION_WORDS) in words
    assert text_of(engine.EVALUATION_FORMULA) in words
    # The opening position: two moves deep the evaluation picks a move that
    # loses; the exact analysis says which moves draw.
    board = engine.Board.from_string(DepthLimitedForm.DEFAULT_POSITION)
    search = engine.horizon_tree(board, 2)
    exact = engine.analyse(board)
    assert search.best_move not in exact.best_cells
    assert f"Here the heuristic is wrong: it picks cell {search.best_move}" in words
    assert f"after cell {exact.best_cells[0]}, the game is a draw" in words


def test_every_move_shows_its_depth_limited_value_beside_its_exact_outcome(client):
    position = "....................XO..X"
    html = client.get(URL, {"board": position, "depth": 3, "algorithm": "minimax"}).content.decode()
    board = engine.Board.from_string(position)
    exact = engine.analyse(board)
    search = engine.horizon_tree(board, 3, "minimax")
    rows = rows_of(html)
    assert sorted(int(cell.split()[0]) for cell, _value, _exact in rows) == sorted(board.legal_moves)
    for cell, value, outcome in rows:
        move = int(cell.split()[0])
        child = next(search.nodes[s] for s in search.root.children if search.nodes[s].move == move)
        assert value == signed(child.value)  # plain minimax: every value exact, no bound
        assert ("picked" in cell) == (move == search.best_move)
        assert ("best" in outcome) == (move in exact.best_cells)
        assert outcome.startswith("draw") == (exact[move].outcome == "draw")


def test_the_deepest_boxes_are_marked_as_evaluated_and_open_with_a_link(client):
    html = client.get(URL, {"board": "." * 16, "depth": 2, "algorithm": "minimax"}).content.decode()
    assert "evaluated" not in html[html.index('id="tree-drawing"') :].split("</svg>")[0]  # folded at first
    fold_link = re.search(r'<a href="([^"]+)" aria-label="Open the', html)
    assert fold_link
    opened = client.get(html_lib.unescape(fold_link.group(1))).content.decode()
    assert "evaluated" in opened.split('id="tree-drawing"')[1].split("</svg>")[0]


@pytest.mark.parametrize(
    "query, message",
    [
        ({"board": "." * 9}, "The depth limit is for 4×4 and 5×5 positions, of 16 or 25 cells; this one has 9."),
        ({"depth": "9"}, "The depth is 1 to 4 moves; 9 is not one of them."),
        ({"depth": "two"}, "The depth is 1 to 4 moves; two is not one of them."),
        ({"board": "XXXXOOO........."}, "The game is over in this position: there is nothing left to search."),
        ({"board": "XXXXXXXXXXXXXXXX"}, "This position cannot be searched"),
    ],
)
def test_a_bad_choice_is_refused_with_the_reason(client, query, message):
    response = client.get(URL, query)
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text_of(html)
    assert 'id="depth-moves"' not in html


def test_empty_choices_take_their_defaults(client):
    response = client.get(URL, {"board": "", "depth": "", "algorithm": ""})
    assert response.status_code == 200
    assert "Searched 2 moves deep" in text_of(response.content.decode())


def test_a_bad_fold_is_said_and_every_node_drawn_open(client):
    response = client.get(URL, {"board": "." * 16, "depth": 1, "fold": "one,two"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "The folded nodes are node numbers separated by commas; every node is drawn open." in text_of(html)
    assert html.count('class="tree-drawing__node"') == 17  # the root and its 16 moves
