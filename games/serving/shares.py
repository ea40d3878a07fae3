"""Even shares of the clients' kept-open connections among the page workers.

granian's workers each listen on the site's port (``SO_REUSEPORT``) and the
kernel hands each new connection to one of them at random; the connection
then stays with that worker for as long as the client keeps it open, and
the worker's requests wait in its own queue. With many clients the shares
come out even by chance; with a few that keep their connections open (a
proxy's pool, a load test) they often do not: 20 and 12 of 32 is common, and
the clients of the worker with 20 wait two thirds longer than the others
(docs/benchmarks.md, the eleventh session).

``EvenShares`` wraps the WSGI application (tttsite/wsgi.py). Twice a second a
thread of each worker counts the connections it holds on the port it listens
on (its own open sockets, read through ``/proc/self/fd``) and writes the count
where its fellow workers read it (a file each, in a folder named after
granian's main process, cleared by the next start once that process is
gone); a worker holding more than its even share (all of
them over the workers, rounded up) answers that many of its next requests
with ``Connection: close``. The client opens a new connection, which the
kernel hands to a worker at random again, so the shares even out within a
second or two and stay even. Nothing else changes: the answer is the same,
and a browser opens the next connection without anyone noticing.

It does nothing where it cannot help: one worker, a system without
``/proc``, a worker with more than ``MANY`` open files (by then chance shares
its connections out evenly to within a few percent).
"""

from __future__ import annotations

import math
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

#: How often each worker counts its connections and reads the others' counts.
TICK_SECONDS = 0.5
#: A worker with more open files than this leaves the sharing to chance.
MANY = 512
#: A count older than this is a worker's that stopped.
STALE_SECONDS = 3 * TICK_SECONDS
#: The workers' counts are files in the temporary folder's FOLDER_PREFIX<main process id>.
FOLDER_PREFIX = "tttsite-shares-"


def held_connections(fds: list[int]) -> tuple[int | None, int]:
    """The TCP port this process listens on among its open files ``fds`` (None
    if it listens on none, or on more than one) and how many connections to
    it it holds. Linux: the sockets are found through ``/proc/self/fd``."""
    listening: set[int] = set()
    ports: list[int] = []
    for fd in fds:
        try:
            if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                continue
            copy = os.dup(fd)
        except OSError:
            continue  # closed meanwhile
        try:
            sock = socket.socket(fileno=copy)
        except OSError:
            os.close(copy)
            continue
        try:
            if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
                continue
            port = sock.getsockname()[1]
            if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
                listening.add(port)
            else:
                sock.getpeername()  # bound but not connected (granian's main process leaves one): OSError
                ports.append(port)
        except OSError:
            continue
        finally:
            sock.close()
    if len(listening) != 1:
        return None, 0
    (port,) = listening
    return port, ports.count(port)


def even_share(counts: list[int]) -> int:
    """A worker's even share of all the workers' ``counts``, rounded up."""
    return math.ceil(sum(counts) / len(counts)) if counts else 0


class EvenShares:
    """WSGI middleware: a worker holding more than its share of connections
    asks that many clients to open new ones (see the module's docstring)."""

    def __init__(self, app, counting: bool = True):
        self.app = app
        self.owed = 0  # how many of the next answers close their connection
        self._lock = threading.Lock()
        self.counting = counting  # off: only ``tick`` sets what is owed (tests)
        self._counting_in: int | None = None  # the process whose thread counts, started by its first request

    def __call__(self, environ, start_response):
        if self.counting and self._counting_in != os.getpid():
            self._start_counting()
        if self.owed <= 0 or environ.get("SERVER_PROTOCOL") != "HTTP/1.1":
            return self.app(environ, start_response)
        with self._lock:
            close = self.owed > 0
            self.owed -= close
        if not close:
            return self.app(environ, start_response)

        def start_closing(status, headers, exc_info=None):
            if not any(name.lower() == "connection" for name, _value in headers):
                headers = [*headers, ("Connection", "close")]
            return start_response(status, headers, exc_info)

        return self.app(environ, start_closing)

    def _start_counting(self) -> None:
        with self._lock:
            if self._counting_in == os.getpid():
                return
            self._counting_in = os.getpid()  # a forked worker counts for itself
        if Path("/proc/self/fd").is_dir():
            threading.Thread(target=self._count, name="even-shares", daemon=True).start()

    def _count(self) -> None:
        parent = Path(tempfile.gettempdir())
        for folder in parent.glob(f"{FOLDER_PREFIX}*"):  # left by servers that stopped
            try:
                os.kill(int(folder.name.removeprefix(FOLDER_PREFIX)), 0)
            except ProcessLookupError:
                shutil.rmtree(folder, ignore_errors=True)
            except (ValueError, OSError):
                continue  # not ours, or another user's server: alive
        folder = parent / f"{FOLDER_PREFIX}{os.getppid()}"  # granian's main process
        while True:
            time.sleep(TICK_SECONDS)
            try:
                self.owed = self.tick(folder, [int(name) for name in os.listdir("/proc/self/fd")])
            except OSError:
                self.owed = 0  # the folder went away, say: try again next time

    def tick(self, folder: Path, fds: list[int]) -> int:
        """Count this worker's connections among its open files ``fds``, tell
        the other workers through ``folder``, read theirs: how many of its
        connections to close."""
        if len(fds) > MANY:
            return 0
        port, held = held_connections(fds)
        if port is None:
            return 0
        folder.mkdir(exist_ok=True)
        mine, written = folder / str(os.getpid()), folder / f".{os.getpid()}"
        written.write_text(f"{port} {held}")
        os.replace(written, mine)  # whole, never half written
        now, counts = time.time(), []
        for path in folder.iterdir():
            try:
                if path.name.startswith(".") or now - path.stat().st_mtime > STALE_SECONDS:
                    continue
                their_port, theirs = map(int, path.read_text().split())
            except (OSError, ValueError):
                continue  # gone meanwhile
            if their_port == port:
                counts.append(theirs)
        return max(0, held - even_share(counts)) if len(counts) > 1 else 0
