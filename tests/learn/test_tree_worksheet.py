"""The worksheet a teacher prints: the page's tree with every value box empty,
a folded node's value given, and the answer key with every value after it."""

import re
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from games import engine
from games.learn.tree_layout import signed

pytestmark = pytest.mark.django_db

WORKSHEET = reverse("games:tree_worksheet")
DEFAULT = engine.fatalist_examples()[-1].position
#: Positions small enough to print whole: X to move, X wins in 3 (no cut); X wins at once (cuts).
SMALL = "..OX.OOXX"
CUTS = "O.OX.O.XX"
SVG = "{http://www.w3.org/2000/svg}"


def drawings(html: str) -> dict[str, ET.Element]:
    """The page's SVG drawings by their id's prefix: "sheet" and "key"."""
    found = {}
    for svg in re.findall(r"<svg xmlns.*?</svg>", html, re.S):
        tree = ET.fromstring(svg)
        found[tree.find(f"{SVG}title").get("id").removesuffix("-title")] = tree
    return found


def nodes(svg: ET.Element) -> dict[str, ET.Element]:
    return {g.get("id").rsplit("-", 1)[1]: g for g in svg.iter(f"{SVG}g") if g.get("class") == "tree-drawing__node"}


def texts(group: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]


def test_the_sheet_leaves_every_value_to_fill_in_and_the_key_has_them_all(client):
    response = client.get(WORKSHEET, {"board": SMALL, "fold": ""})
    search = engine.search_tree(engine.Board.from_string(SMALL))
    assert response.status_code == 200
    html = response.content.decode()
    sheet, key = drawings(html)["sheet"], drawings(html)["key"]

    assert len(nodes(sheet)) == len(search.nodes) == 14
    for step, box in nodes(sheet).items():
        assert "value to fill in" in box.find(f"{SVG}title").text
        assert not any(re.match(r"^[+−]\d|^0$", text) for text in texts(box)), f"node {step} shows a value"
    # An empty box for each of them to write in, and nothing chosen on the sheet.
    assert len([r for r in sheet.iter(f"{SVG}rect") if r.get("width") == "50"]) == len(search.nodes)
    assert not [line for line in sheet.iter(f"{SVG}line") if line.get("stroke-width") == "3"]
    for node in search.nodes:
        assert any(text.startswith(signed(node.value)) for text in texts(nodes(key)[str(node.step)]))
    assert f"so X plays cell <strong>{search.best_move}</strong>" in html
    assert "Which cell should X play?" in html


def test_a_folded_node_is_given_on_the_sheet(client):
    search = engine.search_tree(engine.Board.from_string(SMALL))
    folded = search.nodes[1]
    response = client.get(WORKSHEET, {"board": SMALL, "fold": str(folded.step)})
    sheet = drawings(response.content.decode())["sheet"]

    given = nodes(sheet)[str(folded.step)]
    assert texts(given)[-1] == f"{signed(folded.value)} given"
    assert str(folded.children[0]) not in nodes(sheet)
    assert "A box marked “given” has its moves left out" in response.content.decode()


def test_alpha_beta_asks_why_each_cut_was_made(client):
    response = client.get(WORKSHEET, {"board": CUTS, "algorithm": "alphabeta", "fold": ""})
    html = response.content.decode()
    sheet, key = drawings(html)["sheet"], drawings(html)["key"]
    cuts = [g for g in sheet.iter(f"{SVG}g") if g.get("class") == "tree-drawing__cut"]

    assert cuts
    assert not any("≤ α" in text for cut in cuts for text in texts(cut))
    assert any("≤ α" in text for g in key.iter(f"{SVG}g") for text in texts(g))
    assert "Write beside it why they cannot change the choice" in html


def test_the_tree_page_links_to_its_worksheet_with_its_folds(client):
    response = client.get(reverse("games:tree"), {"board": DEFAULT, "algorithm": "alphabeta", "fold": "1"})
    link = re.search(r'href="([^"]*/learn/tree/worksheet/[^"]*)"', response.content.decode()).group(1)
    query = parse_qs(urlsplit(link.replace("&amp;", "&")).query)

    assert query["board"] == [DEFAULT] and query["algorithm"] == ["alphabeta"] and query["fold"] == ["1"]


def test_a_tree_too_tall_for_a_page_says_how_to_make_it_fit(client):
    response = client.get(WORKSHEET, {"board": ".........", "fold": ""})

    html = response.content.decode()
    assert response.status_code == 200
    assert "This tree is too tall for one printed page" in html
    assert "Fold some of its nodes on the tree page" in html
    assert not drawings(html)


def test_the_empty_board_prints_folded_as_the_page_first_shows_it(client):
    response = client.get(WORKSHEET, {"board": "........."})

    sheet = drawings(response.content.decode())["sheet"]
    assert len(nodes(sheet)) == 10  # the position and its nine moves, each given
    assert sum("given" in texts(box)[-1] for box in nodes(sheet).values()) == 9


def test_a_bad_position_is_refused_with_the_reason(client):
    response = client.get(WORKSHEET, {"board": "XXXOO...."})

    assert response.status_code == 400
    assert "the game is over" in response.content.decode()
