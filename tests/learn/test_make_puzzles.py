"""``manage.py make_puzzles``: puzzles found in games played through the
services, as players play them; every stored puzzle's answer is unique, as
the independent referee (tests/engine/reference.py) checks on 3x3."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from bench.sample_games import make_sample_games
from games.learn import finding, puzzle_services
from games.learn.models import Puzzle
from tests.engine import reference
from tests.factories import ai_game, human_game

pytestmark = pytest.mark.django_db

# X blocks O's top row on cell 2, which threatens cells 5 and 6 at once: the
# position before X's third move is "OO..X...X", X to play and win in 3.
FORK_GAME = [4, 0, 8, 1, 2, 3, 5]
# The same fork mirrored left to right: ".OO.X.X..", before X's third move.
MIRRORED_FORK_GAME = [4, 2, 6, 1, 0, 3, 8]
# X leaves O a fork: "OXX.X..O.", O to play and win in 3 with cell 6.
O_FORK_GAME = [4, 0, 1, 7, 2, 6, 3, 8]
# 4x4: X's cell 7 threatens row 2 and column 4 at once.
FORK_GAME_4X4 = [5, 1, 6, 9, 11, 10, 15, 12, 7, 0, 3]


def make_puzzles(*args) -> str:
    out = StringIO()
    call_command("make_puzzles", *args, stdout=out)
    return out.getvalue()


def assert_unique_answer(puzzle: Puzzle):
    """The referee, sharing no code with the engine, agrees: one winning cell,
    this one, winning in exactly ``win_in``, and the stored line is best play."""
    values = reference.move_values(puzzle.position)
    winning = [cell for cell, score in values.items() if score > 0]
    assert winning == [puzzle.cell], puzzle.position
    assert reference.describe(values[puzzle.cell], puzzle.position) == ("win", puzzle.win_in)
    position = puzzle.position
    for cell in puzzle.solution_cells:
        values = reference.move_values(position)
        assert values[cell] == max(values.values()), (puzzle.position, position, cell)
        position = reference.play(position, cell)
    assert reference.winner(position) == puzzle.side
    assert len(puzzle.solution_cells) == puzzle.win_in


def test_a_puzzle_is_found_in_a_real_game(user, bob):
    game = human_game(user, bob, cells=FORK_GAME)

    output = make_puzzles()

    puzzle = Puzzle.objects.get()
    assert (puzzle.position, puzzle.variant, puzzle.side, puzzle.cell, puzzle.win_in, puzzle.solution) == (
        "OO..X...X",
        "3x3",
        "X",
        2,
        3,
        "2,5,6",  # O blocks one of the fork's two threats, as a defender would
    )
    assert puzzle.game == game
    assert (puzzle.theme, puzzle.origin) == ("fork", "game")
    assert str(puzzle) == f"Puzzle {puzzle.pk}: X to play and win with your second move (3x3)"
    assert output.startswith("Made 1 new puzzle (3x3: 1) from 1 finished game, ")


def test_o_gets_puzzles_too(user, bob):
    human_game(user, bob, cells=O_FORK_GAME)

    make_puzzles()

    puzzle = Puzzle.objects.get()
    assert (puzzle.position, puzzle.side, puzzle.cell, puzzle.win_in) == ("OXX.X..O.", "O", 6, 3)


def test_running_it_again_adds_only_new_puzzles(user, bob):
    human_game(user, bob, cells=FORK_GAME)
    make_puzzles()
    first = list(Puzzle.objects.values_list("pk", "position"))

    assert make_puzzles().startswith("Made 0 new puzzles from 1 finished game")
    assert list(Puzzle.objects.values_list("pk", "position")) == first

    human_game(user, bob, cells=O_FORK_GAME)
    make_puzzles()
    assert Puzzle.objects.count() == 2


def test_a_puzzle_turned_or_mirrored_is_not_stored_twice(user, bob):
    human_game(user, bob, cells=FORK_GAME)
    human_game(bob, user, cells=MIRRORED_FORK_GAME)
    assert ".OO.X.X.." in finding.symmetric_positions("OO..X...X")

    make_puzzles()

    assert list(Puzzle.objects.values_list("position", flat=True)) == ["OO..X...X"]


def test_only_finished_games_are_looked_at(user, bob):
    human_game(user, bob, cells=FORK_GAME[:-1])  # X has not won yet
    human_game(user, bob, cells=FORK_GAME[:5], resign=bob)  # O gave up: finished, the fork on the board

    make_puzzles()

    assert list(Puzzle.objects.values_list("position", flat=True)) == ["OO..X...X"]
    assert Puzzle.objects.get().game.termination == "resigned"


def test_every_stored_puzzle_has_a_unique_solution(user, bob, django_user_model):
    """Many real games (the sample data's players), every puzzle re-checked by the referee."""
    make_sample_games(games=120, users=4, seed=3, log=lambda line: None)
    human_game(user, bob, cells=FORK_GAME)

    make_puzzles("--variant", "3x3")

    puzzles = list(Puzzle.objects.all())
    assert len(puzzles) >= 10
    assert {p.win_in for p in puzzles} == {3, 5}
    for puzzle in puzzles:
        assert_unique_answer(puzzle)
        assert puzzle.game.status == "finished"
        assert puzzle.position in {str(puzzle.game.board_at(ply)) for ply in range(puzzle.game.move_count)}


def test_the_options_choose_the_board_the_count_and_how_fast(user, bob):
    human_game(user, bob, cells=FORK_GAME)
    human_game(user, bob, cells=O_FORK_GAME)
    human_game(user, bob, cells=FORK_GAME_4X4, variant="4x4")

    assert make_puzzles("--variant", "4x4").startswith("Made 1 new puzzle (4x4: 1) from 1 finished game")
    puzzle = Puzzle.objects.get()
    assert (puzzle.position, puzzle.cell, puzzle.win_in, puzzle.solution) == (".O...XX..OOXO..X", 7, 3, "7,3,4")

    assert make_puzzles("--limit", "1").startswith("Made 1 new puzzle (3x3: 1)")
    assert make_puzzles().startswith("Made 1 new puzzle (3x3: 1)")
    assert Puzzle.objects.count() == 3


def test_win_in_is_the_slowest_win_kept(user, bob):
    # ".X......O": X to play and win in 5, found in this game before X's second move.
    human_game(user, bob, cells=[1, 8, 2, 0, 4, 3, 6])

    make_puzzles("--win-in", "3")
    assert ".X......O" not in set(Puzzle.objects.values_list("position", flat=True))

    make_puzzles("--win-in", "5")
    assert Puzzle.objects.get(position=".X......O").win_in == 5


@pytest.mark.parametrize(
    "args, message",
    [
        (["--limit", "0"], "--limit must be 1 or more"),
        (["--win-in", "4"], "--win-in must be odd, from 3 to 25"),
        (["--win-in", "1"], "--win-in must be odd, from 3 to 25"),
    ],
)
def test_bad_options_are_refused_saying_why(args, message):
    with pytest.raises(CommandError, match=message):
        make_puzzles(*args)


def test_an_unknown_board_is_refused():
    with pytest.raises(CommandError, match="invalid choice: '6x6'"):
        make_puzzles("--variant", "6x6")


def test_the_service_says_what_it_looked_at(user, bob):
    human_game(user, bob, cells=FORK_GAME)

    result = puzzle_services.puzzles_make()

    assert [p.position for p in result.made] == ["OO..X...X"]
    assert result.games == 1
    assert result.positions == 7  # every position before a move, each new


VALID = {
    "position": "OO..X...X",
    "variant": "3x3",
    "side": "X",
    "cell": 2,
    "win_in": 3,
    "solution": "2,3,5",
    "theme": "fork",
}


@pytest.mark.parametrize(
    "change",
    [
        {"cell": 0},  # the winning cell is taken
        {"cell": 9},  # off the board
        {"win_in": 5},  # a fork wins in three moves, no more
        {"win_in": 1},  # nor fewer
        {"win_in": None},  # a win says how fast
        {"theme": "win_now"},  # win now is a win in one
        {"theme": "block"},  # a block's answer keeps the draw: no win_in
        {"theme": "long_win", "win_in": 8},  # the learner moves last: an odd number of moves
        {"theme": "sacrifice"},  # no such theme
        {"origin": "typed"},  # puzzles are made, never typed in
        {"variant": "4x4"},  # nine cells are not a 4x4 board
        {"side": "Z"},
    ],
)
def test_the_database_refuses_a_puzzle_that_cannot_be(change):
    with pytest.raises(IntegrityError), transaction.atomic():
        Puzzle.objects.create(**{**VALID, **change})
    Puzzle.objects.create(**VALID)  # the valid one goes in


def test_a_deleted_game_leaves_its_puzzles(user):
    game = ai_game(user, resign=True)
    Puzzle.objects.create(**VALID, game=game)

    game.delete()

    assert Puzzle.objects.get().game is None


def test_a_position_is_one_puzzle():
    Puzzle.objects.create(**VALID)
    with pytest.raises(IntegrityError):
        Puzzle.objects.create(**VALID)


def test_staff_see_the_puzzles_in_the_admin_but_cannot_edit_them(client, django_user_model, password):
    puzzle = Puzzle.objects.create(**VALID)
    client.force_login(django_user_model.objects.create_superuser("root", password=password))

    listing = client.get("/admin/games/puzzle/").content.decode()

    assert "OO..X...X" in listing
    assert client.get("/admin/games/puzzle/add/").status_code == 403
    page = client.get(f"/admin/games/puzzle/{puzzle.pk}/change/").content.decode()
    assert "2,3,5" in page and 'name="solution"' not in page  # shown, not editable
