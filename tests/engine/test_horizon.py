"""The depth-limited search: a tree that stops a few moves deep and scores the
positions there with the evaluation function, as a course's next lesson after
plain minimax draws it on 4x4 and 5x5."""

import random

import pytest

from games.rules import Board
from games.search import tree
from games.search.nodes import HORIZON_WIN_SCORE, horizon_outcome_of


def _lines(board: Board):
    """Every winning line as its cells, read off the board's own rules."""
    geo = board._geo
    return [[cell for cell in range(geo.cells) if line >> cell & 1] for line in geo.lines]


def _evaluation_by_hand(board: Board) -> int:
    """The evaluation as the page words it: each line open to one side only is
    worth 1, 3 or 9 to it by its one, two or three marks."""
    text, value = str(board), 0
    for line in _lines(board):
        marks = [text[cell] for cell in line]
        xs, os = marks.count("X"), marks.count("O")
        if xs and not os:
            value += 3 ** (xs - 1)
        elif os and not xs:
            value -= 3 ** (os - 1)
    return value


def _depth_limited_minimax(board: Board, depth: int, plies: int = 0) -> int:
    """The textbook's depth-limited minimax, written out plainly."""
    winner = board.winner
    if winner is not None:
        worth = HORIZON_WIN_SCORE - plies
        return worth if winner == "X" else -worth
    if board.is_draw():
        return 0
    if plies == depth:
        return _evaluation_by_hand(board)
    values = [_depth_limited_minimax(board.play(cell), depth, plies + 1) for cell in board.legal_moves]
    return max(values) if board.to_move == "X" else min(values)


def _random_position(size: int, marks: int, rng: random.Random) -> Board:
    while True:
        board = Board.empty(size)
        for _ in range(marks):
            board = board.play(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            return board


def test_the_evaluation_is_the_one_the_page_states():
    assert tree.evaluate(Board.from_string("." * 16)) == 0
    # X in the corner: its row, column and diagonal are open to it.
    assert tree.evaluate(Board.from_string("X" + "." * 15)) == 3
    # O beside it on the diagonal kills that line for both.
    assert tree.evaluate(Board.from_string("X....O" + "." * 10)) == 0
    # X's three in a free row is worth 9, plus its open columns and diagonals.
    assert tree.evaluate(Board.from_string("XXX.OO.." + "." * 8)) == _evaluation_by_hand(
        Board.from_string("XXX.OO.." + "." * 8)
    )
    rng = random.Random(7)
    for size in (4, 5):
        for marks in range(0, 9):
            board = _random_position(size, marks, rng)
            assert tree.evaluate(board) == _evaluation_by_hand(board), str(board)


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
@pytest.mark.parametrize("size, depth", [(4, 1), (4, 2), (4, 3), (5, 1), (5, 2)])
def test_the_root_value_is_the_textbooks_depth_limited_minimax(algorithm, size, depth):
    rng = random.Random(size * 10 + depth)
    for marks in (0, 3, 6):
        board = _random_position(size, marks, rng)
        found = tree.horizon_tree(board, depth, algorithm)
        assert found.value == _depth_limited_minimax(board, depth), str(board)
        assert found.horizon == depth


def test_alpha_beta_agrees_with_minimax_four_deep_and_visits_fewer():
    board = Board.from_string("....X.....O......X.....O.")
    minimax = tree.horizon_tree(board, 4, "minimax")
    alphabeta = tree.horizon_tree(board, 4, "alphabeta")
    assert alphabeta.value == minimax.value
    assert alphabeta.visited < minimax.visited


def test_positions_at_the_horizon_are_leaves_scored_by_the_evaluation():
    board = Board.from_string("." * 16)
    found = tree.horizon_tree(board, 2, "minimax")
    leaves = [node for node in found.nodes if node.depth == 2]
    assert len(leaves) == 16 * 15
    for node in leaves:
        assert not node.children and node.result is None
        assert node.value == tree.evaluate(Board.from_string(node.position))


def test_a_win_inside_the_horizon_outweighs_any_evaluation():
    # X to move completes the top row.
    board = Board.from_string("XXX.OOO.........")
    found = tree.horizon_tree(board, 3)
    assert found.best_move == 3
    assert horizon_outcome_of(found.value) == ("x_won", 1)
    assert horizon_outcome_of(tree.evaluate(board)) == (None, None)


@pytest.mark.parametrize(
    "position, depth, words",
    [
        ("." * 9, 2, "3x3 position is searched to the end"),
        ("." * 16, 0, "the depth is 1 to 4 moves, not 0"),
        ("." * 25, 5, "the depth is 1 to 4 moves, not 5"),
        ("XXXXOOO.........", 2, "the game is over"),
    ],
)
def test_what_it_does_not_search_is_refused_with_the_reason(position, depth, words):
    with pytest.raises(ValueError, match=words):
        tree.horizon_tree(Board.from_string(position), depth)
