"""The 5x5 opening book: what ships is right, and a bad file never makes a wrong move."""

import logging
import random
from collections import OrderedDict

import pytest

from games import rules
from games.engine import Board, analyse, best_move
from games.search import analysis, registry, solver
from games.search import book as opening_book


@pytest.fixture
def fresh_solvers(monkeypatch):
    """The engine's solvers and remembered analyses made anew for the test, and put back after."""
    monkeypatch.setattr(registry, "_SOLVERS", {})
    monkeypatch.setattr(analysis, "_ANALYSES", OrderedDict())


def test_the_shipped_book_proves_5x5_a_draw_and_follows_the_ai_line():
    book = opening_book.load()
    assert len(book.scores) > 1000
    assert book.scores[0] == 0  # the empty board: a draw with perfect play (C. Y. Lee)
    assert book.line and book.line <= set(book.scores)
    # The AI's first move as X is the centre, and it is on the book's line.
    board = Board.empty(5)
    assert best_move(board, seed=1) == 12


def test_the_shipped_book_agrees_with_the_search_on_a_sample_of_its_deepest_entries():
    book = opening_book.load()
    geo = rules.GEOMETRY[5]
    deepest = max(key.bit_count() for key in book.scores)
    keys = sorted(key for key in book.scores if key.bit_count() >= deepest - 1)
    for key in random.Random(14).sample(keys, 4):
        me, opp = key & geo.full, key >> geo.cells
        assert not any(opp & line == line for line in geo.lines), "the book holds only unfinished games"
        assert solver.ExactSolver(geo).exact(me, opp) == book.scores[key], key


def test_a_book_round_trips_through_its_file(tmp_path):
    path = tmp_path / "book.bin"
    size = opening_book.dump({5: 0, 1 << 30: -990, 7: 985}, {7}, 3, path)
    assert size == path.stat().st_size
    book = opening_book.load(path)
    assert (book.scores, book.line, book.max_ply) == ({5: 0, 1 << 30: -990, 7: 985}, {7}, 3)


def _damaged(tmp_path, how):
    good = opening_book.BOOK_PATH.read_bytes()
    path = tmp_path / "book.bin"
    if how == "missing":
        return path
    if how == "truncated":
        path.write_bytes(good[:20])
    elif how == "not a book":
        path.write_bytes(b"PK\x03\x04" + good[4:])
    elif how == "flipped byte":
        data = bytearray(good)
        data[-5] ^= 0xFF
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("missing", "cannot read the opening book"),
        ("truncated", "is truncated"),
        ("not a book", "is not an opening book"),
        ("flipped byte", "checksum does not match"),
    ],
)
def test_a_missing_or_damaged_book_is_refused_with_a_clear_error(tmp_path, how, message):
    with pytest.raises(opening_book.BookError, match=message):
        opening_book.load(_damaged(tmp_path, how))


def test_without_its_book_the_engine_says_so_and_still_plays_and_analyses_exactly(
    tmp_path, monkeypatch, caplog, fresh_solvers
):
    monkeypatch.setattr(opening_book, "BOOK_PATH", _damaged(tmp_path, "flipped byte"))
    board = Board.from_string("XOX.OOXO.XX....O.X......O")
    with caplog.at_level(logging.WARNING, logger="games.search.book"):
        analysis = analyse(board)
    assert "checksum does not match" in caplog.text and "solved by search alone" in caplog.text
    assert not registry.solver_for(5).book
    assert analysis.exact
    me, opp = board._mover_masks()
    fresh = solver.ExactSolver(board._geo)
    assert {cell: e.score for cell, e in analysis.items()} == {
        cell: fresh.score_move(me, opp, cell) for cell in board.legal_moves
    }
    assert best_move(board, seed=3) in analysis.best_cells


def test_the_ai_keeps_to_the_books_line_after_the_position_was_analysed():
    # An analysis of the empty board finds every cell a draw; the AI still
    # opens where the book's line does, as it does before any analysis.
    board = Board.empty(5)
    before = best_move(board, seed=1)
    analysed = analyse(board, budget=30)
    assert analysed.exact and len(analysed.best_cells) == 25
    assert {best_move(board, seed=seed) for seed in range(5)} == {before} == {12}
