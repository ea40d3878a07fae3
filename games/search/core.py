"""The compiled search core: ``core.c``, the exact search of ``solver.py`` in C.

Pure Python, no Django. ``python -m games.search.core build`` compiles
``core.c`` into ``libtttcore.so`` beside it (``scripts/run`` and ``scripts/test`` do
it through ``scripts/venv.sh``); :func:`load_or_none` loads it with ctypes.
The library carries the SHA-256 of the source it was built from, and one
built from another source is refused, so a stale build never answers.

Without the library (no compiler, a failed build, ``ENGINE_CORE=python``) the
engine runs the Python search of ``solver.py``: the same answers, more slowly.
The tests hold the two to the same scores.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from games.rules import Geometry

logger = logging.getLogger(__name__)

SOURCE = Path(__file__).with_name("core.c")
LIBRARY = Path(__file__).with_name("libtttcore.so")
#: Positions the core's memory holds: 2**21 entries of 16 bytes, 32 MiB.
TABLE_BITS = 21


class CoreError(Exception):
    """The core cannot be built or loaded."""


def source_digest(source: Path = SOURCE) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def _declare(library: ctypes.CDLL) -> ctypes.CDLL:
    library.ttt_core_source.restype = ctypes.c_char_p
    library.ttt_core_source.argtypes = []
    library.ttt_core_timed_out_score.restype = ctypes.c_int
    library.ttt_core_new.restype = ctypes.c_void_p
    library.ttt_core_new.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_uint32),
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.c_int,
    ]
    library.ttt_core_free.argtypes = [ctypes.c_void_p]
    library.ttt_core_free.restype = None
    library.ttt_core_clear.argtypes = [ctypes.c_void_p]
    library.ttt_core_clear.restype = None
    library.ttt_core_nodes.argtypes = [ctypes.c_void_p]
    library.ttt_core_nodes.restype = ctypes.c_uint64
    library.ttt_core_search.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_double,
    ]
    library.ttt_core_search.restype = ctypes.c_int
    return library


def load(path: Path = LIBRARY, source: Path = SOURCE) -> ctypes.CDLL:
    """The built library, checked against the source; ``CoreError`` says why not."""
    if not path.exists():
        raise CoreError(f"the search core {path} is not built (python -m games.search.core build)")
    try:
        library = _declare(ctypes.CDLL(str(path)))
    except (OSError, AttributeError) as error:
        raise CoreError(f"cannot load the search core {path}: {error}") from error
    built_from = library.ttt_core_source().decode("ascii", "replace")
    if built_from != source_digest(source):
        raise CoreError(f"the search core {path} was built from another {source.name}; build it again")
    return library


_LOADED: list[ctypes.CDLL | None] = []


def load_or_none() -> ctypes.CDLL | None:
    """The library, once per process, or None (logged) when it cannot be
    used or ``ENGINE_CORE=python`` asks for the Python search."""
    if not _LOADED:
        if os.environ.get("ENGINE_CORE", "").lower() == "python":
            logger.info("ENGINE_CORE=python: the engine searches in Python")
            _LOADED.append(None)
        else:
            try:
                _LOADED.append(load())
            except CoreError as error:
                logger.warning("%s; the engine searches in Python (slower, same answers)", error)
                _LOADED.append(None)
    return _LOADED[0]


class CoreSearch:
    """One board's compiled search with its own memory (not shared, not
    thread-safe: its owner holds a lock around every call)."""

    def __init__(self, library: ctypes.CDLL, geo: Geometry, symmetry_plies: int, table_bits: int = TABLE_BITS):
        self._library = library
        self._handle = None  # until the core has made one: __del__ frees only what was made
        lines = (ctypes.c_uint32 * len(geo.lines))(*geo.lines)
        order = (ctypes.c_int * geo.cells)(*geo.order)
        others = [cell for perm in geo.symmetries[1:] for cell in perm]
        perms = (ctypes.c_int * len(others))(*others)
        handle = library.ttt_core_new(
            geo.cells,
            geo.k,
            len(geo.lines),
            lines,
            order,
            len(geo.symmetries) - 1,
            perms,
            symmetry_plies,
            table_bits,
        )
        if not handle:
            raise CoreError(f"the search core refused {geo.name} or had no memory for 2**{table_bits} positions")
        self._handle = handle
        self._timed_out = library.ttt_core_timed_out_score()

    def __del__(self):
        if self._handle:
            self._library.ttt_core_free(self._handle)
            self._handle = None

    @property
    def nodes(self) -> int:
        """Positions visited by every search so far."""
        return self._library.ttt_core_nodes(self._handle)

    def clear(self) -> None:
        """Forget every position searched so far."""
        self._library.ttt_core_clear(self._handle)

    def search(self, me: int, opp: int, alpha: int, beta: int, budget: float | None = None) -> int | None:
        """The exact score for the mover inside (alpha, beta), or a bound
        outside it; None when ``budget`` seconds ran out first."""
        score = self._library.ttt_core_search(self._handle, me, opp, alpha, beta, -1.0 if budget is None else budget)
        return None if score == self._timed_out else score


# --------------------------------------------------------------------------
# Building (scripts/venv.sh runs ``python -m games.search.core build``).


def build(out: Path = LIBRARY, source: Path = SOURCE) -> Path:
    """Compile the core with the system's C compiler; ``CoreError`` if it cannot."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        raise CoreError("no C compiler (cc) to build the search core with")
    temporary = out.with_suffix(".so.tmp")
    command = [
        compiler,
        "-O2",
        "-std=c11",
        "-D_POSIX_C_SOURCE=199309L",
        "-shared",
        "-fPIC",
        f'-DCORE_SOURCE="{source_digest(source)}"',
        "-o",
        str(temporary),
        str(source),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        temporary.unlink(missing_ok=True)
        raise CoreError(f"building the search core failed:\n{result.stderr.strip()}")
    temporary.replace(out)
    return out


def is_current(path: Path = LIBRARY, source: Path = SOURCE) -> bool:
    """Whether ``path`` is built from ``source`` as it is now (checked in a
    child process, so that this one never holds an old library)."""
    if not path.exists():
        return False
    check = f"from pathlib import Path; from games.search import core; core.load(Path({str(path)!r}), Path({str(source)!r}))"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, cwd=Path(__file__).parents[2])
    return result.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.search.core", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="compile core.c into libtttcore.so")
    make.add_argument(
        "--if-stale", action="store_true", help="only when libtttcore.so is missing or from another core.c"
    )
    args = parser.parse_args(argv)
    if args.if_stale and is_current():
        return 0
    try:
        built = build()
    except CoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"built the search core {built.relative_to(Path.cwd()) if built.is_relative_to(Path.cwd()) else built}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
