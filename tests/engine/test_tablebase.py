"""The 5x5 tablebase: what ships is right, and a bad file never makes a wrong move."""

import logging
import random
from collections import OrderedDict

import pytest

from games.engine import Board, analyse, best_move
from games.search import analysis, registry, tablebase
from games.search.solver import ExactSolver


@pytest.fixture
def fresh_solvers(monkeypatch):
    """The engine's solvers and remembered analyses made anew for the test, and put back after."""
    monkeypatch.setattr(registry, "_SOLVERS", {})
    monkeypatch.setattr(analysis, "_ANALYSES", OrderedDict())


@pytest.fixture(scope="module")
def table() -> tablebase.Tablebase:
    return tablebase.load()


def test_the_shipped_table_holds_every_position_up_to_six_marks_and_proves_5x5_a_draw(table):
    assert table.marks == 6 and len(table) == 4_156_726
    assert table.score(0, 0) == 0  # the empty board: a draw with perfect play (C. Y. Lee)
    empty = analyse(Board.empty(5))
    assert empty.exact and max(e.score for e in empty.values()) == 0
    assert best_move(Board.empty(5), seed=1) in empty.best_cells


def test_sampled_entries_agree_with_a_fresh_python_search_without_table_or_core(table):
    # verify() is what scripts/build_table verify runs: each position solved
    # by a new Python solver, no table, no compiled core, no memory.
    assert tablebase.verify(table, sample=6, seed=3, least=5) == []


def test_every_entry_sampled_is_the_best_of_the_entries_its_moves_lead_to(table):
    rng = random.Random(8)
    for _ in range(300):
        x, o = tablebase.random_position(rng, 0, 5)
        marks = (x | o).bit_count()
        me, opp = (x, o) if marks % 2 == 0 else (o, x)
        empty = [cell for cell in range(25) if not (me | opp) >> cell & 1]
        best = max(-table.score(opp, me | 1 << cell) for cell in empty)
        assert table.score(me, opp) == best, (x, o)


def test_the_analysis_of_a_position_the_table_answers_needs_no_search(table):
    board = Board.from_string("X.....O.....X.....O......")
    found = analyse(board)
    assert found.exact
    assert found.stats.nodes == len(board.legal_moves) + 1  # one look-up a cell
    me, opp = board._mover_masks()
    assert {cell: e.score for cell, e in found.items()} == {
        cell: -table.score(opp, me | 1 << cell) for cell in board.legal_moves
    }


def test_a_table_round_trips_through_its_file(tmp_path):
    blocks = [bytes([0]), bytes(value & 255 for value in range(-12, 13))]  # X's first cell 0 to 24
    path = tmp_path / "table.bin"
    assert tablebase.dump(blocks, path) == path.stat().st_size
    loaded = tablebase.load(path)
    assert loaded.marks == 1 and len(loaded) == 26
    assert loaded.score(0, 0) == 0
    assert loaded.score(0, 1 << 24) == tablebase.to_score(12, 1)  # O to move after X's last cell
    with pytest.raises(ValueError, match="not 25"):
        tablebase.dump([bytes(1), bytes(3)], path)


def _damaged(tmp_path, how):
    good = tablebase.TABLE_PATH.read_bytes()
    path = tmp_path / "table.bin"
    if how == "missing":
        return path
    if how == "empty":
        path.write_bytes(b"")
    elif how == "truncated":
        path.write_bytes(good[:20])
    elif how == "not a table":
        path.write_bytes(b"PK\x03\x04" + good[4:])
    elif how == "cut short":
        path.write_bytes(good[:-1000])
    elif how == "flipped byte":
        data = bytearray(good)
        data[-5] ^= 0xFF
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("missing", "cannot read the tablebase"),
        ("empty", "cannot read the tablebase"),
        ("truncated", "is truncated"),
        ("not a table", "is not a tablebase"),
        ("cut short", "is damaged"),
        ("flipped byte", "checksum does not match"),
    ],
)
def test_a_missing_or_damaged_table_is_refused_with_a_clear_error(tmp_path, how, message):
    with pytest.raises(tablebase.TablebaseError, match=message):
        tablebase.load(_damaged(tmp_path, how))


def test_without_its_table_the_engine_logs_why_and_still_plays_and_analyses_exactly(
    tmp_path, monkeypatch, caplog, fresh_solvers, table
):
    monkeypatch.setenv("ENGINE_TABLEBASE", str(_damaged(tmp_path, "flipped byte")))
    board = Board.from_string("X.....O.....X.....O......")
    with caplog.at_level(logging.ERROR, logger="games.search.tablebase"):
        found = analyse(board)
    assert "checksum does not match" in caplog.text and "solved by search alone" in caplog.text
    assert registry.solver_for(5).tablebase is None
    assert found.exact
    me, opp = board._mover_masks()
    assert {cell: e.score for cell, e in found.items()} == {
        cell: -table.score(opp, me | 1 << cell) for cell in board.legal_moves
    }
    assert best_move(board, seed=3) in found.best_cells
    assert ExactSolver(board._geo).exact(me, opp) == table.score(me, opp)
