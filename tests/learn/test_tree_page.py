"""The tree explorer's pages as a learner reads them: the tree and its words,
the steps as links, the counts beside it, the cap, and a clear message for
anything in the address that cannot be searched."""

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import engine
from tests.engine import reference
from tests.web.test_security import INLINE

pytestmark = pytest.mark.django_db

TREE = reverse("games:tree")
DEFAULT = engine.fatalist_examples()[-1].position


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.parts = tag, dict(attrs), parent, [], []

    @property
    def raw_text(self) -> str:
        return "".join(p if isinstance(p, str) else p.raw_text for p in self.parts)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", self.raw_text).strip()

    def having(self, attr):
        """The elements below with an attribute, whatever its value."""
        for child in self.children:
            if attr in child.attrs:
                yield child
            yield from child.having(attr)

    def find_all(self, **attrs):
        for child in self.children:
            if all(child.attrs.get(k) == v for k, v in attrs.items()):
                yield child
            yield from child.find_all(**attrs)


class Page(HTMLParser):
    """A page's elements, enough to read the tree as a screen reader would."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self, html):
        super().__init__()
        self.root = self.at = Element("root", {}, None)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.at)
        self.at.children.append(element)
        self.at.parts.append(element)
        if tag not in self.VOID:
            self.at = element

    def handle_endtag(self, tag):
        at = self.at
        while at is not None and at.tag != tag:
            at = at.parent
        if at is not None:
            self.at = at.parent

    def handle_data(self, data):
        self.at.parts.append(data)

    def by_id(self, id_):
        return next(self.root.find_all(id=id_))

    def treeitems(self):
        return list(self.root.find_all(role="treeitem"))

    def label(self, item) -> str:
        return self.by_id(item.attrs["aria-labelledby"]).text


def page(client, **query):
    response = client.get(TREE, query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_explorer_opens_on_a_position_the_engine_chose_and_draws_its_whole_tree(client):
    html = page(client)
    tree = engine.search_tree(engine.Board.from_string(DEFAULT))
    parsed = Page(html)
    items = parsed.treeitems()

    assert len(items) == tree.visited == reference_tree_size(DEFAULT)
    assert parsed.label(items[0]).startswith("The position, O to move, value +6 X wins in 4 moves")
    assert "Plain minimax visits <strong>47</strong> positions." in html
    assert f"so O plays cell <strong>{tree.best_move}</strong>" in html
    assert f'href="{TREE}?board={DEFAULT}&amp;algorithm=alphabeta&amp;scoring=depth&amp;order=index&amp;seed=1"' in html
    assert "The same position with alpha-beta" in html
    # A tree widget: every node has its level, parents say whether they are open.
    for item, node in zip(items, tree.nodes, strict=True):
        assert item.attrs["aria-level"] == str(node.depth + 1)
        assert ("aria-expanded" in item.attrs) == bool(node.children)


def reference_tree_size(position):
    if reference.is_over(position):
        return 1
    return 1 + sum(reference_tree_size(reference.play(position, c)) for c, m in enumerate(position) if m == ".")


def test_each_nodes_value_is_the_referees_in_words(client):
    parsed = Page(page(client, board="XO..X.O.."))
    labels = [parsed.label(item) for item in parsed.treeitems()]

    # X to move can win at once in cell 8; the label says so, and that it is X's choice.
    first_moves = [parsed.label(item) for item in parsed.treeitems() if item.attrs["aria-level"] == "2"]
    win = next(label for label in first_moves if label.startswith("X plays cell 8,"))
    assert win == "X plays cell 8, value +9 X wins best"
    assert labels[0] == "The position, X to move, value +9 X wins in 1 move"


def test_alpha_beta_shows_the_window_and_the_cuts_with_their_reason(client):
    parsed = Page(page(client, board=DEFAULT, algorithm="alphabeta"))
    tree = engine.search_tree(engine.Board.from_string(DEFAULT), "alphabeta")
    cut_node = next(node for node in tree.nodes if node.cut)
    cut = parsed.by_id(f"cut-{cut_node.step}")

    assert cut.attrs["aria-disabled"] == "true"
    cells = ", ".join(map(str, cut_node.cut.moves))
    other = "O" if cut_node.to_move == "X" else "X"
    assert parsed.label(cut) == (
        f"Cell{'s' if len(cut_node.cut.moves) > 1 else ''} {cells}: not searched (cut). β ≤ α: {other} already has"
        f" a better move elsewhere (β {fmt(cut_node.cut.beta)} ≤ α {fmt(cut_node.cut.alpha)})."
    )
    # O, to move at the top, lowers β as its moves come back: from +∞ to what it settles for.
    assert parsed.label(parsed.treeitems()[0]).endswith("α −∞, β +∞ → +6")
    assert len([i for i in parsed.treeitems() if "cut" not in i.attrs["id"]]) == tree.visited


def fmt(value):
    return (
        "+∞"
        if value == float("inf")
        else "−∞"
        if value == float("-inf")
        else f"+{value}"
        if value > 0
        else f"−{-value}"
        if value < 0
        else "0"
    )


def test_step_one_draws_the_root_alone_and_next_is_a_link(client):
    html = page(client, board=DEFAULT, algorithm="alphabeta", step=1)
    parsed = Page(html)
    visits = engine.nodes_visited(engine.Board.from_string(DEFAULT), "alphabeta")

    assert f"<strong>Step 1 of {visits}</strong>" in html
    assert [parsed.label(item) for item in parsed.treeitems()] == [
        "The position, O to move, searching: no move back yet α −∞, β +∞ now"
    ]
    assert parsed.by_id("tree-explorer")
    story = next(parsed.root.having("data-step-story"))
    assert [p.text for p in story.children] == [
        "The search starts at the position, O to move.",
        "It opens with α −∞ and β +∞: nobody is sure of anything yet.",
    ]
    next_link = next(a for a in parsed.root.find_all(rel="next"))
    assert (
        next_link.attrs["href"] == f"{TREE}?board={DEFAULT}&algorithm=alphabeta&scoring=depth&order=index&seed=1&step=2"
    )


def test_the_last_step_tells_the_end_of_the_search(client):
    board = engine.Board.from_string(DEFAULT)
    tree = engine.search_tree(board, "alphabeta")
    parsed = Page(page(client, board=DEFAULT, algorithm="alphabeta", step=999))  # past the end: the last step
    story = next(parsed.root.having("data-step-story"))

    assert story.text.endswith(
        f"The search is over: the position is worth +6 (X wins in 4 moves); O plays cell {tree.best_move}."
    )
    assert len([i for i in parsed.treeitems() if "cut" not in i.attrs["id"]]) == tree.visited


def test_the_counts_beside_the_tree_are_the_engines(client):
    html = page(client, board="X........", order="random", seed=42)
    board = engine.Board.from_string("X........")

    assert (
        f"Plain minimax visits <strong>{engine.nodes_visited(board, 'minimax'):,}</strong>, whatever the order" in html
    )
    for order, name in [("index", "Cell order"), ("centre", "Centre first"), ("random", "Random (seed 42)")]:
        count = engine.nodes_visited(board, "alphabeta", order=order, seed=42)
        assert re.search(rf"{re.escape(name)}.*?</th>\s*<td>{count:,}</td>", html, re.S), name


@pytest.mark.parametrize("algorithm", engine.TREE_ALGORITHMS)
@pytest.mark.parametrize("order", engine.TREE_ORDERS)
def test_no_request_draws_more_than_the_cap(client, algorithm, order):
    html = page(client, board=".........", algorithm=algorithm, order=order, depth=9)

    assert 1 + 9 <= len(Page(html).treeitems()) <= engine.TREE_NODES_LIMIT + 50  # the cut items come on top
    assert "so that the page stays quick" in html


def test_the_empty_board_says_what_it_left_out(client):
    html = page(client, board=".........")

    assert "The whole tree is 9 moves deep; it is drawn 2 moves deep (82 nodes)" in html
    assert "Plain minimax visits <strong>549,946</strong> positions." in html
    # Below each node at the edge, what was searched but not drawn: X in cell 0, then O in cell 1.
    edge = engine.search_tree(engine.Board.empty(3)).nodes[2]
    assert (edge.depth, edge.position, edge.hidden) == (2, "XO.......", edge.visited - 1)
    assert f"{edge.hidden:,} more positions searched below, not drawn" in html
    assert edge.visited == reference_tree_size("XO.......")


@pytest.mark.parametrize(
    "board, message",
    [
        ("XXX", '"XXX" has 3 cells; a position has 9, 16 or 25 (3x3, 4x4 or 5x5)'),
        ("XXXOO....", 'the game is over in "XXXOO....": there is nothing left to search'),
        ("OO.......", '"OO......." has more O than X (2 to 0); X moves first'),
        ("XQ.......", "&quot;XQ.......&quot; has &#x27;Q&#x27;; cells are X, O or ."),
        ("X..............O", "this 4x4 position has 14 free cells; the tree explorer takes at most 9, so play 5 more moves first"),
        ("X" * 200, "A position has 9, 16 or 25 cells; this one has 200."),
    ],
)  # fmt: skip
def test_a_position_that_cannot_be_searched_is_explained_on_the_page(client, board, message):
    html = page(client, board=board)

    assert 'role="alert"' in html and message.replace('"', "&quot;") in html.replace("&amp;quot;", "&quot;")
    assert 'role="tree"' not in html
    assert 'aria-invalid="true"' in html


def test_a_position_in_lower_case_is_read(client):
    assert "The position: <span" in page(client, board="x...o....")


def test_a_choice_not_understood_is_reported_and_its_default_used(client):
    html = page(client, board=DEFAULT, algorithm="fastest", seed="many", step="0")

    assert "Select a valid choice. fastest is not one of the available choices." in html
    assert "Enter a whole number." in html
    assert "Ensure this value is greater than or equal to 1." in html
    assert "Plain minimax visits <strong>47</strong>" in html


def test_the_pages_take_no_post_and_need_nothing_inline(client):
    assert client.post(TREE).status_code == 405
    for url in [TREE, f"{TREE}?algorithm=alphabeta&step=5", reverse("games:tree_scoring")]:
        html = client.get(url).content.decode()
        for pattern, what in INLINE:
            assert pattern.search(html) is None, f"{url} has {what}"


def test_the_scoring_page_puts_both_choices_side_by_side(client):
    html = client.get(reverse("games:tree_scoring")).content.decode()
    slower, sooner = engine.fatalist_examples()

    assert "A slower win" in html and "A block given up" in html
    assert f"Plays <strong>cell {slower.fatalist.cell}</strong>" in html
    assert f"Then, with best play: <strong>X wins in {slower.fatalist.plies} moves</strong>" in html
    assert f"Plays <strong>cell {slower.depth_aware.cell}</strong>" in html
    assert "Then, with best play: <strong>X wins at once</strong>" in html
    assert f"Plays <strong>cell {sooner.depth_aware.cell}</strong>" in html
    assert (
        f"{TREE}?board={sooner.position.replace('.', '.')}&amp;algorithm=minimax&amp;order=index&amp;scoring=fatalist"
        in html
    )


def late_position(size: int, free: int, seed: int = 0) -> str:
    """A position from random play on a big board with ``free`` cells left and the game still on."""
    rng = random.Random(seed)
    while True:
        board = engine.Board.empty(size)
        while len(board.legal_moves) > free and not board.is_game_over():
            board = board.play(rng.choice(board.legal_moves))
        if not board.is_game_over():
            return str(board)


@pytest.mark.parametrize("size", [4, 5])
def test_the_last_plies_of_the_big_boards_are_explored(client, size):
    position = late_position(size, free=8)
    parsed = Page(page(client, board=position, algorithm="alphabeta", order="centre"))
    tree = engine.search_tree(engine.Board.from_string(position), "alphabeta", order="centre")
    mover = 1 if reference.to_move(position) == "X" else -1
    score = reference.value(position)

    assert len([i for i in parsed.treeitems() if "cut" not in i.attrs["id"]]) == len(tree.nodes)
    assert (tree.value > 0) - (tree.value < 0) == mover * ((score > 0) - (score < 0))
    assert f"cell {tree.best_move}" in parsed.root.text
