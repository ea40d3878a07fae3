"""What a link to the analysis board carries: a start, the moves from it and
the ply shown; read back whole, or as far as it can be with a reason in words."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from games import engine
from games.learn.positions import AnalysisLink, analysis_query, read_link


def read(query: str) -> AnalysisLink:
    params = dict(parse_qsl(urlsplit(query).query, keep_blank_values=True))
    return read_link(params.get("board"), params.get("moves"), params.get("ply"))


def messages(link: AnalysisLink) -> list[str]:
    return [problem.message for problem in link.problems]


# -- links that read whole ------------------------------------------------------------


def test_no_parameters_is_the_empty_3x3_board():
    link = read("")
    assert str(link.board) == "........." and link.shown_ply == 0 and not link.problems
    assert link.query() == ""


def test_a_board_alone_is_that_position():
    link = read("?board=X...O....")
    assert str(link.board) == "X...O...." and (link.first_ply, link.shown_ply, link.last_ply) == (2, 2, 2)


def test_moves_and_ply_show_a_position_along_the_line_with_the_rest_ahead():
    link = read("?moves=4,0,8&ply=2")
    assert str(link.board) == "O...X...."
    assert link.played == (4, 0) and link.moves == (4, 0, 8)
    assert str(link.at(3).board) == "O...X...X"
    assert str(link.at(0).board) == "........."


def test_moves_from_a_pasted_4x4_position():
    link = read("?board=X..............O&moves=5")
    assert str(link.board) == "X....X.........O" and link.shown_ply == 3


def test_a_grid_pasted_over_three_lines_in_lower_case_reads_as_the_position():
    link = read_link("x..\n.o.\n...", None, None)
    assert str(link.board) == "X...O...." and not link.problems


# -- the links the page makes ---------------------------------------------------------


def test_every_link_is_in_its_shortest_form_and_reads_back_the_same():
    link = read("?board=.........&moves=4,0,8&ply=3")
    assert link.query() == "?moves=4,0,8"  # the empty 3x3 start and the last ply are the defaults
    assert read(link.at(1).query()) == link.at(1)
    assert link.at(1).query() == "?moves=4,0,8&ply=1"


def test_playing_a_cell_drops_the_moves_that_were_ahead():
    link = read("?moves=4,0,8&ply=1")
    assert link.after(2).query() == "?moves=4,2"


def test_following_a_line_puts_it_ahead_and_steps_into_it():
    link = read("?moves=4,0,8&ply=1")
    followed = link.followed_by((1, 2, 6), 2)
    assert followed.query() == "?moves=4,1,2,6&ply=3"
    assert str(followed.board) == ".OX.X...."
    assert followed.played == (4, 1, 2) and followed.moves == (4, 1, 2, 6)


def test_the_game_pages_link_carries_the_whole_game_from_the_empty_board():
    query = analysis_query(engine.Board.empty(4), [5, 0, 10], ply=1)
    assert query == "?board=................&moves=5,0,10&ply=1"
    assert str(read(query).board) == ".....X.........."


# -- links that cannot be read whole: what is shown, and why ------------------------------


@pytest.mark.parametrize(
    "query, shown, message",
    [
        (
            "?board=XXX......",
            ".........",
            'This position cannot be analysed: "XXX......" has X 3 marks ahead of O; players alternate. '
            "Showing an empty board.",
        ),
        (
            "?board=X..",
            ".........",
            'This position cannot be analysed: "X.." has 3 cells; a position has 9, 16 or 25 (3x3, 4x4 or 5x5). '
            "Showing an empty board.",
        ),
        (
            "?board=XXXXOOOO.......Z",
            "................",
            "This position cannot be analysed: \"XXXXOOOO.......Z\" has 'Z'; cells are X, O or .. "
            "Showing an empty board.",
        ),
        (
            "?board=" + "Z" * 101,
            ".........",
            "This position cannot be analysed: that position has 101 characters; a position has 9, 16 or 25 "
            "cells (3x3, 4x4 or 5x5). Showing an empty board.",
        ),
        (
            "?moves=4,4",
            "....X....",
            'Move 2 in this link cannot be played: cell 4 is occupied in "....X....". The move before it is shown.',
        ),
        (
            "?moves=4,0,a",
            "O...X....",
            "Move 3 in this link cannot be played: 'a' is not a cell (cells are 0 to 8). "
            "The 2 moves before it are shown.",
        ),
        (
            "?moves=9",
            ".........",
            "Move 1 in this link cannot be played: cell 9 is off the 3x3 board (cells are 0 to 8). None were played.",
        ),
        (
            "?moves=0,3,1,4,2,5",
            "XXXOO....",
            'Move 6 in this link cannot be played: the game is already over in "XXXOO....". '
            "The 5 moves before it are shown.",
        ),
        (
            "?moves=" + "1," * 60,
            ".........",
            "The moves in this link are too long to be a game. None were played.",
        ),
        (
            "?moves=4,0&ply=7",
            "O...X....",
            "This line has no position at ply 7: it has plies 0 to 2. Showing ply 2.",
        ),
        (
            "?board=X...O....&ply=1",
            "X...O....",
            "This line has no position at ply 1: it has ply 2. Showing ply 2.",
        ),
        (
            "?moves=4,\u0660",  # an Arabic-Indic zero: cells are ASCII digits only
            "....X....",
            "Move 2 in this link cannot be played: '\u0660' is not a cell (cells are 0 to 8). "
            "The move before it is shown.",
        ),
        (
            "?moves=4,0&ply=\u0662",
            "O...X....",
            "The ply '\u0662' is not a number of moves. Showing the last position.",
        ),
        (
            "?moves=4,0&ply=two",
            "O...X....",
            "The ply 'two' is not a number of moves. Showing the last position.",
        ),
    ],
)
def test_a_link_that_cannot_be_read_whole_shows_what_it_can_and_says_why(query, shown, message):
    link = read(query)
    assert str(link.board) == shown
    assert messages(link) == [message]


def test_a_bad_start_drops_the_moves_that_were_played_from_it():
    link = read("?board=OOO......&moves=4")
    assert str(link.board) == "........." and link.moves == ()
    assert len(link.problems) == 1 and link.problems[0].parameter == "board"
