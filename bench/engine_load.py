#!/usr/bin/env python3
"""Engine work under load: how quickly the site answers everyone else while
the engine searches for one visitor.

Starts ``scripts/serve`` (of this checkout, or of ``--checkout DIR``) on
``--port``, or measures a site already running at ``--url``, and runs two
measurements, one after the other:

  (a) a guest opens early 5x5 analysis pages one at a time (a new position
      each time, the slowest kind for an engine without a tablebase), following "the engine is working"
      answers and any refusal's Retry-After, as a browser would, so it stays
      within its budget;
  (b) a signed-in player keeps 8 slow analysis pages in flight at once.

Meanwhile a signed-in reader opens /healthz/, the front page and
/api/games/ in turn, one request every 0.2 s whether or not the one before
was answered, and the script prints those answers' latencies (median, 95th
percentile, slowest), and how the engine's requests were answered (status,
the slowest answer, the refusals' reasons). It talks HTTP only, so it measures any version of the site.
Standard library only.

    REDIS_URL=redis://127.0.0.1:6379/11 DATABASE_URL=postgres://postgres@127.0.0.1/bench \\
        python bench/engine_load.py --port 8200
    python bench/engine_load.py --url http://127.0.0.1:8000
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READER_PATHS = ("/healthz/", "/", "/api/games/")
#: Seconds between two of the reader's requests.
READER_INTERVAL = 0.2


# --------------------------------------------------------------------------
# HTTP: a visitor with a cookie jar of its own, a new connection per request.


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float


@dataclass
class Visitor:
    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, method: str, path: str, form: dict | None = None, timeout: float = 60) -> Answer:
        headers = {}
        with self.lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conversation = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        start = time.perf_counter()
        try:
            conversation.request(method, path, body=body, headers=headers)
            response = conversation.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            conversation.close()
        seconds = time.perf_counter() - start
        with self.lock:
            for line in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(line).items():
                    self.cookies[name] = morsel.value
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text, seconds)

    def get(self, path: str) -> Answer:
        return self.ask("GET", path)

    def sign_up(self) -> str:
        """A new account, signed in through the sign-up form: its name."""
        form = self.get("/accounts/signup/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.body)
        if form.status != 200 or not token:
            raise SystemExit(f"error: no sign-up form at /accounts/signup/ (status {form.status})")
        name = "bench" + secrets.token_hex(5)
        password = secrets.token_urlsafe(16)
        fields = {"csrfmiddlewaretoken": token[1], "username": name, "password1": password, "password2": password}
        signed = self.ask("POST", "/accounts/signup/", fields)
        if signed.status != 302:
            raise SystemExit(
                f"error: signing up was refused (status {signed.status}); a site started here allows it, "
                "one given with --url may limit sign-ups per address (ACTION_RATE_SIGNUP)"
            )
        return name


# --------------------------------------------------------------------------
# Slow positions: 5x5, one or two X and one O on random cells, each new.


class SlowPositions:
    """Early 5x5 positions, each new: one or two X and one O on random cells.
    Without a tablebase the engine cannot solve one in the page's time bound."""

    def __init__(self, seed: int):
        self.rng, self.given, self.lock = random.Random(seed), set(), threading.Lock()

    def next(self) -> str:
        with self.lock:
            while True:
                crosses = self.rng.choice((1, 2))
                cells = self.rng.sample(range(25), crosses + 1)
                board = ["."] * 25
                for cell in cells[:crosses]:
                    board[cell] = "X"
                board[cells[-1]] = "O"
                position = "".join(board)
                if position not in self.given:
                    self.given.add(position)
                    return position


def analysis_page(position: str) -> str:
    return "/analysis/?" + urllib.parse.urlencode({"board": position})


# --------------------------------------------------------------------------
# The clients.


@dataclass
class EngineLog:
    """Every answer to an engine request, and how many searches were answered."""

    answers: list[Answer] = field(default_factory=list)
    answered: int = 0  # positions that ended in a 200 with the analysis
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)


def retry_after(answer: Answer) -> float:
    try:
        return float(answer.headers.get("retry-after", "1"))
    except ValueError:
        return 1.0


def follow(visitor: Visitor, position: str, log: EngineLog, stop: threading.Event) -> Answer:
    """The analysis page of ``position``, asked again after each 202's
    Retry-After (the page reloads itself), until it is answered or refused."""
    while True:
        answer = visitor.get(analysis_page(position))
        log.add(answer)
        if answer.status == 200:
            with log.lock:
                log.answered += 1
        if answer.status != 202 or stop.wait(retry_after(answer)):
            return answer


def keep_asking(visitor: Visitor, positions: SlowPositions, log: EngineLog, stop: threading.Event) -> None:
    """New positions until ``stop``; after a refusal, back after its Retry-After."""
    while not stop.is_set():
        answer = follow(visitor, positions.next(), log, stop)
        if answer.status in (429, 503):
            stop.wait(retry_after(answer))


def read_pages(reader: Visitor, samples: dict[str, list[Answer]], stop: threading.Event) -> None:
    """The reader's pages in turn, one every READER_INTERVAL seconds whether or
    not the one before was answered (as visitors come, not one after another):
    a server that stalls gets as many samples as a quick one."""

    def sample(path: str) -> None:
        start = time.perf_counter()
        try:
            answer = reader.get(path)
        except OSError as error:  # counted as "not 200", with the time it took to fail
            answer = Answer(0, {}, str(error), time.perf_counter() - start)
        samples[path].append(answer)

    with ThreadPoolExecutor(max_workers=256) as requests:
        turn = 0
        next_at = time.monotonic()
        while not stop.is_set():
            path = READER_PATHS[turn % len(READER_PATHS)]
            requests.submit(sample, path)
            turn += 1
            next_at += READER_INTERVAL
            stop.wait(max(0.0, next_at - time.monotonic()))


@dataclass
class Measurement:
    name: str
    seconds: float
    pages: dict[str, list[Answer]]
    engine: EngineLog


def measure(name: str, site: tuple[str, int], seconds: float, engine_clients: int, signed_in: bool) -> Measurement:
    """The reader's latencies while ``engine_clients`` threads of one visitor
    (a guest, or a signed-in player) keep asking for slow analyses."""
    host, port = site
    reader = Visitor(host, port)
    reader.sign_up()
    asker = Visitor(host, port)
    if signed_in:
        asker.sign_up()
    for path in READER_PATHS:  # each page once before the clock starts
        reader.get(path)
    positions = SlowPositions(secrets.randbits(32))
    pages: dict[str, list[Answer]] = {path: [] for path in READER_PATHS}
    log = EngineLog()
    stop = threading.Event()
    threads = [threading.Thread(target=keep_asking, args=(asker, positions, log, stop)) for _ in range(engine_clients)]
    threads.append(threading.Thread(target=read_pages, args=(reader, pages, stop)))
    start = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return Measurement(name, time.monotonic() - start, pages, log)


# --------------------------------------------------------------------------
# Figures.


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (NaN for no values)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else math.nan


def milliseconds(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:,.1f}"


def report(measurements: list[Measurement], title: str) -> None:
    print(f"\n{title}")
    print(f"{'measurement':<34} {'page':<12} {'n':>5} {'median ms':>10} {'p95 ms':>10} {'max ms':>10} {'not 200':>8}")
    for m in measurements:
        label = m.name
        for path, answers in m.pages.items():
            times = [answer.seconds for answer in answers]
            bad = sum(answer.status != 200 for answer in answers)
            print(
                f"{label:<34} {path:<12} {len(times):>5} {milliseconds(statistics.median(times) if times else math.nan):>10} "
                f"{milliseconds(percentile(times, 0.95)):>10} {milliseconds(max(times, default=math.nan)):>10} {bad:>8}"
            )
            label = ""
    print(f"\n{'engine requests':<34} {'n':>5} {'by status':<32} {'answered':>8} {'p95 ms':>10} {'max ms':>10}")
    for m in measurements:
        answers = m.engine.answers
        times = [answer.seconds for answer in answers]
        by_status = {}
        for answer in answers:
            by_status[answer.status] = by_status.get(answer.status, 0) + 1
        statuses = " ".join(f"{status}:{count}" for status, count in sorted(by_status.items()))
        print(
            f"{m.name:<34} {len(answers):>5} {statuses:<32} {m.engine.answered:>8} "
            f"{milliseconds(percentile(times, 0.95)):>10} {milliseconds(max(times, default=math.nan)):>10}"
        )
    for m in measurements:
        for reason, count in sorted(refusals(m.engine.answers).items()):
            print(f"  {m.name}: {count} x {reason}")


def refusals(answers: list[Answer]) -> dict[str, int]:
    """The refusals' reasons as their pages state them, numbers left out, with how many of each."""
    found: dict[str, int] = {}
    for answer in answers:
        if answer.status in (429, 503):
            stated = re.search(r'role="alert">\s*(.*?)\s*</p>', answer.body, re.S)
            reason = f"{answer.status} " + re.sub(r"\d+(\.\d+)?", "N", stated[1] if stated else "(no reason given)")
            found[reason] = found.get(reason, 0) + 1
    return found


# --------------------------------------------------------------------------
# The server, when the script starts it.


def group_members(group: int) -> list[int]:
    """The living processes of process group ``group`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state, _ppid, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
            except OSError:
                continue
            if int(pgrp) == group and state not in ("Z", "X"):
                found.append(int(entry.name))
    return found


class Server:
    """``scripts/serve`` of ``checkout`` on ``port``, in a process group of its
    own, so that stopping it stops everything it started."""

    def __init__(self, checkout: Path, port: int, log: Path):
        self.checkout, self.port, self.log_path = checkout, port, log
        self.static_root = None
        env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
        if not env.get("REDIS_URL"):
            raise SystemExit("error: set REDIS_URL (scripts/serve needs it), or measure a running site with --url")
        if not env.get("DATABASE_URL"):
            print(f"note: DATABASE_URL is not set: scripts/serve uses {checkout}/db.sqlite3", file=sys.stderr)
        if not env.get("STATIC_ROOT"):  # not the checkout's own staticfiles/
            self.static_root = tempfile.mkdtemp(prefix="tttsite-bench-static-")
            env["STATIC_ROOT"] = self.static_root
        env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # not the checkout's .secret_key
        env.update(HOST="127.0.0.1", PORT=str(port))
        env.setdefault("ACTION_RATE_SIGNUP", "1000/hour")  # the script signs up two accounts a run
        self.output = open(log, "w")
        self.process = subprocess.Popen(
            [str(checkout / "scripts" / "serve")],
            cwd=checkout,
            env=env,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_until_up(self, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        probe = Visitor("127.0.0.1", self.port)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"error: scripts/serve exited with {self.process.returncode}; see {self.log_path}")
            try:
                if probe.ask("GET", "/healthz/", timeout=2).status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise SystemExit(f"error: scripts/serve did not answer on port {self.port} in {timeout:.0f} s")

    def stop(self) -> list[int]:
        """TERM to the whole group, KILL to whatever is left after 30 s: the pids left (none)."""
        group = self.process.pid
        with suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 10
        while group_members(group) and time.monotonic() < deadline:
            time.sleep(0.2)
        if group_members(group):
            with suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
            time.sleep(1)
        self.output.close()
        if self.static_root:
            shutil.rmtree(self.static_root, ignore_errors=True)
        return group_members(group)


def git_commit(checkout: Path) -> str:
    """The checkout's commit, "+ changes" when its files differ from it."""
    found = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    changed = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain"], capture_output=True, text=True)
    return (found.stdout.strip() or "?") + (" + changes" if changed.stdout.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="measure the site running here (http://host:port) instead of starting one")
    where.add_argument(
        "--checkout", type=Path, default=ROOT, help="start scripts/serve of this checkout (default: this one)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port for scripts/serve (the sockets get port+1)")
    parser.add_argument("--seconds", type=float, default=25, help="length of each measurement (default 25)")
    parser.add_argument("--in-flight", type=int, default=8, help="the signed-in player's requests at once (default 8)")
    parser.add_argument("--log", type=Path, help="scripts/serve's output (default: a file in the temporary folder)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    server = None
    if args.url:
        parsed = urllib.parse.urlsplit(args.url)
        site = (parsed.hostname or "127.0.0.1", parsed.port or 80)
        title = f"{args.url}"
    else:
        checkout = args.checkout.resolve()
        log = args.log or Path(tempfile.gettempdir()) / f"tttsite-bench-serve-{args.port}.log"
        print(f"starting {checkout}/scripts/serve on 127.0.0.1:{args.port} (its output: {log})", file=sys.stderr)
        server = Server(checkout, args.port, log)
        site = ("127.0.0.1", args.port)
        title = f"scripts/serve of {checkout} at {git_commit(checkout)}, {os.cpu_count()} cores"
    measurements = []
    try:
        if server:
            server.wait_until_up()
            time.sleep(3)  # the workers and the background worker settle
        print(f"(a) a guest opens slow analysis pages, {args.seconds:g} s", file=sys.stderr)
        measurements.append(measure("(a) a guest's analyses", site, args.seconds, 1, signed_in=False))
        print(f"(b) a player keeps {args.in_flight} analyses in flight, {args.seconds:g} s", file=sys.stderr)
        measurements.append(
            measure(f"(b) {args.in_flight} in flight, signed in", site, args.seconds, args.in_flight, signed_in=True)
        )
    finally:
        if server:
            left = server.stop()
            if left:
                print(f"warning: processes left behind: {left}", file=sys.stderr)
    report(measurements, title)
    if args.json:
        figures = {
            m.name: {
                "pages": {
                    path: {
                        "n": len(answers),
                        "median_ms": statistics.median(a.seconds for a in answers) * 1000 if answers else None,
                        "p95_ms": percentile([a.seconds for a in answers], 0.95) * 1000 if answers else None,
                        "max_ms": max(a.seconds for a in answers) * 1000 if answers else None,
                    }
                    for path, answers in m.pages.items()
                },
                "engine_statuses": [a.status for a in m.engine.answers],
                "engine_answered": m.engine.answered,
            }
            for m in measurements
        }
        args.json.write_text(json.dumps({"site": title, "measurements": figures}, indent=2))


if __name__ == "__main__":
    main()
