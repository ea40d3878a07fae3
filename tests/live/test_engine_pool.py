"""An engine process never outlives the server process it works for: when a
page worker dies (killed, crashed, or restarted by granian), the engine
processes of its pool leave by themselves, as soon as the pipe to their
parent closes, so a restarted worker leaves no orphan behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A server process, in short: it starts a pool, has it search once (so its
#: engine processes are up), and waits to be killed.
SERVER = """
import time
from games.engine_work import jobs
from games.engine_work.pool import EnginePool

pool = EnginePool(slots=2, queue=4, per_visitor=2)
ended = []
pool.submit("a search", "a visitor", jobs.analysis, ("X...............", 5.0), 30, ended.append)
while not ended:
    time.sleep(0.05)
print("searched", flush=True)
time.sleep(120)
"""


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_the_engine_processes_of_a_killed_server_process_leave_by_themselves():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().strip() == "searched"
        engines = children(server.pid)
        assert engines, "the pool started no engine process"
        server.send_signal(signal.SIGKILL)  # no clean-up of its own: as a crash
        server.wait(timeout=10)
        # Engine processes run at a lower priority than everything else, so on a
        # busy machine they may wait many seconds for the CPU they need to leave;
        # what matters is that they leave, well before pebble's own one-minute
        # lock timeout could have ended them.
        deadline = time.monotonic() + 45
        while any(alive(pid) for pid in engines) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in engines if alive(pid)], "engine processes outlived their server process"
    finally:
        if server.poll() is None:
            server.kill()
