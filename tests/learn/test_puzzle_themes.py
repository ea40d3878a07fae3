"""The starter set, theme by theme, against the engine's exact analysis
(engine.analyse): every puzzle asks what its theme says, and its answer is
the only right one. The set is made once a process (starter.starter_puzzles
remembers it), so every test here reads the same puzzles."""

from collections import Counter

import pytest

from games import engine
from games.learn import finding, starter

BOARDS = ["3x3", "4x4", "5x5"]
THEMES = {"win_now", "block", "fork", "save_draw", "win_in_three"}


def puzzles_of(theme: str) -> list:
    return [(variant, p) for variant in BOARDS for p in starter.starter_puzzles(variant) if p.theme == theme]


def ids(param) -> str:
    return param[1].position if isinstance(param, tuple) else str(param)


def wins_at_once(analysis) -> list[int]:
    return [cell for cell, e in analysis.items() if e.outcome == "win" and e.plies == 1]


@pytest.mark.parametrize("variant", BOARDS)
def test_every_board_has_at_least_thirty_across_every_theme(variant):
    puzzles = starter.starter_puzzles(variant)

    assert len(puzzles) >= 30
    assert set(Counter(p.theme for p in puzzles)) == THEMES
    assert {p.variant for p in puzzles} == {variant}


@pytest.mark.parametrize("variant", BOARDS)
def test_no_position_comes_twice_not_even_turned_or_mirrored(variant):
    seen = set()
    for puzzle in starter.starter_puzzles(variant):
        assert puzzle.position not in seen
        seen |= finding.symmetric_positions(puzzle.position)


def test_the_seed_makes_the_same_set_every_time():
    again = starter.starter_puzzles.__wrapped__("3x3")  # made afresh, not remembered

    assert again == starter.starter_puzzles("3x3")
    assert starter.starter_puzzles.__wrapped__("3x3", seed=2) != again


@pytest.mark.parametrize("case", puzzles_of("win_now"), ids=ids)
def test_win_now_one_cell_completes_a_line(case):
    _, puzzle = case
    board = engine.Board.from_string(puzzle.position)
    analysis = engine.analyse(board)

    assert wins_at_once(analysis) == [puzzle.cell]
    assert board.play(puzzle.cell).winner == puzzle.side
    assert (puzzle.win_in, puzzle.solution) == (1, (puzzle.cell,))


@pytest.mark.parametrize("case", puzzles_of("block"), ids=ids)
def test_block_the_opponent_threatens_and_one_cell_does_not_lose(case):
    _, puzzle = case
    board = engine.Board.from_string(puzzle.position)
    analysis = engine.analyse(board)

    assert wins_at_once(analysis) == []
    not_losing = [cell for cell, e in analysis.items() if e.outcome != "loss"]
    assert not_losing == [puzzle.cell]
    assert analysis[puzzle.cell].outcome == "draw"
    # Every other move lets the opponent complete a line at once: the threat is there.
    assert all(e.plies == 2 for cell, e in analysis.items() if cell != puzzle.cell)
    assert puzzle.win_in is None


@pytest.mark.parametrize("case", puzzles_of("fork"), ids=ids)
def test_fork_the_only_winning_cell_makes_two_threats(case):
    _, puzzle = case
    board = engine.Board.from_string(puzzle.position)
    analysis = engine.analyse(board)

    assert [cell for cell, e in analysis.items() if e.outcome == "win"] == [puzzle.cell]
    assert (analysis[puzzle.cell].plies, puzzle.win_in) == (3, 3)
    assert wins_at_once(analysis) == []  # no threat before the answer...
    after = engine.analyse(board.play(puzzle.cell))
    # ...and after it every reply loses at once: a block would save one threat, so there are two.
    assert len(after) >= 2
    assert all((e.outcome, e.plies) == ("loss", 2) for e in after.values())


@pytest.mark.parametrize("case", puzzles_of("win_in_three"), ids=ids)
def test_win_in_three_one_cell_wins_with_the_third_move(case):
    _, puzzle = case
    analysis = engine.analyse(engine.Board.from_string(puzzle.position))

    assert [cell for cell, e in analysis.items() if e.outcome == "win"] == [puzzle.cell]
    assert (analysis[puzzle.cell].plies, puzzle.win_in) == (5, 5)


@pytest.mark.parametrize("case", puzzles_of("save_draw"), ids=ids)
def test_save_a_draw_one_cell_draws_every_other_loses_and_nothing_to_block(case):
    _, puzzle = case
    analysis = engine.analyse(engine.Board.from_string(puzzle.position))

    assert [cell for cell, e in analysis.items() if e.outcome != "loss"] == [puzzle.cell]
    assert analysis[puzzle.cell].outcome == "draw"
    # No move loses at once: the opponent has no line to complete, so the answer is no simple block.
    assert all(e.plies > 2 for cell, e in analysis.items() if cell != puzzle.cell)
    assert puzzle.win_in is None


@pytest.mark.parametrize("variant", BOARDS)
def test_each_stored_line_is_best_play_with_the_longest_resistance(variant):
    for puzzle in starter.starter_puzzles(variant):
        board = engine.Board.from_string(puzzle.position)
        for number, cell in enumerate(puzzle.solution):
            if number % 2:
                assert cell == engine.toughest_reply(board), (puzzle.position, number)
            else:
                assert cell in engine.analyse(board).best_cells, (puzzle.position, number)
            board = board.play(cell)
        if puzzle.win_in is None:
            assert len(puzzle.solution) == 2  # the answer and the reply it holds off
        else:
            assert (board.winner, len(puzzle.solution)) == (puzzle.side, puzzle.win_in)


def test_a_played_position_of_every_theme_is_recognised():
    """The classifier on positions a person would meet: the centre after a
    corner, a block, a fork and a win on 3x3."""
    cases = {
        "X........": ("save_draw", 4),  # only the centre holds against a corner
        "XX..O....": ("block", 2),
        "X.X.O.O..": ("win_now", 1),  # O's threat does not matter: X wins first
        "OO..X...X": ("fork", 2),  # the block that makes two threats is a win: a fork, not a block
        "XOX.O....": ("block", 7),
        "....X....": (None, None),  # every corner draws: no one answer
    }
    for position, (theme, cell) in cases.items():
        found = finding.themed_puzzle_in(engine.Board.from_string(position))
        assert (found and (found.theme, found.cell)) == ((theme, cell) if theme else None), position
