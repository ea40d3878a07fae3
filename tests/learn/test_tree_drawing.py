"""The tree drawn as a tree (SVG, on the server): a box per node with its
board and value, cut branches with their reason, folding by links, and the
step story saying why each value, α and β changed."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from games import engine
from games.learn import tree as tree_page

pytestmark = pytest.mark.django_db

TREE = reverse("games:tree")
DEFAULT = engine.fatalist_examples()[-1].position
SVG = "{http://www.w3.org/2000/svg}"


def drawing(client, **query) -> ET.Element:
    response = client.get(TREE, query)
    assert response.status_code == 200
    html = response.content.decode()
    svg = re.search(r"<svg xmlns.*?</svg>", html, re.S).group(0)
    return ET.fromstring(svg)


def boxes(svg: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == f"tree-drawing__{kind}"]


def test_every_node_is_a_box_with_its_board_and_value_when_nothing_is_folded(client):
    search = engine.search_tree(engine.Board.from_string(DEFAULT))
    svg = drawing(client, board=DEFAULT, fold="")
    nodes = boxes(svg, "node")

    assert len(nodes) == len(search.nodes)
    root = next(g for g in nodes if g.get("id") == "tree-svg-node-0")
    assert root.find(f"{SVG}title").text == "The position, value +6"
    # The root's board: the position's marks, one text per mark.
    marks = [t.text for t in root.iter(f"{SVG}text") if t.text in ("X", "O")]
    assert sorted(marks) == sorted(m for m in DEFAULT if m != ".")


def test_alpha_beta_boxes_carry_the_window_and_the_cuts_their_reason(client):
    search = engine.search_tree(engine.Board.from_string(DEFAULT), "alphabeta")
    svg = drawing(client, board=DEFAULT, algorithm="alphabeta", fold="")
    cut_node = next(node for node in search.nodes if node.cut)
    cut = next(g for g in boxes(svg, "cut") if g.get("id") == f"tree-svg-cut-{cut_node.step}")
    texts = [t.text for t in cut.iter(f"{SVG}text")]

    assert f"β {tree_page.signed(cut_node.cut.beta)} ≤ α {tree_page.signed(cut_node.cut.alpha)}" in texts
    assert "already has a better move elsewhere" in cut.find(f"{SVG}title").text
    root_texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "α −∞  β +6" in root_texts


def test_a_fold_link_folds_a_node_and_the_next_opens_it_again(client):
    search = engine.search_tree(engine.Board.from_string(DEFAULT))
    first = search.nodes[1]
    svg = drawing(client, board=DEFAULT, fold="")
    link = next(
        a
        for a in svg.iter(f"{SVG}a")
        if a.get("aria-label") == f"Fold the moves below {first.mover} plays {first.move}"
    )
    query = dict(pair.split("=") for pair in link.get("href").split("?")[1].split("#")[0].split("&"))
    assert query["fold"] == "1"

    folded = drawing(client, board=DEFAULT, fold="1")
    below = sum(1 for node in search.nodes if node.step > 1 and node.step <= first.last)
    assert len(boxes(folded, "node")) == len(search.nodes) - below
    opening = next(a for a in folded.iter(f"{SVG}a") if a.get("aria-label", "").startswith("Open the"))
    assert opening.get("aria-label") == f"Open the {below} nodes below {first.mover} plays {first.move}"
    assert "fold=&" in opening.get("href") or opening.get("href").endswith("fold=#tree-drawing")


def test_each_fold_link_names_its_node_by_the_moves_that_lead_there(client):
    search = engine.search_tree(engine.Board.from_string(DEFAULT))
    svg = drawing(client, board=DEFAULT, fold="")
    labels = [a.get("aria-label") for a in svg.iter(f"{SVG}a")]
    deep = next(node for node in search.nodes if node.depth == 2 and node.children)
    first = search.nodes[deep.parent]

    assert len(labels) == len(set(labels)) == len([n for n in search.nodes if n.children])
    assert f"Fold the moves below {first.mover} plays {first.move}, {deep.mover} plays {deep.move}" in labels


def test_a_big_tree_opens_folded_to_a_screenful(client):
    svg = drawing(client, board=".........", order="centre")
    nodes = boxes(svg, "node")

    assert len(nodes) == 10  # the position and its nine moves, each folded
    assert sum(1 for a in svg.iter(f"{SVG}a") if a.get("aria-label", "").startswith("Open the")) == 9
    assert float(svg.get("width")) <= 400  # two columns: a phone scrolls down, not sideways


def test_folds_not_understood_are_reported_and_every_node_drawn(client):
    response = client.get(TREE, {"board": DEFAULT, "fold": "1;2"})
    html = response.content.decode()

    assert "The folded nodes are node numbers separated by commas; every node is drawn open." in html
    assert html.count('class="tree-drawing__node"') == len(engine.search_tree(engine.Board.from_string(DEFAULT)).nodes)


def test_each_step_says_why_alpha_beta_and_the_values_changed():
    search = engine.search_tree(engine.Board.from_string(DEFAULT), "alphabeta")
    risen = fallen = 0
    for step in range(1, len(search.nodes)):
        before = {s.step: s for s in search.at_step(step - 1)}
        story = " ".join(tree_page.step_sentences(search, step))
        for state in search.at_step(step):
            was = before.get(state.step)
            if was is None or state.step == step:
                continue
            if state.alpha != was.alpha:
                risen += 1
                assert (
                    f"α rises from {tree_page.signed(was.alpha)} to {tree_page.signed(state.alpha)}: "
                    f"X found a move worth {tree_page.signed(state.alpha)} here, better than anything before." in story
                )
            if state.beta != was.beta:
                fallen += 1
                assert f"β falls from {tree_page.signed(was.beta)} to {tree_page.signed(state.beta)}: O found" in story
    assert risen and fallen


def test_the_story_says_when_a_value_changes_nothing(client):
    search = engine.search_tree(engine.Board.from_string(DEFAULT))
    # The root's moves come back in turn; the first that is no better for O changes nothing.
    root = search.root
    values = [search.nodes[c].value for c in root.children]
    later = next(i for i in range(1, len(values)) if values[i] >= min(values[:i]))
    child = search.nodes[root.children[later]]
    story = tree_page.step_sentences(search, child.last)

    assert (
        f"It changes nothing at “the position”: O already has {tree_page.signed(min(values[:later]))}, and "
        in " ".join(story)
    )
