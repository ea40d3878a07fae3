"""What the engine explains: per-cell evaluations, search statistics, reviews."""

import pytest

from games import engine
from games.engine import Board, analyse, best_move, opening_move, review
from games.search import counts


def test_every_first_move_on_3x3_draws_in_nine_plies():
    analysis = analyse(Board.empty())
    assert sorted(analysis) == list(range(9))
    assert all((e.outcome, e.plies, e.exact) == ("draw", 9, True) for e in analysis.values())
    assert str(analysis[4]) == "draw"


def test_a_win_a_draw_and_losses_are_told_apart_with_their_distances():
    analysis = analyse(Board.from_string("XX.OO...."))
    assert str(analysis[2]) == "win in 1"
    assert analysis[5].outcome == "draw"
    assert {str(analysis[c]) for c in (6, 7, 8)} == {"loss in 2"}
    assert analysis.best_cells == [2]


def test_statistics_show_what_pruning_and_memory_save():
    stats = analyse(Board.empty()).stats
    # A plain minimax (the classroom one) visits the whole tree: 549,946 nodes.
    assert (stats.minimax_nodes, stats.minimax_nodes_exact) == (549946, True)
    # A textbook alpha-beta, no memory and cells in index order, prunes most of it.
    assert stats.textbook_nodes_exact
    assert 1000 < stats.textbook_nodes < stats.minimax_nodes / 10
    # The engine's own search, with memory, visits fewer still.
    assert 0 < stats.nodes < stats.textbook_nodes
    assert stats.seconds > 0


def test_a_textbook_count_that_would_run_too_long_is_a_lower_bound():
    stats = analyse(Board.from_string("X" + "." * 15)).stats
    assert stats.textbook_nodes == engine.TEXTBOOK_COUNT_LIMIT and not stats.textbook_nodes_exact
    # The whole tree holds at least what the textbook alpha-beta walked of it.
    assert not stats.minimax_nodes_exact and stats.minimax_nodes >= stats.textbook_nodes


def test_a_minimax_count_too_large_to_make_is_a_lower_bound_not_an_estimate():
    # 11 free cells: one more than the engine counts exactly, few enough for the test to.
    board = Board.from_string("XOXOXOXOX......OX...O.X..")
    counted, exact = counts.minimax_nodes(board)
    assert not exact
    me, opp = board._mover_masks()
    true_size = counts._game_tree_size(board._geo, me, opp, {})
    assert 0 < counted <= true_size


def test_4x4_analysis_is_exact():
    analysis = analyse(Board.from_string("XXX.OOO........."))
    assert analysis.exact
    assert str(analysis[3]) == "win in 1"
    assert analysis.stats.nodes >= 1


def test_5x5_analysis_is_exact_with_the_block_and_the_losses_told_apart():
    forced = analyse(Board.from_string("XXX......OO.............."))
    assert forced.exact
    assert {str(forced[c]) for c in forced if c != 3} == {"loss in 2"}
    # Blocking is the one cell that does not lose at once: the only best cell.
    assert str(forced[3]) != "loss in 2" and forced[3].exact
    assert forced.best_cells == [3]


def test_5x5_cells_not_solved_within_the_budget_say_so_in_words():
    # Six marks: every move leads past the tablebase, so the search has to
    # start, and it has no time at all (an overloaded machine).
    board = Board.from_string("X.O.X.O.X.O..............")
    analysis = analyse(board, budget=0)
    assert not analysis.exact
    unsolved = [e for e in analysis.values() if e.outcome == "unsolved"]
    assert unsolved and all(str(e) == "not solved in time" and e.plies is None for e in unsolved)
    assert all(cell not in analysis.best_cells for cell, e in analysis.items() if not e.exact)


def test_a_finished_game_has_nothing_to_analyse():
    analysis = analyse(Board.from_string("XXXOO...."))
    assert dict(analysis) == {}


def test_review_labels_every_move_and_finds_the_decisive_one():
    # X centre, O on an edge (the losing reply), X forks and wins.
    moves = [4, 1, 0, 8, 6, 2, 3]
    result = review(moves)
    assert Board.from_moves(moves).winner == "X"
    labels = [m.label for m in result.moves]
    assert labels[0] == "best"
    assert labels[1] == "blunder"  # a draw thrown to a loss
    assert result.decisive_ply == 1
    assert [m.player for m in result.moves] == ["X", "O", "X", "O", "X", "O", "X"]
    assert result.counts()["blunder"] == 1 and set(result.counts()) == set(engine.LABELS)


def test_review_tells_inaccuracies_and_blunders_apart():
    # X could win at once on 2 but plays elsewhere and still wins later:
    # same outcome, slower -> inaccuracy. Later O can win at once but lets X win.
    board = Board.from_string("XX.OO....")
    analysis = analyse(board)
    assert analysis[2].outcome == "win" and analysis[2].plies == 1
    blunder = review([0, 3, 1, 4, 8, 5])  # O completes a line at 5
    assert blunder.moves[4].label == "blunder"  # X lets O win instead of winning on 2
    assert blunder.decisive_ply == 4


def test_review_of_a_perfect_draw_has_no_decisive_move():
    board = Board.empty()
    moves = []
    while not board.is_game_over():
        cell = best_move(board, seed=len(moves))
        moves.append(cell)
        board = board.play(cell)
    result = review(moves)
    assert all(m.label == "best" for m in result.moves)
    assert result.decisive_ply is None


def test_review_refuses_an_illegal_game():
    from games.engine import IllegalMoveError

    with pytest.raises(IllegalMoveError):
        review([4, 4])


@pytest.mark.parametrize("size", [3, 4, 5])
def test_centre_start_opens_in_the_middle(size):
    board = Board.empty(size)
    cell = opening_move(board, "centre", seed=1)
    row, col = divmod(cell, size)
    middle = (size - 1) / 2
    assert abs(row - middle) <= 0.5 and abs(col - middle) <= 0.5


def test_random_start_uses_the_whole_board_and_minimax_start_is_a_best_move():
    board = Board.empty()
    assert len({opening_move(board, "random", seed=s) for s in range(60)}) > 5
    assert opening_move(board, "minimax", seed=3) in analyse(board).best_cells
    with pytest.raises(ValueError, match="unknown start mode"):
        opening_move(board, "corner")
