"""The game notation: coordinates, writing and reading a game, and its errors."""

import pytest

from games import notation
from games.notation import NotationError, Record


def test_coordinates_count_rows_from_the_bottom():
    assert notation.coordinate(0, 3) == "a3"
    assert notation.coordinate(8, 3) == "c1"
    assert notation.coordinate(4, 3) == "b2"
    assert notation.coordinate(24, 5) == "e1"
    assert [notation.cell_of(notation.coordinate(c, 4), 4) for c in range(16)] == list(range(16))


def test_a_game_written_reads_back_the_same():
    record = Record(size=4, moves=(5, 0, 10), headers={"X": 'al "the" ace', "O": "AI", "Result": "*"})
    text = notation.write(record)
    assert '[Board "4x4"]' in text
    assert text.rstrip().endswith("b3 a4 c2")
    assert notation.parse(text) == record


@pytest.mark.parametrize("text", ["b2 a1 c3", "4 6 2", "1. b2 a1 2. c3", "B2, a1,c3"])
def test_plain_move_lists(text):
    assert notation.parse(text).moves == (4, 6, 2)


def test_plain_lists_read_the_same_cells():
    assert notation.parse("b2 a1 c3").moves == (4, 6, 2)
    assert notation.parse("4 0 8").moves == (4, 0, 8)
    assert notation.parse("e1", size=5).moves == (24,)


@pytest.mark.parametrize(
    "text, words",
    [
        ("b2\nzz", 'line 2, move 2: "zz" is not a coordinate'),
        ("b2 d1", 'move 2: "d1" is off the 3x3 board'),
        ("b2 9", "move 2: cell 9 is off the 3x3 board"),
        ("b2 b2", 'move 2: "b2" cannot be played: that cell is occupied'),
        ("a3 b3 a2 b2 a1 c1", 'move 6: "c1" cannot be played: the game is already over'),
        ('[Board "6x6"]\n\na1', 'Board "6x6" is not 3x3, 4x4 or 5x5'),
        ("[Board 3x3]", 'line 1: "[Board 3x3]" is not a header'),
        ('a1\n[X "al"]', "line 2: a header comes after the moves"),
    ],
)
def test_errors_say_what_and_where(text, words):
    with pytest.raises(NotationError) as caught:
        notation.parse(text)
    assert words in str(caught.value)
