"""The compiled search core (games/search/core.c): built by the project's own
install step, the same answers as the Python search, and never used stale."""

import logging
import random
import shutil
from collections import OrderedDict

import pytest

from bench.positions import random_position
from games.engine import Board, analyse
from games.rules import GEOMETRY
from games.search import analysis, core, registry
from games.search.solver import INF, ExactSolver, Timeout


def _positions(size: int, marks: int, count: int, seed: int, clustered: bool = False) -> list[Board]:
    rng = random.Random(seed)
    return [random_position(rng, marks, clustered, size) for _ in range(count)]


def _solvers(size: int) -> tuple[ExactSolver, ExactSolver]:
    geo = GEOMETRY[size]
    compiled = core.CoreSearch(core.load(), geo, ExactSolver.SYMMETRY_PLIES, table_bits=16)
    return ExactSolver(geo), ExactSolver(geo, core=compiled)


def test_the_install_step_built_the_core_from_this_source_and_the_engine_uses_it():
    library = core.load()  # a missing or stale build is a CoreError: a failure, not a skip
    assert library.ttt_core_source().decode() == core.source_digest()
    assert registry.solver_for(5).core is not None
    assert registry.solver_for(4).core is not None


@pytest.mark.parametrize(("size", "marks"), [(4, 0), (4, 3), (4, 6), (4, 9), (5, 9), (5, 11), (5, 14), (5, 18)])
def test_the_core_and_the_python_search_give_every_position_the_same_exact_score(size, marks):
    python, compiled = _solvers(size)
    for clustered in (False, True):
        for board in _positions(size, marks, 4, seed=marks, clustered=clustered):
            me, opp = board._mover_masks()
            value = python.exact(me, opp)
            assert compiled.exact(me, opp) == value, str(board)
            # A window the score lies outside of gives a bound on the right side.
            assert compiled.search(me, opp, value, INF) <= value
            assert compiled.search(me, opp, -INF, value) >= value
            for cell in board.legal_moves:
                assert compiled.score_move(me, opp, cell) == python.score_move(me, opp, cell), (str(board), cell)


def test_the_core_and_the_python_search_pick_the_same_best_cells():
    python, compiled = _solvers(5)
    for board in _positions(5, 10, 3, seed=7, clustered=True):
        me, opp = board._mover_masks()
        value = python.exact(me, opp)
        cells = board.legal_moves
        assert list(compiled.best_cells(me, opp, value, cells)) == list(python.best_cells(me, opp, value, cells))


def test_a_core_search_past_its_deadline_stops_and_the_analysis_says_not_solved():
    _, compiled = _solvers(5)
    board = Board.from_string("X.......................O")
    me, opp = board._mover_masks()
    compiled.deadline = 0.0  # long past
    with pytest.raises(Timeout):
        compiled.score_move(me, opp, 12)
    compiled.deadline = None
    assert compiled.core.search(me, opp, -INF, INF, budget=0.001) is None  # the core's own clock


def test_a_core_built_from_another_source_is_refused(tmp_path):
    source = tmp_path / "core.c"
    shutil.copy(core.SOURCE, source)
    library = core.build(tmp_path / "libtttcore.so", source)
    assert core.load(library, source)  # the build of this copy loads
    source.write_text(source.read_text() + "\n/* changed */\n")
    with pytest.raises(core.CoreError, match="built from another core.c"):
        core.load(library, source)
    with pytest.raises(core.CoreError, match="is not built"):
        core.load(tmp_path / "missing.so", source)


def test_with_engine_core_python_the_engine_searches_in_python_with_the_same_answers(monkeypatch, caplog):
    board = _positions(5, 9, 1, seed=21, clustered=True)[0]
    with_core = {cell: e.score for cell, e in analyse(board).items()}
    monkeypatch.setenv("ENGINE_CORE", "python")
    monkeypatch.setattr(core, "_LOADED", [])
    monkeypatch.setattr(registry, "_SOLVERS", {})
    monkeypatch.setattr(analysis, "_ANALYSES", OrderedDict())
    with caplog.at_level(logging.INFO, logger="games.search.core"):
        assert core.load_or_none() is None
    assert "the engine searches in Python" in caplog.text
    assert registry.solver_for(5).core is None
    assert {cell: e.score for cell, e in analyse(board).items()} == with_core
