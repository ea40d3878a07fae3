"""Any 5x5 position, however early and wherever its marks: the engine's
analysis against the tests' own referee (referee.c, built here with cc), which
shares nothing with the engine, its tablebase or its compiled core."""

import ctypes
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.positions import random_position
from games.engine import Board, analyse, principal_variation

REFEREE = Path(__file__).with_name("referee.c")
OUTCOME = {1: "win", 0: "draw", -1: "loss"}


@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    """``referee(board, cell)``: win, draw or loss for the mover playing ``cell``."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "the referee needs a C compiler (scripts/venv.sh installs Debian's gcc)"
    library = tmp_path_factory.mktemp("referee") / "referee.so"
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(REFEREE)], check=True)
    lib = ctypes.CDLL(str(library))
    lib.referee_move.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_int]
    lib.referee_move.restype = ctypes.c_int

    def outcome(board: Board, cell: int) -> str:
        me, opp = board._mover_masks()
        value = lib.referee_move(me, opp, cell)
        assert value != -2, "the referee had no memory"
        return OUTCOME[value]

    return outcome


@pytest.mark.parametrize("marks", range(1, 9))
@pytest.mark.parametrize("clustered", [False, True], ids=["scattered", "clustered"])
def test_every_cell_of_a_random_position_has_the_referees_outcome(referee, marks, clustered):
    rng = random.Random(marks * 2 + clustered)
    board = random_position(rng, marks, clustered)
    found = analyse(board)
    assert found.exact, str(board)
    cells = list(found)
    if marks <= 2:
        # Near the empty board the referee takes many seconds a cell: a best
        # cell and another, the other a worse one when there is one.
        worse = [cell for cell in cells if cell not in found.best_cells]
        cells = [found.best_cells[0], rng.choice(worse or cells)]
    assert {cell: found[cell].outcome for cell in cells} == {cell: referee(board, cell) for cell in cells}, str(board)


@pytest.mark.parametrize("marks", [2, 5, 7])
def test_the_line_of_best_play_keeps_the_positions_outcome_to_the_end(referee, marks):
    board = random_position(random.Random(100 + marks), marks, clustered=True)
    value = max(analyse(board).values(), key=lambda e: e.score)
    line = principal_variation(board)
    assert line.complete
    end = board
    for cell in line.cells:
        end = end.play(cell)
    assert end.is_game_over()
    expected = {"draw": None, "win": board.to_move, "loss": "O" if board.to_move == "X" else "X"}[value.outcome]
    assert end.winner == expected and (value.outcome == "draw" or len(line.cells) == value.plies), str(board)
