"""Traps: among moves with the same exact outcome, how many of the opponent's
replies would give up part of the opponent's outcome. Each count is checked
against exact outcomes found independently: the referee's minimax on 3x3, an
analysis of every reply on 4x4 and 5x5."""

import pickle
import random

import pytest

from games.engine import Analysis, Board, analyse, review
from games.search import review as review_module
from games.search.analysis import forget
from games.search.solver import Timeout

from . import reference

RANK = {"loss": 0, "draw": 1, "win": 2}


def _reference_outcome(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def _reference_traps(position: str, cell: int) -> int:
    """The opponent's replies after ``cell`` whose outcome, by the referee, is
    worse for the opponent than the best reply's."""
    after = reference.play(position, cell)
    if reference.is_over(after):
        return 0
    outcomes = [_reference_outcome(score) for score in reference.move_values(after).values()]
    best = max(outcomes, key=RANK.get)
    return sum(1 for outcome in outcomes if RANK[outcome] < RANK[best])


def _analysed_traps(board: Board, cell: int) -> int:
    """The same count from an analysis of the position after ``cell``."""
    after = board.play(cell)
    if after.is_game_over():
        return 0
    outcomes = [e.outcome for e in analyse(after).values()]
    best = max(outcomes, key=RANK.get)
    return sum(1 for outcome in outcomes if RANK[outcome] < RANK[best])


def test_on_the_empty_3x3_board_the_corner_leaves_o_the_most_ways_to_lose():
    found = analyse(Board.empty(), traps=True)
    assert {cell: found.traps[cell] for cell in (0, 4, 1)} == {0: 7, 4: 4, 1: 4}
    assert found.traps == {0: 7, 2: 7, 6: 7, 8: 7, 4: 4, 1: 4, 3: 4, 5: 4, 7: 4}
    # Every move draws: the outcomes stay exact and equal, the traps tell them apart.
    assert found.best_cells == list(range(9))
    assert found.best_trap_cells == [0, 2, 6, 8]


def test_every_3x3_trap_count_matches_the_referee(positions_3x3):
    for position in positions_3x3:
        if reference.is_over(position):
            continue
        found = analyse(Board.from_string(position), traps=True)
        best = max(found.values(), key=lambda e: e.score).outcome
        same_outcome = sorted(cell for cell, e in found.items() if e.outcome == best)
        assert sorted(found.traps) == same_outcome, position
        assert found.traps == {cell: _reference_traps(position, cell) for cell in same_outcome}, position


def test_a_winning_move_leaves_no_traps_and_a_lost_position_counts_the_replies_that_let_the_win_slip():
    # X to move wins at once in cell 2: nothing is left for O to give up.
    assert analyse(Board.from_string("XX.OO...."), traps=True).traps == {2: 0}
    # O to move has lost (X's fork is coming); O's traps are X's replies that do not win.
    position = "XO..X...."
    found = analyse(Board.from_string(position), traps=True)
    assert {e.outcome for e in found.values()} == {"loss"}
    assert found.traps == {cell: _reference_traps(position, cell) for cell in found}
    # Blocking loses slowest, and leaves X the most ways to let the win slip.
    assert found.best_cells == [8] and found.best_trap_cells == [8] and found.traps[8] == 3


def _random_board(size: int, marks: int, rng: random.Random) -> Board:
    while True:
        board = Board.empty(size)
        while board.ply < marks and not board.is_game_over():
            board = board.play(rng.choice(board.legal_moves))
        if not board.is_game_over():
            return board


@pytest.mark.parametrize(("size", "marks"), [(4, 4), (4, 8), (5, 0), (5, 5), (5, 9), (5, 13)])
def test_4x4_and_5x5_trap_counts_match_an_analysis_of_every_reply(size, marks):
    board = Board.empty(size) if marks == 0 else _random_board(size, marks, random.Random(size * 100 + marks))
    found = analyse(board, traps=True)
    assert found.exact and found.traps is not None, str(board)
    best = max(found.values(), key=lambda e: e.score).outcome
    assert sorted(found.traps) == sorted(cell for cell, e in found.items() if e.outcome == best)
    assert found.traps == {cell: _analysed_traps(board, cell) for cell in found.traps}, str(board)


def test_on_the_empty_5x5_board_the_hint_cells_leave_the_most_traps():
    found = analyse(Board.empty(5), traps=True)
    assert {e.outcome for e in found.values()} == {"draw"}
    most = max(found.traps.values())
    assert most > 0
    assert found.best_trap_cells == sorted(cell for cell, count in found.traps.items() if count == most)


def test_with_no_time_left_the_traps_are_left_out_and_the_outcomes_stand():
    board = _random_board(5, 8, random.Random(7))
    forget()
    solved = analyse(board)
    assert solved.exact
    # The exact analysis is remembered; the traps need searches past the tablebase, and no time is left.
    hurried = analyse(board, budget=0, traps=True)
    assert hurried.exact and hurried.traps is None
    assert dict(hurried) == dict(solved)
    # With time, the same question counts them.
    assert analyse(board, traps=True).traps is not None


def test_a_review_counts_the_traps_of_moves_that_kept_the_outcome_and_keeps_its_labels():
    moves = [1, 0, 4, 7, 8, 2, 5, 3, 6]
    reviewed = review(moves)
    board = Board.empty()
    for move in reviewed.moves:
        found = analyse(board, traps=True)
        assert move.label == "best"
        assert move.traps == found.traps[move.cell]
        assert move.most_traps == max(found.traps[cell] for cell in move.best_cells)
        assert move.most_traps_cell == min(c for c in move.best_cells if found.traps[c] == move.most_traps)
        board = board.play(move.cell)
    # The opening edge drew like every first move, but left O 4 ways to lose where a corner leaves 7.
    assert (reviewed.moves[0].traps, reviewed.moves[0].most_traps, reviewed.moves[0].most_traps_cell) == (4, 7, 0)


def test_a_review_has_no_traps_for_a_move_that_gave_up_its_outcome():
    reviewed = review([0, 4, 8, 2, 6, 3, 5, 7, 1])
    thrown = [move for move in reviewed.moves if move.label in ("mistake", "blunder")]
    assert thrown and all(move.traps is None and move.most_traps is None for move in thrown)


def test_traps_cross_to_and_from_an_engine_process_with_the_analysis():
    found = analyse(Board.empty(), traps=True)
    again = pickle.loads(pickle.dumps(found))
    assert again.traps == found.traps and dict(again) == dict(found) and again.exact
    # An analysis pickled before traps were counted comes back without them.
    older = Analysis(dict(found), found.stats, found.exact)
    assert pickle.loads(pickle.dumps(older)).traps is None


def test_a_5x5_review_counts_traps_as_an_analysis_of_each_position_has_them():
    rng = random.Random(11)
    board, moves = Board.empty(5), []
    while board.ply < 12 and not board.is_game_over():
        cell = rng.choice(board.legal_moves)
        moves.append(cell)
        board = board.play(cell)
    reviewed = review(moves, size=5)
    assert reviewed.exact and any(move.traps is not None for move in reviewed.moves)
    board = Board.empty(5)
    for move in reviewed.moves:
        if move.label in ("best", "inaccuracy"):
            found = analyse(board, traps=True)
            assert move.traps == found.traps[move.cell], (str(board), move)
            assert move.most_traps == max(found.traps[cell] for cell in move.best_cells)
        else:
            assert move.traps is None
        board = board.play(move.cell)


def test_a_review_without_time_for_traps_keeps_every_label(monkeypatch):
    moves = [1, 0, 4, 7, 8, 2, 5, 3, 6]
    labelled = review(moves)

    def out_of_time(*args, **kwargs):
        raise Timeout

    monkeypatch.setattr(review_module, "count_traps", out_of_time)
    hurried = review(moves)
    assert [m.label for m in hurried.moves] == [m.label for m in labelled.moves] and hurried.exact
    assert all(m.traps is None and m.most_traps is None for m in hurried.moves)


def test_remembered_traps_cannot_be_changed_by_one_caller_for_the_next():
    found = analyse(Board.empty(), traps=True)
    with pytest.raises(TypeError):
        found.traps[0] = 0
    assert analyse(Board.empty(), traps=True).traps[0] == 7
