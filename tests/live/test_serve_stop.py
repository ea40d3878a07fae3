"""Stopping scripts/serve: TERM, or Ctrl-C's INT, sent to the script alone
leaves no process behind: neither the servers and the worker it started nor
what those started in turn (a page worker's engine processes), nor what a
page worker that crashed left to nobody; with Redis (nginx, granian, uvicorn
and the worker) and without it (one uvicorn process and the worker).

Each test starts the script on a free port, as an operator starts it, makes its
page worker start its engine processes (a 5x5 position on the analysis board),
notes every descendant of the script, signals the script and nothing else,
and looks for survivors once the script is gone. Needs Redis at
127.0.0.1:6379 (or TEST_SERVE_REDIS_URL).
"""

from __future__ import annotations

import os
import random
import signal
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from bench.process_groups import start_serve, stop_group
from tests.live.test_production_server import database_url, free_port
from tests.live.test_serve_script import REDIS_URL

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds the script has to stop everything in, once it is signalled: its own
#: bound (scripts/stopping.sh), STOP_SECONDS (12) for the servers and the
#: worker, then 2 s for TERM and 2 for KILL of whatever is left. A granian
#: worker whose engine process is mid-search takes its whole 10 s to stop.
STOPPED_WITHIN = 12 + 2 + 2


def _stat(pid: int) -> list[str] | None:
    """Process ``pid``'s /proc stat fields after its name (state, ppid, ...), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def descendants(root: int) -> dict[int, tuple[int, str]]:
    """The living descendants of ``root``, by their parent links: pid ->
    (parent, start time). The start time tells the process from a later one
    given the same pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) and fields[0] not in ("Z", "X"):
            found[int(entry.name)] = (int(fields[1]), fields[19])
    ours, grew = {root}, True
    while grew:
        grew = False
        for pid, (parent, _start) in found.items():
            if parent in ours and pid not in ours:
                ours.add(pid)
                grew = True
    return {pid: found[pid] for pid in ours - {root}}


def living(processes: dict[int, tuple[int, str]]) -> list[int]:
    """Those of ``processes`` (as :func:`descendants` gives them) still running."""
    return [
        pid
        for pid, (_parent, start) in processes.items()
        if (fields := _stat(pid)) and fields[0] not in ("Z", "X") and fields[19] == start
    ]


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=2):
            return True
    except OSError:
        return False


def _until(condition, seconds: float, failure: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.1)


def _a_5x5_position() -> str:
    """Two marks each on 5x5, at random: a position no earlier run left in the
    cache, whose search mostly takes the engine its whole time bound."""
    board = ["."] * 25
    for mark, cell in zip("XOXO", random.sample(range(25), 4), strict=True):
        board[cell] = mark
    return "".join(board)


def _crash_the_page_worker(started: dict, port: int) -> None:
    """Kill granian's worker (SIGKILL, as a crash ends it) after freezing its
    engine processes (SIGSTOP): orphans that will not end on their own, as a
    pool's processes that miss their parent's end would not. granian starts
    another worker, which is waited for."""
    worker = next(
        pid for pid, (parent, _) in started.items() if "granian" in _command(pid) and "granian" in _command(parent)
    )
    engines = [pid for pid, (parent, _) in started.items() if parent == worker]
    assert engines, "the page worker has no engine process"
    for pid in engines:
        os.kill(pid, signal.SIGSTOP)
    os.kill(worker, signal.SIGKILL)
    _until(lambda: not living({worker: started[worker]}), 5, "the page worker outlived SIGKILL")
    _until(lambda: _answers(port), 60, "granian did not start its worker again")
    assert living({pid: started[pid] for pid in engines}) == engines  # orphans, not ended by anyone


@pytest.mark.parametrize(
    ("signal_", "crash", "redis"),
    [(signal.SIGTERM, False, True), (signal.SIGINT, True, True), (signal.SIGTERM, False, False)],
    ids=["TERM", "INT-after-a-crash", "TERM-one-process-without-Redis"],
)
def test_a_signal_to_the_script_alone_stops_everything_it_started(collected_static, tmp_path, signal_, crash, redis):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")}
    if redis:
        env["REDIS_URL"] = REDIS_URL
    env.update(
        DEBUG="0",
        SECRET_KEY=settings.SECRET_KEY,
        DATABASE_URL=database_url(),
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_ROOT=str(collected_static),
        HOST="127.0.0.1",
        PORT=str(port),
        WORKERS="1",
        SOCKET_WORKERS="1",
        RUN_WORKER="1",
        LOG_LEVEL="WARNING",
    )
    log = tmp_path / "serve.log"
    with open(log, "w") as output:
        process = start_serve(env, output)
    started: dict = {}
    try:
        _until(
            lambda: process.poll() is None and _answers(port),
            120,
            f"scripts/serve did not answer:\n{log.read_text()[-3000:]}",
        )
        servers = descendants(process.pid)
        board = f"http://127.0.0.1:{port}/analysis/?board={_a_5x5_position()}"
        with urllib.request.urlopen(board, timeout=30) as response:
            assert response.status in (200, 202)  # 202: the search is under way
        # The page worker's engine processes start with its first search.
        _until(
            lambda: set(started.update(descendants(process.pid)) or started) > set(servers),
            10,
            f"no engine process started:\n{log.read_text()[-3000:]}",
        )
        if crash:
            _crash_the_page_worker(started, port)
            started.update(descendants(process.pid))  # the worker granian started again

        signalled = time.monotonic()
        os.kill(process.pid, signal_)
        assert process.wait(timeout=STOPPED_WITHIN + 5) == 128 + signal_, log.read_text()[-3000:]
        assert time.monotonic() - signalled < STOPPED_WITHIN
        # Once the script is gone, everything it started is gone.
        assert living(started) == [], {pid: _command(pid) for pid in living(started)}
        assert not _answers(port)
    finally:
        stop_group(process, timeout=10)
        for pid in living(started):  # a failed run leaves nothing frozen
            os.kill(pid, signal.SIGKILL)
        connection.close()
