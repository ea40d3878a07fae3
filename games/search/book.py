"""The 5x5 opening book: positions near the start, solved once and shipped.

Pure Python, no Django. ``scripts/build_book`` builds it (``build``), checks it
against the search (``verify``) and writes ``games/data/opening-book-5x5.bin``;
the engine loads it on its first 5x5 question (``load_or_none``).

Which positions: the perfect AI's own games. For the AI as X (opening in the
centre, or anywhere when it opens at random) and as O, every position where the
AI is to move, up to ``x_plies`` and ``o_plies`` marks on the board, after any
replies of its opponent: the book
holds each one's exact score, and the position after the cell the AI plays
there, marked as the AI's line so that the AI keeps to it. The AI's move and
the analysis of its opponent's turn are look-ups while the game stays in the
book. Everything else is solved by the search.

The file (little-endian): ``MAGIC``, then size, marks in a row and the deepest
ply (one byte each, a zero byte), the number of entries (uint32), the SHA-256
of the payload, and the payload: zlib of the sorted keys (uint64), their
scores (int16) and a byte per key, 1 where the position is on the AI's line.
A key is the engine's canonical form of a position, ``mover | other << 25``; a
score is the engine's depth-aware score for the mover.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import random
import struct
import sys
import time
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path

from games.rules import GEOMETRY, Board
from games.search.solver import ExactSolver

logger = logging.getLogger(__name__)

MAGIC = b"TTTBOOK\x02"
_HEADER = struct.Struct("<8sBBBBI32s")
#: Where the book ships; tests and the build script may point elsewhere.
BOOK_PATH = Path(__file__).resolve().parent.parent / "data" / "opening-book-5x5.bin"


class BookError(Exception):
    """The book file is missing, damaged or for another board."""


@dataclass(frozen=True)
class Book:
    """Solved positions: canonical key -> exact score for the player to move,
    and the keys of the positions the AI's own moves lead to (its line)."""

    scores: dict[int, int]
    line: frozenset[int]
    max_ply: int
    path: Path


def dump(scores: dict[int, int], line: set[int], max_ply: int, path: Path) -> int:
    """Write a book file; returns its size in bytes."""
    keys = array("Q", sorted(scores))
    values = array("h", (scores[key] for key in keys))
    marks = bytes(key in line for key in keys)
    if sys.byteorder != "little":
        keys.byteswap()
        values.byteswap()
    payload = zlib.compress(keys.tobytes() + values.tobytes() + marks, 9)
    header = _HEADER.pack(MAGIC, 5, 4, max_ply, 0, len(keys), hashlib.sha256(payload).digest())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(header + payload)
    temporary.replace(path)
    return len(header) + len(payload)


def load(path: Path | None = None) -> Book:
    """Read and check a book file; ``BookError`` says what is wrong with it."""
    path = Path(path or BOOK_PATH)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise BookError(f"cannot read the opening book {path}: {error.strerror or error}") from error
    if len(data) < _HEADER.size:
        raise BookError(f"the opening book {path} is truncated ({len(data)} bytes)")
    magic, size, k, max_ply, _, count, digest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BookError(f"{path} is not an opening book (it does not start with {MAGIC!r})")
    if (size, k) != (5, 4):
        raise BookError(f"the opening book {path} is for {size}x{size}, {k} in a row, not 5x5, four in a row")
    payload = data[_HEADER.size :]
    if hashlib.sha256(payload).digest() != digest:
        raise BookError(f"the opening book {path} is damaged: its checksum does not match")
    try:
        raw = zlib.decompress(payload)
    except zlib.error as error:
        raise BookError(f"the opening book {path} is damaged: {error}") from error
    if len(raw) != count * 11:
        raise BookError(f"the opening book {path} is damaged: {len(raw)} bytes for {count} entries")
    keys = array("Q")
    keys.frombytes(raw[: count * 8])
    values = array("h")
    values.frombytes(raw[count * 8 : count * 10])
    marks = raw[count * 10 :]
    if sys.byteorder != "little":
        keys.byteswap()
        values.byteswap()
    line = frozenset(key for key, mark in zip(keys, marks, strict=True) if mark)
    return Book(dict(zip(keys, values, strict=True)), line, max_ply, path)


def load_or_none(path: Path | None = None) -> Book | None:
    """The book, or None (logged) when it cannot be used: the engine then
    solves every position itself, more slowly but just as exactly."""
    start = time.perf_counter()
    try:
        book = load(path)
    except BookError as error:
        logger.warning("%s; 5x5 positions will be solved by search alone (slower, still exact)", error)
        return None
    logger.info("loaded the 5x5 opening book: %d positions in %.2f s", len(book.scores), time.perf_counter() - start)
    return book


# --------------------------------------------------------------------------
# Building and checking (scripts/build_book).


def _build_side(args: tuple[str, int, int]) -> tuple[dict[int, int], set[int]]:
    """The book entries of the AI's games as ``side``, up to ``max_ply`` marks,
    and the keys of the positions its moves lead to."""
    side, max_ply, table_limit = args
    geo = GEOMETRY[5]
    solver = ExactSolver(geo, table_limit=table_limit)
    entries: dict[int, int] = {}
    line: set[int] = set()
    seen: set[int] = set()
    start = time.perf_counter()
    decisions = 0

    def key_of(me: int, opp: int) -> int:
        return solver.canonical(me | opp << geo.cells)

    def visit(board: Board) -> None:
        nonlocal decisions
        if board.is_game_over():
            return
        me, opp = board._mover_masks()
        key = key_of(me, opp)
        if key in seen:
            return
        seen.add(key)
        if board.to_move != side:
            for cell in board.legal_moves:  # every reply the opponent may make
                visit(board.play(cell))
            return
        if board.ply > max_ply:
            return
        if board.ply == 0:
            cells = list(geo.centre)  # the AI opens in the centre
        else:
            cells = list(geo.order)
        cells = [c for c in cells if c in board.legal_moves]
        value = solver.exact(me, opp)
        cell = next(iter(solver.best_cells(me, opp, value, cells)))
        entries[key] = value
        after = board.play(cell)
        if not after.is_game_over():  # the search never asks about a finished game
            chosen = key_of(opp, me | 1 << cell)
            entries[chosen] = -value
            line.add(chosen)
        decisions += 1
        if decisions % 200 == 0:
            print(f"  {side}: {decisions} positions solved, {time.perf_counter() - start:.0f} s", flush=True)
        visit(after)
        if board.ply == 0:
            # The AI may also open anywhere (the "random" start mode): its games
            # after every first move are in the book too, off its line.
            for first in board.legal_moves:
                visit(board.play(first))

    visit(Board.empty(5))
    print(f"  {side}: {decisions} positions solved in {time.perf_counter() - start:.0f} s", flush=True)
    return entries, line


def build(x_plies: int, o_plies: int, jobs: int = 2, table_limit: int = 4_000_000) -> tuple[dict[int, int], set[int]]:
    """Solve the book's positions: the AI's games as X up to ``x_plies`` marks
    and as O up to ``o_plies``, on up to ``jobs`` processes (one per side)."""
    work = [("X", x_plies, table_limit), ("O", o_plies, table_limit)]
    if jobs > 1:
        from multiprocessing import Pool

        with Pool(min(jobs, 2)) as pool:
            parts = pool.map(_build_side, work)
    else:
        parts = [_build_side(item) for item in work]
    scores: dict[int, int] = {}
    line: set[int] = set()
    for part_scores, part_line in parts:
        scores.update(part_scores)
        line |= part_line
    return scores, line


def verify(book: Book, sample: int, seed: int = 0) -> list[str]:
    """Solve ``sample`` of the book's positions afresh, without the book, and
    return a line for each one whose score differs (none, for a good book)."""
    geo = GEOMETRY[5]
    rng = random.Random(seed)
    keys = rng.sample(sorted(book.scores), min(sample, len(book.scores)))
    wrong = []
    for key in keys:
        me, opp = key & geo.full, key >> geo.cells
        solver = ExactSolver(geo)
        score = solver.exact(me, opp)
        if score != book.scores[key]:
            wrong.append(f"key {key}: the book says {book.scores[key]}, the search {score}")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/build_book", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="solve the book's positions and write the book file")
    make.add_argument("--x-plies", type=int, default=6, help="deepest position with the AI (X) to move")
    make.add_argument("--o-plies", type=int, default=5, help="deepest position with the AI (O) to move")
    make.add_argument("--jobs", type=int, default=2, help="processes (one per side, at most 2)")
    make.add_argument("--out", type=Path, default=BOOK_PATH)
    check = commands.add_parser("verify", help="re-solve a sample of the book's positions without it")
    check.add_argument("--sample", type=int, default=200)
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--book", type=Path, default=BOOK_PATH)
    args = parser.parse_args(argv)
    if args.command == "build":
        if not 0 <= args.x_plies <= 8 or not 0 <= args.o_plies <= 8:
            parser.error("--x-plies and --o-plies go from 0 to 8 (the engine's symmetry table covers 8 plies)")
        start = time.perf_counter()
        scores, line = build(args.x_plies, args.o_plies, args.jobs)
        written = dump(scores, line, max(args.x_plies, args.o_plies) + 1, args.out)
        print(f"{len(scores)} positions, {written} bytes in {args.out}, built in {time.perf_counter() - start:.0f} s")
        return 0
    book = load(args.book)
    start = time.perf_counter()
    wrong = verify(book, args.sample, args.seed)
    for line in wrong:
        print(line)
    checked = min(args.sample, len(book.scores))
    print(
        f"{checked} of {len(book.scores)} positions re-solved in {time.perf_counter() - start:.0f} s: {len(wrong)} wrong"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
