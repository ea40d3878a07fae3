"""The processes a run command starts, as one process group: what is in it,
and stopping it. The benchmark, the load script and the tests start
``scripts/serve`` (nginx, granian, uvicorn, the background worker) in a group of
its own (``start_new_session=True``) and use these to see and stop it whole."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_serve(env: dict, output) -> subprocess.Popen:
    """``scripts/serve`` with ``env``, its output to the open file ``output``, in
    a process group of its own: every server process it starts, and nothing else."""
    return subprocess.Popen(
        [str(ROOT / "scripts" / "serve")],
        cwd=ROOT,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def group_members(group: int) -> dict[int, tuple[int, str]]:
    """The living processes of process group ``group``: pid -> (parent pid, command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue  # gone meanwhile
        # pid (comm) state ppid pgrp ...: the name may hold spaces, so split after its ")".
        state, ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == group and state not in ("Z", "X"):
            found[int(entry.name)] = (int(ppid), command)
    return found


def cpu_seconds(pid: int) -> tuple[str, float]:
    """(command name, user + system CPU seconds) of process ``pid``, all its
    threads. Raises OSError if it is gone."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    name, fields = stat[stat.find("(") + 1 : stat.rfind(")")], stat[stat.rfind(")") + 2 :].split()
    return name, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def cpu_seconds_by_name() -> dict[str, float]:
    """CPU seconds used so far by every living process on this machine, summed
    by command name ("postgres", "redis-server"...); empty without /proc."""
    used: dict[str, float] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                name, seconds = cpu_seconds(int(entry.name))
            except OSError:  # ended meanwhile
                continue
            used[name] = used.get(name, 0.0) + seconds
    return used


def stop_group(process: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM to ``process``'s group; SIGKILL if it has not ended within ``timeout`` seconds."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
