"""Checking a learner's moves on a puzzle: each judged by the engine, the
replies the engine's best, and what the page says after each move."""

import pytest

from games.learn import solving
from tests.engine import reference

# X to play and win in 3: O threatens the top row, so X blocks on cell 2, and
# that block threatens cell 5 and cell 6 at once.
FORK = "OO..X...X"
# X to play and win in 5, three moves of X's: only cell 2 wins.
SLOW = ".X......O"


def test_the_winning_move_brings_the_best_reply_and_asks_for_the_next():
    attempt = solving.attempt(FORK, 3, [2])

    assert attempt.status == solving.SOLVING
    assert attempt.message == "That wins: O's best reply is cell 5. Your move."
    assert attempt.moves == [(2, "X", True), (5, "O", False)]
    assert str(attempt.board) == "OOX.XO..X"


def test_after_a_fork_the_reply_blocks_a_threat_rather_than_play_anywhere():
    # Every reply of O's loses as soon as any other; a block leaves X one
    # winning move to find instead of two: the longest resistance.
    attempt = solving.attempt(FORK, 3, [2])

    values = reference.move_values(reference.play(FORK, 2))
    assert len(set(values.values())) == 1
    assert attempt.steps[0].reply in (5, 6)
    assert attempt.steps[0].winning_cells == (2,)


def test_the_reply_is_the_slowest_loss_the_referee_finds():
    attempt = solving.attempt(SLOW, 5, [2])

    after = reference.play(SLOW, 2)
    values = reference.move_values(after)
    assert values[attempt.steps[0].reply] == max(values.values())  # no reply holds out longer
    assert attempt.steps[0].reply == 0


def test_the_winning_line_to_the_end_solves_it():
    attempt = solving.attempt(FORK, 3, [2, 6])

    assert attempt.status == solving.SOLVED
    assert [step.verdict for step in attempt.steps] == ["wins", "solved"]
    assert attempt.message == "That wins: three in a row. Solved!"
    assert attempt.board.winner == "X"


def test_either_cell_of_a_double_threat_solves_it():
    assert solving.attempt(FORK, 3, [2, 6]).status == solving.SOLVED


@pytest.mark.parametrize("cell", [3, 5, 6, 7])
def test_any_other_first_move_loses_and_is_told_the_only_winning_move(cell):
    attempt = solving.attempt(FORK, 3, [cell])

    assert attempt.status == solving.FAILED
    assert attempt.steps[0].verdict == "loses"
    assert attempt.message == "That loses: O wins next move. The only winning move was cell 2."
    assert str(attempt.board) == FORK  # the position the learner missed it in


def test_a_move_that_lets_the_opponent_draw_says_so():
    # Cell 4 in the 5-move puzzle draws, as the referee agrees.
    assert reference.describe(reference.move_values(SLOW)[4], SLOW)[0] == "draw"

    attempt = solving.attempt(SLOW, 5, [4])

    assert attempt.steps[0].verdict == "draws"
    assert attempt.message == "That lets O draw: the only winning move was cell 2."


def test_a_slower_win_misses_the_puzzle():
    """A stored puzzle's promise always holds; asked for a win in 3 where
    the fastest is in 5, the winning move is judged too slow."""
    attempt = solving.attempt(SLOW, 3, [2])

    assert attempt.status == solving.FAILED
    assert attempt.steps[0].verdict == "slower"
    assert (
        attempt.message
        == "That still wins, but in 5 moves, not 3: O holds out longer. No move wins that fast from here."
    )


@pytest.mark.parametrize(
    "played, message",
    [
        ([9], "9 is not a cell of the 3x3 board (0 to 8)"),
        ([0], 'cell 0 is taken in "OO..X...X"'),
        ([2, 5], 'cell 5 is taken in "OOX.XO..X"'),  # O's reply took it
        ([3, 2], "the puzzle was over after move 1; cell 2 cannot follow"),
        ([2, 6, 7], "the puzzle was over after move 2; cell 7 cannot follow"),
    ],
)
def test_moves_that_cannot_be_an_answer_are_refused_saying_why(played, message):
    with pytest.raises(solving.InvalidAttempt, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        solving.attempt(FORK, 3, played)


def test_nothing_played_is_the_puzzle_at_its_start():
    attempt = solving.attempt(FORK, 3, [])

    assert (attempt.status, attempt.message, attempt.moves, str(attempt.board)) == (solving.SOLVING, "", [], FORK)


def test_an_o_puzzle_speaks_of_x_as_the_opponent():
    attempt = solving.attempt("OXX.X..O.", 3, [6])

    assert attempt.message == "That wins: X's best reply is cell 3. Your move."
    assert solving.attempt("OXX.X..O.", 3, [6, 8]).board.winner == "O"


def test_cells_in_words():
    assert solving.cells_in_words([3]) == "cell 3"
    assert solving.cells_in_words([3, 6]) == "cells 3 and 6"
    assert solving.cells_in_words([1, 3, 6]) == "cells 1, 3 and 6"


# O to play after X's corner: only the centre keeps the draw (a puzzle whose answer holds, win_in None).
SAVE = "X........"


def test_a_draw_puzzle_is_solved_by_its_one_move_and_shows_the_reply_it_held_off():
    attempt = solving.attempt(SAVE, None, [4])

    assert attempt.status == solving.SOLVED
    assert attempt.steps[0].verdict == "holds"
    assert attempt.steps[0].winning_cells == (4,)
    reply = attempt.steps[0].reply
    assert (
        attempt.message
        == f"That keeps the draw: the only move that does not lose. X's best reply is cell {reply}. Solved!"
    )
    assert attempt.moves == [(4, "O", True), (reply, "X", False)]


def test_in_a_draw_puzzle_any_other_move_loses_and_names_the_answer():
    attempt = solving.attempt(SAVE, None, [8])

    assert attempt.status == solving.FAILED
    assert attempt.message.startswith("That loses: X wins in ")
    assert attempt.message.endswith(" moves. The only move that does not lose was cell 4.")
    assert str(attempt.board) == SAVE


def test_a_draw_puzzle_is_over_after_its_one_move():
    with pytest.raises(solving.InvalidAttempt, match="^the puzzle was over after move 1; cell 0 cannot follow$"):
        solving.attempt(SAVE, None, [4, 0])
