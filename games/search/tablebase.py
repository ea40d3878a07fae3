"""The 5x5 tablebase: the exact value of every position with up to six marks.

Pure Python, no Django. Like a chess endgame tablebase, it is generated once
by a compiled search (``scripts/build_table build``, which drives
``games.search.core``) and probed here in pure Python: the engine memory-maps
``games/data/tablebase-5x5.bin`` on its first 5x5 question and a probe is a
few integer operations and one byte read. Every position with up to five
marks is then answered by look-ups alone (its moves lead to positions the
table holds), and the searches beyond it start six marks in.

Every position, not one per symmetry class: 4,156,726 of them, one byte each,
so that a position's place in the file is its rank and no canonical form is
needed to find it. Marks ``m`` hold X's ``(m + 1) // 2`` cells and O's
``m // 2``; within the block of positions with ``m`` marks, a position's
index is ``rank(X's cells) * C(25 - x, o) + rank(O's cells among the cells X
left)``, where ``rank`` is the colexicographic rank of a set of cells. No such
position is finished (X needs seven marks on the board to have four), so each
byte is the outcome for the player to move: ``d`` > 0 wins after ``d`` more
plies, ``-d`` loses after ``d``, 0 is a draw.

The file (little-endian): ``MAGIC``, board size, marks in a row and the most
marks held (one byte each, a zero byte), the number of positions (uint32),
the SHA-256 of the payload, then the payload: the positions' bytes, blocks of
0, 1, ... marks in turn.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import mmap
import os
import random
import struct
import sys
import time
from array import array
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from pathlib import Path

from games.rules import GEOMETRY
from games.search.solver import INF, PROVEN, WIN, ExactSolver

logger = logging.getLogger(__name__)

MAGIC = b"TTTBASE\x01"
_HEADER = struct.Struct("<8sBBBBI32s")
#: Where the table ships; tests and the build script may point elsewhere.
TABLE_PATH = Path(__file__).resolve().parent.parent / "data" / "tablebase-5x5.bin"
#: The most marks a position in the shipped table has.
MARKS = 6
CELLS = 25

_BINOMIAL = [[comb(n, r) for r in range(MARKS + 2)] for n in range(CELLS + 1)]


def _sides(marks: int) -> tuple[int, int]:
    """How many cells X and O hold in a position with ``marks`` marks."""
    return (marks + 1) // 2, marks // 2


def block_size(marks: int) -> int:
    x, o = _sides(marks)
    return comb(CELLS, x) * comb(CELLS - x, o)


def _offsets(most: int) -> list[int]:
    offsets = [0]
    for marks in range(most + 1):
        offsets.append(offsets[-1] + block_size(marks))
    return offsets


def position_index(x: int, o: int) -> int:
    """A position's place within the block of its number of marks: the rank of
    X's cells, then of O's among the cells X left free."""
    rank_x = 0
    i = 1
    bits = x
    while bits:
        low = bits & -bits
        rank_x += _BINOMIAL[low.bit_length() - 1][i]
        i += 1
        bits ^= low
    rank_o = 0
    j = 1
    bits = o
    while bits:
        low = bits & -bits
        rank_o += _BINOMIAL[low.bit_length() - 1 - (x & (low - 1)).bit_count()][j]
        j += 1
        bits ^= low
    return rank_x * _BINOMIAL[CELLS - i + 1][j - 1] + rank_o


def to_byte(score: int, marks: int) -> int:
    """A depth-aware score (``games.search.solver``) as the table's byte."""
    if score > PROVEN:
        return WIN - score - marks
    if score < -PROVEN:
        return -(WIN + score - marks)
    return 0


def to_score(value: int, marks: int) -> int:
    """The table's byte as a depth-aware score for the player to move."""
    if value > 0:
        return WIN - marks - value
    if value < 0:
        return marks - value - WIN
    return 0


class TablebaseError(Exception):
    """The table file is missing, damaged or for another board."""


@dataclass
class Tablebase:
    """Exact values of every 5x5 position with up to ``marks`` marks."""

    marks: int
    path: Path
    values: memoryview  # signed bytes, one per position
    _offsets: list[int] = field(repr=False)

    def score(self, me: int, opp: int) -> int:
        """The depth-aware score of a position for the player to move
        (``me``), who is X when the marks are even."""
        marks = (me | opp).bit_count()
        x, o = (me, opp) if marks % 2 == 0 else (opp, me)
        return to_score(self.values[self._offsets[marks] + position_index(x, o)], marks)

    def __len__(self) -> int:
        return len(self.values)


def dump(blocks: list[bytes], path: Path) -> int:
    """Write a table from its blocks (0, 1, ... marks); returns its size in bytes."""
    for marks, block in enumerate(blocks):
        if len(block) != block_size(marks):
            raise ValueError(f"the block of {marks} marks has {len(block)} positions, not {block_size(marks)}")
    payload = b"".join(blocks)
    header = _HEADER.pack(MAGIC, 5, 4, len(blocks) - 1, 0, len(payload), hashlib.sha256(payload).digest())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(header + payload)
    temporary.replace(path)
    return len(header) + len(payload)


def load(path: Path | None = None) -> Tablebase:
    """Map and check a table file; ``TablebaseError`` says what is wrong with it."""
    path = Path(path or TABLE_PATH)
    try:
        with path.open("rb") as file:
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
        reason = getattr(error, "strerror", None) or error
        raise TablebaseError(f"cannot read the tablebase {path}: {reason}") from error
    if len(mapped) < _HEADER.size:
        raise TablebaseError(f"the tablebase {path} is truncated ({len(mapped)} bytes)")
    magic, size, k, most, _, count, digest = _HEADER.unpack_from(mapped)
    if magic != MAGIC:
        raise TablebaseError(f"{path} is not a tablebase (it does not start with {MAGIC!r})")
    if (size, k) != (5, 4):
        raise TablebaseError(f"the tablebase {path} is for {size}x{size}, {k} in a row, not 5x5, four in a row")
    offsets = _offsets(most) if most <= MARKS else [0]
    if most > MARKS or count != offsets[-1] or len(mapped) != _HEADER.size + count:
        raise TablebaseError(f"the tablebase {path} is damaged: {len(mapped) - _HEADER.size} bytes for {most} marks")
    values = memoryview(mapped)[_HEADER.size :]
    if hashlib.sha256(values).digest() != digest:
        raise TablebaseError(f"the tablebase {path} is damaged: its checksum does not match")
    return Tablebase(most, path, values.cast("b"), offsets)


def load_or_none(path: Path | None = None) -> Tablebase | None:
    """The table (at ``ENGINE_TABLEBASE`` when that is set), or None (logged)
    when it cannot be used: the engine then searches every position itself,
    more slowly but just as exactly."""
    start = time.perf_counter()
    try:
        table = load(path or os.environ.get("ENGINE_TABLEBASE") or None)
    except TablebaseError as error:
        logger.error("%s; 5x5 positions will be solved by search alone (slower, still exact)", error)
        return None
    logger.info(
        "loaded the 5x5 tablebase: %d positions up to %d marks in %.2f s",
        len(table),
        table.marks,
        time.perf_counter() - start,
    )
    return table


# --------------------------------------------------------------------------
# Generating and checking (scripts/build_table).


def _positions(marks: int):
    """Every (X, O) pair of cell masks with ``marks`` marks."""
    nx, no = _sides(marks)
    for xs in combinations(range(CELLS), nx):
        x = sum(1 << c for c in xs)
        free = [c for c in range(CELLS) if not x >> c & 1]
        for os_ in combinations(free, no):
            yield x, sum(1 << c for c in os_)


_worker_solver: ExactSolver | None = None


def _solve_chunk(positions: list[tuple[int, int]]) -> bytes:
    """The bytes of positions with the deepest number of marks, solved by the
    compiled search (one solver per worker process, its memory kept)."""
    global _worker_solver
    if _worker_solver is None:
        from games.search import core

        geo = GEOMETRY[5]
        _worker_solver = ExactSolver(
            geo, core=core.CoreSearch(core.load(), geo, ExactSolver.SYMMETRY_PLIES, table_bits=24)
        )
    out = bytearray()
    for x, o in positions:
        marks = (x | o).bit_count()
        me, opp = (x, o) if marks % 2 == 0 else (o, x)
        out.append(to_byte(_worker_solver.exact(me, opp), marks) & 255)
    return bytes(out)


def _deepest_block(marks: int, work: Path, jobs: int, chunk: int = 2000) -> bytearray:
    """Solve one position per symmetry class with ``marks`` marks, chunk by
    chunk: each chunk's answer is kept in ``work`` as it is made, so an
    interrupted build goes on where it stopped. Then every position takes its
    class's value."""
    canonical = ExactSolver(GEOMETRY[5]).canonical
    full = (1 << CELLS) - 1
    size = block_size(marks)
    class_of = array("I", bytes(4 * size))
    representatives = []
    for x, o in _positions(marks):
        here = position_index(x, o)
        key = canonical(x | o << CELLS)
        there = position_index(key & full, key >> CELLS)
        class_of[here] = there
        if there == here:
            representatives.append((here, x, o))
    representatives.sort()
    print(f"  {marks} marks: {size} positions, {len(representatives)} up to symmetry", flush=True)
    chunks = [representatives[i : i + chunk] for i in range(0, len(representatives), chunk)]
    folder = work / f"marks-{marks}"
    folder.mkdir(parents=True, exist_ok=True)
    todo = [n for n in range(len(chunks)) if not (folder / f"{n:05d}.bin").exists()]
    print(f"  {len(chunks) - len(todo)} of {len(chunks)} chunks solved already", flush=True)
    start = time.perf_counter()

    def keep(n: int, answer: bytes) -> None:
        temporary = folder / f"{n:05d}.tmp"
        temporary.write_bytes(answer)
        temporary.replace(folder / f"{n:05d}.bin")

    work_items = [[(x, o) for _, x, o in chunks[n]] for n in todo]
    if jobs > 1 and todo:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            for done, (n, answer) in enumerate(zip(todo, pool.imap(_solve_chunk, work_items), strict=True), 1):
                keep(n, answer)
                _progress(done, len(todo), start)
    else:
        for done, (n, items) in enumerate(zip(todo, work_items, strict=True), 1):
            keep(n, _solve_chunk(items))
            _progress(done, len(todo), start)
    values = bytearray(size)
    for n, part in enumerate(chunks):
        answer = (folder / f"{n:05d}.bin").read_bytes()
        if len(answer) != len(part):
            raise TablebaseError(f"{folder / f'{n:05d}.bin'} is damaged; delete it and build again")
        for (here, _, _), value in zip(part, answer, strict=True):
            values[here] = value
    for here in range(size):
        values[here] = values[class_of[here]]
    return values


def _progress(done: int, total: int, start: float) -> None:
    if done % 10 and done != total:
        return
    spent = time.perf_counter() - start
    print(f"    {done} of {total} chunks, {spent:.0f} s, about {spent / done * (total - done):.0f} s to go", flush=True)


def _block_from_next(marks: int, deeper: bytes) -> bytearray:
    """Every position with ``marks`` marks, valued from the positions its
    moves lead to (none of them finished: too few marks for a line)."""
    values = bytearray(block_size(marks))
    for x, o in _positions(marks):
        x_to_move = marks % 2 == 0
        empty = ~(x | o) & ((1 << CELLS) - 1)
        best = -INF
        while empty:
            low = empty & -empty
            empty ^= low
            child = position_index(x | low, o) if x_to_move else position_index(x, o | low)
            value = deeper[child]
            score = -to_score(value - 256 if value > 127 else value, marks + 1)
            if score > best:
                best = score
        values[position_index(x, o)] = to_byte(best, marks) & 255
    return values


def build(work: Path, marks: int = MARKS, jobs: int = 2) -> list[bytes]:
    """Every position up to ``marks`` marks: the deepest solved by the compiled
    search, one per symmetry class, the rest from the positions after them."""
    if not 0 <= marks <= MARKS:
        raise ValueError(f"a table holds 0 to {MARKS} marks (with seven, a position may be finished)")
    blocks = [bytes(_deepest_block(marks, work, jobs))]
    for fewer in range(marks - 1, -1, -1):
        start = time.perf_counter()
        blocks.insert(0, bytes(_block_from_next(fewer, blocks[0])))
        print(f"  {fewer} marks: {block_size(fewer)} positions in {time.perf_counter() - start:.0f} s", flush=True)
    return blocks


def random_position(rng: random.Random, least: int, most: int) -> tuple[int, int]:
    """A position with ``least`` to ``most`` marks, at random: (X's cells, O's cells)."""
    marks = rng.randint(least, most)
    nx, no = _sides(marks)
    cells = rng.sample(range(CELLS), nx + no)
    return sum(1 << c for c in cells[:nx]), sum(1 << c for c in cells[nx:])


def verify(table: Tablebase, sample: int, seed: int = 0, least: int = 5) -> list[str]:
    """Solve ``sample`` random positions of the table afresh with the Python
    search (no table, no compiled core, no memory) and return a line for each
    one whose value differs (none, for a good table). ``least`` is the fewest
    marks of a position drawn (fewer marks take the search longer)."""
    geo = GEOMETRY[5]
    rng = random.Random(seed)
    wrong = []
    for _ in range(sample):
        x, o = random_position(rng, least, table.marks)
        marks = (x | o).bit_count()
        me, opp = (x, o) if marks % 2 == 0 else (o, x)
        expected = table.score(me, opp)
        score = ExactSolver(geo).exact(me, opp)
        if score != expected:
            wrong.append(f"X {x:#x}, O {o:#x}: the table says {expected}, the search {score}")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/build_table", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="solve every position up to --marks marks and write the table")
    make.add_argument("--marks", type=int, default=MARKS, help=f"most marks a position holds (0 to {MARKS})")
    make.add_argument("--jobs", type=int, default=2, help="processes solving the deepest positions")
    make.add_argument("--work", type=Path, default=Path("build/tablebase"), help="where solved chunks are kept")
    make.add_argument("--out", type=Path, default=TABLE_PATH)
    check = commands.add_parser("verify", help="re-solve random positions without the table")
    check.add_argument("--sample", type=int, default=200)
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--least", type=int, default=5, help="fewest marks of a position drawn (default 5)")
    check.add_argument("--table", type=Path, default=TABLE_PATH)
    args = parser.parse_args(argv)
    if args.command == "build":
        if not 0 <= args.marks <= MARKS:
            parser.error(f"--marks goes from 0 to {MARKS}")
        start = time.perf_counter()
        blocks = build(args.work, args.marks, args.jobs)
        written = dump(blocks, args.out)
        print(
            f"{sum(map(len, blocks))} positions, {written} bytes in {args.out}, built in {time.perf_counter() - start:.0f} s"
        )
        return 0
    try:
        table = load(args.table)
    except TablebaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    wrong = verify(table, args.sample, args.seed, args.least)
    for line in wrong:
        print(line)
    print(f"{args.sample} positions re-solved in {time.perf_counter() - start:.0f} s: {len(wrong)} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
