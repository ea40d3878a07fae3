"""The rules: positions, moves, their errors, and counts that would catch a rules bug."""

import pytest

from games import engine
from games.engine import Board, IllegalMoveError, InvalidMoveError, InvalidPositionError, analyse


def test_empty_board_x_moves_first_and_every_cell_is_legal():
    board = Board.empty()
    assert str(board) == "........."
    assert board.to_move == "X"
    assert board.legal_moves == list(range(9))
    assert board.winner is None and board.winning_line is None
    assert not board.is_game_over()


@pytest.mark.parametrize("size, length", [(3, 9), (4, 16), (5, 25)])
def test_each_variant_has_its_board(size, length):
    board = Board.empty(size)
    assert len(str(board)) == length
    assert board.legal_moves == list(range(length))
    assert board.variant == f"{size}x{size}"


def test_play_returns_a_new_board_and_leaves_the_old_one_alone():
    board = Board.empty()
    after = board.play(4)
    assert str(board) == "........."
    assert str(after) == "....X...."
    assert after.to_move == "O"
    assert after.legal_moves == [0, 1, 2, 3, 5, 6, 7, 8]
    with pytest.raises(AttributeError):
        after._x = 0
    with pytest.raises(TypeError):
        Board()


def test_a_completed_line_wins_and_ends_the_game():
    board = Board.from_moves([0, 3, 1, 4, 2])
    assert str(board) == "XXXOO...."
    assert board.winner == "X"
    assert board.winning_line == (0, 1, 2)
    assert board.to_move is None
    assert board.legal_moves == []
    assert board.is_game_over()
    assert board.result() == "x_won"
    assert board.termination() == "line"


def test_o_wins_on_a_diagonal():
    board = Board.from_string("XXOXO.O..")
    assert board.winner == "O"
    assert board.winning_line == (2, 4, 6)
    assert board.result() == "o_won"


def test_a_full_board_without_a_line_is_a_draw():
    board = Board.from_string("XOXXOOOXX")
    assert board.winner is None
    assert board.is_draw() and board.is_game_over()
    assert board.result() == "draw"
    assert board.termination() == "full_board"
    assert board.to_move is None


def test_four_and_five_need_four_in_a_row():
    four = Board.from_string("XXX.OOO.........")
    assert four.winner is None and four.to_move == "X"
    assert four.play(3).winner == "X"
    five = Board.from_string("XXX..OOO.................")
    assert five.play(3).winning_line == (0, 1, 2, 3)
    diagonal = Board.from_moves([1, 0, 7, 2, 13, 3, 19], size=5)
    assert diagonal.winner == "X" and diagonal.winning_line == (1, 7, 13, 19)


@pytest.mark.parametrize(
    "text, message",
    [
        ("X...O...", "has 8 cells"),
        ("X...O.....", "has 10 cells"),
        ("X...o....", "'o'"),
        ("X...O..1.", "'1'"),
        ("OO..X....", "more O than X"),
        ("XX.......", "X 2 marks ahead"),
        ("XXXOOO...", "a line for both X and O"),
        ("XXXOO.O..", "after X had won"),
        ("OOOXX.XX.", "after O had won"),
        ("XXXX......X.XXX.OOO.OOO.OO.", "has 27 cells"),
        ("XXXX.OOO..XXXX.OOO.O.....", "no single last move"),
    ],
)
def test_impossible_or_malformed_positions_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        Board.from_string(text)


def test_position_errors_are_value_errors():
    assert issubclass(InvalidPositionError, ValueError)
    with pytest.raises(ValueError):
        Board.from_string("nonsense")
    with pytest.raises(InvalidPositionError, match="not int"):
        Board.from_string(9)


def test_a_winning_move_that_makes_two_lines_at_once_is_possible():
    # X's last move at 4 completes a row and a column: legal, one move made both.
    board = Board.from_string("OXOXXXOXO")
    assert board.winner == "X"


@pytest.mark.parametrize("cell", ["4", 4.0, None, True, [4]])
def test_a_cell_that_is_not_a_whole_number_is_malformed(cell):
    with pytest.raises(InvalidMoveError, match="is not a whole number"):
        Board.empty().play(cell)


@pytest.mark.parametrize("cell", [-1, 9, 100])
def test_a_cell_off_the_board_is_malformed(cell):
    with pytest.raises(InvalidMoveError, match=f"cell {cell} is off the 3x3 board"):
        Board.empty().play(cell)


def test_an_occupied_cell_is_illegal_and_named_with_the_position():
    board = Board.from_string("....X...O")
    with pytest.raises(IllegalMoveError, match=r'cell 4 is occupied in "\.\.\.\.X\.\.\.O"'):
        board.play(4)


def test_moving_after_the_game_is_over_is_illegal():
    board = Board.from_string("XXXOO....")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.play(8)


def test_the_two_move_errors_are_distinct_value_errors():
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)


def test_boards_are_values():
    a = Board.from_moves([4, 0])
    b = Board.from_string("O...X....")
    assert a == b and hash(a) == hash(b)
    assert a != Board.from_moves([0, 4])
    assert {a, b} == {a}
    assert repr(a) == "Board.from_string('O...X....')"
    assert a.rows() == ["O..", ".X.", "..."]
    assert a.cell(0) == "O" and a.cell(4) == "X" and a.cell(8) == "."


# -- counts that a rules bug would change ------------------------------------


def test_there_are_5478_legal_positions(positions_3x3):
    assert len(positions_3x3) == 5478
    # And the engine accepts every one of them and renders it back unchanged.
    for text in positions_3x3:
        assert str(Board.from_string(text)) == text


def test_there_are_4520_positions_with_a_move_to_make(positions_3x3):
    assert sum(not Board.from_string(p).is_game_over() for p in positions_3x3) == 4520


def test_there_are_255168_games_with_the_known_results():
    results = {"x_won": 0, "o_won": 0, "draw": 0}

    def walk(board):
        if board.is_game_over():
            results[board.result()] += 1
            return
        for cell in board.legal_moves:
            walk(board.play(cell))

    walk(Board.empty())
    assert sum(results.values()) == 255168
    assert results == {"x_won": 131184, "o_won": 77904, "draw": 46080}


def test_the_empty_board_is_a_draw():
    analysis = analyse(Board.empty())
    assert {e.outcome for e in analysis.values()} == {"draw"}


def test_x_plays_the_even_plies_and_each_side_has_one_other():
    board = Board.from_moves([4, 0, 8], size=3)
    assert board.to_move == engine.side_to_move(board.ply) == "O"
    assert [engine.side_to_move(ply) for ply in range(4)] == ["X", "O", "X", "O"]
    assert engine.other_side("X") == "O" and engine.other_side("O") == "X"
