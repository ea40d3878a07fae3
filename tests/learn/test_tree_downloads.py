"""The tree's downloads: JSON with every node, a Graphviz digraph, and a
standalone SVG picture with the boards; a bad address gets the page's message."""

import json
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from games import engine

pytestmark = pytest.mark.django_db

DEFAULT = engine.fatalist_examples()[-1].position
SVG = "{http://www.w3.org/2000/svg}"


def download(client, kind, **query):
    return client.get(reverse("games:tree_download", args=[kind]), query)


def test_the_page_links_to_each_download_with_its_choices(client):
    html = client.get(reverse("games:tree"), {"board": DEFAULT, "algorithm": "alphabeta"}).content.decode()

    for kind in ("json", "dot", "svg"):
        url = reverse("games:tree_download", args=[kind])
        assert f'href="{url}?board={DEFAULT}&amp;algorithm=alphabeta&amp;scoring=depth' in html


def test_the_json_holds_every_node_as_the_engine_recorded_it(client):
    response = download(client, "json", board=DEFAULT, algorithm="alphabeta")
    search = engine.search_tree(engine.Board.from_string(DEFAULT), "alphabeta")

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="tree-{DEFAULT}-alphabeta.json"'
    tree = json.loads(response.content)
    assert tree["position"] == DEFAULT and tree["value"] == search.value == 6
    assert [n["position"] for n in tree["nodes"]] == [n.position for n in search.nodes]
    assert tree["nodes"][0]["alpha_in"] == "-inf" and tree["nodes"][0]["beta_out"] == 6
    cut = next(n for n in tree["nodes"] if n["cut"])
    assert "already has a better move elsewhere" in cut["cut"]["reason"]


def test_the_dot_is_a_digraph_with_a_node_per_position_and_the_cuts(client):
    response = download(client, "dot", board=DEFAULT, algorithm="alphabeta")
    search = engine.search_tree(engine.Board.from_string(DEFAULT), "alphabeta")
    text = response.content.decode()

    assert response["Content-Type"] == "text/vnd.graphviz; charset=utf-8"
    assert text.startswith("digraph search {")
    assert text.rstrip().endswith("}")
    assert sum(
        1 for line in text.splitlines() if line.startswith("  n") and "[label=" in line and "->" not in line
    ) == len(search.nodes)
    assert "style=dashed" in text and "≤ α" in text
    assert "\\n..O\\nX.O\\n.XX\\n" in text  # the root's board, row by row


def test_the_svg_is_a_standalone_picture_of_every_board(client):
    response = download(client, "svg", board=".........", order="centre")
    search = engine.search_tree(engine.Board.empty(3), order="centre")

    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    svg = ET.fromstring(response.content)
    assert svg.tag == f"{SVG}svg"
    nodes = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "tree-drawing__node"]
    assert len(nodes) == len(search.nodes) == 82  # nothing folded in a download
    # No links back to the page, nothing that needs the site's stylesheet.
    assert not list(svg.iter(f"{SVG}a"))
    marks = [t.text for t in nodes[-1].iter(f"{SVG}text") if t.text in ("X", "O")]
    assert sorted(marks) == ["O", "X"]


@pytest.mark.parametrize("kind", ["json", "dot", "svg"])
def test_a_position_that_cannot_be_searched_gets_a_400_page_with_the_reason(client, kind):
    response = download(client, kind, board="XXXOO....")

    assert response.status_code == 400
    assert "This position cannot be searched: the game is over" in response.content.decode()
    assert "Traceback" not in response.content.decode()


def test_an_unknown_download_is_not_found(client):
    response = client.get(reverse("games:tree_download", args=["pdf"]))

    assert response.status_code == 404
