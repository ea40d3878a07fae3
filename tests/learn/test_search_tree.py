"""The recorded search (games/search/tree.py) against the independent referee:
the values a learner reads at each node, the counts beside them, the cuts and
their reasons, and the steps that show the values coming up the tree."""

import pytest

from games.engine import (
    TREE_NODES_LIMIT,
    TREE_ORDERS,
    Board,
    nodes_visited,
    search_tree,
)
from tests.engine import reference

#: Every reachable 3x3 position still in play, fewest free cells last.
IN_PLAY = [p for p in reference.reachable(3) if not reference.is_over(p)]
#: Positions small enough to draw whole: every one with at most 6 free cells.
SMALL = [p for p in IN_PLAY if p.count(".") <= 6]


def x_value(position: str, scoring: str = "depth", root: str | None = None) -> int:
    """The referee's value turned into the explorer's: X's side, a win d plies
    below the ``root`` (by default the position itself) worth 10 - d (or 1, fatalist)."""
    score = reference.value(position)  # the mover's, 100 - the ply the game ends
    mover = 1 if reference.to_move(position) == "X" else -1
    if score == 0:
        return 0
    ends_at = 100 - abs(score)
    ply = len(root or position) - (root or position).count(".")
    worth = 1 if scoring == "fatalist" else 10 - (ends_at - ply)
    return mover * worth if score > 0 else -mover * worth


def referee_tree_size(position: str) -> int:
    """Positions a plain minimax visits, the root included, walked by the referee's rules."""
    if reference.is_over(position):
        return 1
    return 1 + sum(referee_tree_size(reference.play(position, c)) for c, m in enumerate(position) if m == ".")


@pytest.mark.parametrize("scoring", ["depth", "fatalist"])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_the_value_at_the_root_is_the_referees_in_every_position(algorithm, scoring):
    for position in IN_PLAY[::3] if algorithm == "minimax" else IN_PLAY:
        tree = search_tree(Board.from_string(position), algorithm, scoring, depth=1)

        assert tree.value == x_value(position, scoring), position


def test_plain_minimax_on_the_empty_board_visits_the_whole_game_tree():
    assert nodes_visited(Board.empty(3), "minimax") == 549_946


def test_the_empty_boards_tree_is_drawn_two_moves_deep_and_says_what_it_left_out():
    tree = search_tree(Board.empty(3), "minimax")

    assert (tree.visited, tree.depth, tree.height, tree.capped) == (549_946, 2, 9, True)
    assert len(tree.nodes) == 1 + 9 + 72 <= TREE_NODES_LIMIT
    # What is not drawn is still counted: the undrawn positions hang below the frontier.
    assert len(tree.nodes) + sum(node.hidden for node in tree.nodes) == 549_946
    assert tree.value == 0


@pytest.mark.parametrize("position", ["X...O....", ".X.......", "XO..X.O..", "X.O.O.X.."])
def test_minimax_counts_what_the_referee_walks(position):
    assert nodes_visited(Board.from_string(position), "minimax") == referee_tree_size(position)


@pytest.mark.parametrize("order", TREE_ORDERS)
def test_alpha_beta_finds_the_same_value_visiting_fewer_nodes(order):
    for position in IN_PLAY[::5]:
        board = Board.from_string(position)
        plain, cut = nodes_visited(board, "minimax"), nodes_visited(board, "alphabeta", order=order)

        assert search_tree(board, "alphabeta", order=order, depth=1).value == x_value(position)
        assert cut <= plain, position
        if position.count(".") >= 5:
            assert cut < plain, position


def test_centre_first_cuts_more_than_cell_order_on_the_empty_board():
    empty = Board.empty(3)
    counts = {order: nodes_visited(empty, "alphabeta", order=order, seed=7) for order in TREE_ORDERS}

    assert counts["centre"] < counts["index"] < 549_946
    assert counts["random"] < 549_946
    # The same seed shuffles the same way: a count a learner can reproduce.
    assert nodes_visited(empty, "alphabeta", order="random", seed=7) == counts["random"]


def test_a_whole_tree_is_every_visit_in_order():
    board = Board.from_string("XO..X.O..")
    tree = search_tree(board, "minimax")

    assert not tree.capped and len(tree.nodes) == tree.visited == referee_tree_size(str(board))
    assert [node.visit for node in tree.nodes] == list(range(1, tree.visited + 1))
    for node in tree.nodes:
        if node.parent is not None:
            parent = tree.nodes[node.parent]
            assert parent.step < node.step and node.step in parent.children
            assert reference.play(parent.position, node.move) == node.position
        if node.result:
            assert node.result == {"X": "x_won", "O": "o_won", None: "draw"}[reference.winner(node.position)]
        else:
            assert node.value == x_value(node.position, root=tree.position)
            values = [tree.nodes[c].value for c in node.children]
            assert node.value == (max(values) if node.to_move == "X" else min(values))


@pytest.mark.parametrize("position", ["XO..X.O..", "X...O....", "..OX.O.XX", "X........", "XO.......", "X.O.O.X.."])
@pytest.mark.parametrize("order", TREE_ORDERS)
def test_each_alpha_beta_value_is_exact_or_the_bound_it_says(position, order):
    tree = search_tree(Board.from_string(position), "alphabeta", order=order, seed=3, depth=9)

    for node in tree.nodes:
        truth = x_value(node.position, root=position) if node.result is None else node.value
        if node.bound == "exact":
            assert node.value == truth, node
        elif node.bound == "at least":
            assert truth >= node.value >= node.beta_in, node
        else:
            assert truth <= node.value <= node.alpha_in, node


def test_a_cut_names_the_moves_left_out_and_why():
    tree = search_tree(Board.from_string("XO..X.O.."), "alphabeta")
    cuts = [node for node in tree.nodes if node.cut]

    assert cuts
    for node in cuts:
        moves = [c for c, m in enumerate(node.position) if m == "."]
        tried = [tree.nodes[c].move for c in node.children]
        assert tried + list(node.cut.moves) == moves  # cell order: the rest of the row
        assert node.cut.beta <= node.cut.alpha
        other = "O" if node.to_move == "X" else "X"
        assert node.cut.reason == f"β ≤ α: {other} already has a better move elsewhere"
    assert len(tree.nodes) == tree.visited < nodes_visited(Board.from_string("XO..X.O.."), "minimax")


def test_the_steps_show_values_coming_up_the_tree():
    tree = search_tree(Board.from_string("..OX.O.XX"), "alphabeta")
    root = tree.root

    first = tree.at_step(0)
    assert [(s.status, s.value) for s in first] == [("searching", None)]
    # Once the root's first move is answered, the root's best so far is that move's value.
    first_child = tree.nodes[root.children[0]]
    states = tree.at_step(first_child.last)
    assert states[0].status == "searching" and states[0].value == first_child.value
    assert states[first_child.step].status == "done"
    assert first_child in tree.finished_at(first_child.last)
    # At the last step every node is done and the root holds its value.
    last = tree.at_step(len(tree.nodes) - 1)
    assert all(s.status == "done" for s in last) and last[0].value == tree.value
    assert tree.finished_at(len(tree.nodes) - 1)[-1] == root


def test_a_finished_game_and_a_big_board_early_are_refused_with_the_reason():
    with pytest.raises(ValueError, match=r'the game is over in "XXXOO\.\.\.\.": there is nothing left to search'):
        search_tree(Board.from_string("XXXOO...."))
    with pytest.raises(ValueError, match="this 4x4 position has 14 free cells; the tree explorer takes at most 9"):
        search_tree(Board.from_moves([0, 5], size=4))


def test_the_last_plies_of_4x4_are_searched_exactly():
    board = Board.from_string("XOXO" "OXOX" "X..." "....")  # fmt: skip
    tree = search_tree(board, "alphabeta", order="centre")

    assert tree.value == x_value(str(board))
    assert nodes_visited(board, "minimax") == referee_tree_size(str(board))
