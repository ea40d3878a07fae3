"""The fatalist's examples (games/search/fatalist.py) really show the
difference, checked with the independent referee: the ±1 minimax takes a
slower win or gives up a block, the depth-aware one does not, and no smaller
position would have shown it."""

from games.engine import Board, fatalist_examples, search_tree
from tests.engine import reference


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def referee_choices(position: str) -> tuple[int, int]:
    """(the fatalist's cell, the depth-aware cell): each the first cell, in
    cell order, with the best score it can see."""
    scores = reference.move_values(position)
    top = max(scores.values())
    fatalist = min(cell for cell, score in scores.items() if sign(score) == sign(top))
    depth_aware = min(cell for cell, score in scores.items() if score == top)
    return fatalist, depth_aware


def shows_a_difference(position: str) -> str | None:
    """ "slower win" or "sooner loss" when the two choices end the game at different times."""
    fatalist, depth_aware = referee_choices(position)
    (outcome, slow), (_, fast) = (
        reference.describe(reference.move_values(position)[c], position) for c in (fatalist, depth_aware)
    )
    if slow == fast or outcome == "draw":
        return None
    return "slower win" if outcome == "win" else "sooner loss"


def test_there_is_one_example_of_each_kind():
    assert [example.kind for example in fatalist_examples()] == ["slower win", "sooner loss"]


def test_each_example_shows_the_difference_the_referee_sees():
    for example in fatalist_examples():
        position = example.position
        fatalist, depth_aware = referee_choices(position)
        assert (example.fatalist.cell, example.depth_aware.cell) == (fatalist, depth_aware)
        assert shows_a_difference(position) == example.kind
        outcome, plies = reference.describe(reference.move_values(position)[fatalist], position)
        assert example.fatalist.plies == plies
        outcome, plies = reference.describe(reference.move_values(position)[depth_aware], position)
        assert example.depth_aware.plies == plies
        if example.kind == "slower win":
            assert outcome == "win" and example.fatalist.plies > example.depth_aware.plies
        else:
            assert outcome == "loss" and example.fatalist.plies < example.depth_aware.plies


def test_the_tree_explorer_picks_the_same_moves():
    for example in fatalist_examples():
        board = Board.from_string(example.position)

        assert search_tree(board, "minimax", "fatalist").best_move == example.fatalist.cell
        assert search_tree(board, "minimax", "depth").best_move == example.depth_aware.cell
        assert search_tree(board, "alphabeta", "depth").best_move == example.depth_aware.cell


def test_the_sooner_loss_is_a_block_given_up():
    example = fatalist_examples()[1]
    mover = reference.to_move(example.position)
    after_fatalist = reference.play(example.position, example.fatalist.cell)

    # The fatalist leaves the cell open; the opponent takes it and wins at once.
    assert example.fatalist.plies == 2
    assert reference.winner(reference.play(after_fatalist, example.depth_aware.cell)) not in (None, mover)


def test_no_smaller_position_shows_it():
    in_play = [p for p in reference.reachable(3) if not reference.is_over(p)]
    for example in fatalist_examples():
        free = example.position.count(".")
        smaller = [p for p in in_play if p.count(".") < free or (p.count(".") == free and p < example.position)]

        assert [p for p in smaller if shows_a_difference(p) == example.kind] == []
