"""``bench/web.sh``, the short way CI runs it: every row measured, none with errors.

Timing is never judged here (a shared CI machine says nothing about speed);
only that the anchor, the site (uvicorn, as scripts/serve runs it), the
raw transaction, moves through the API, the game page's form and the socket,
and the spectator fan-out all ran and every request was answered without an error.
Needs wrk and Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/13).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
ROWS = [
    "anchor: empty Django view",
    "site /healthz/",
    "site home page /",
    "raw move-shaped transaction",
    "API move vs the perfect AI",
    "form move (the page's script)",
    "socket move vs the perfect AI",
]


def test_every_row_runs_without_errors_and_prints_the_table():
    env = {**os.environ, "BENCH_REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")}
    # Two seconds a row: long enough that a machine busy with other tests still
    # answers some requests in each row's every round.
    command = [str(ROOT / "bench" / "web.sh"), "--duration", "2", "--warmup", "0", "--rounds", "2"]
    command += ["--connections", "4", "--spectators", "20", "--moves-per-second", "1000"]
    db = settings.DATABASES["default"]
    if connection.vendor == "postgresql":
        user, host, port = db.get("USER") or "postgres", db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        env["DATABASE_URL"] = f"postgres://{user}{password}@{host}:{port}/postgres"
        command += ["--database-name", f"{db['NAME']}_web_bench"]
    else:
        env.pop("DATABASE_URL", None)
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    vendor = "postgresql" if env.get("DATABASE_URL") else "sqlite"
    assert re.search(rf"^{vendor}, wrk \d+ threads, 4 connections, 2 s a row .*median of 2 rounds", out, re.M), out
    for label in ROWS:
        row = re.search(rf"^{re.escape(label)} .*?([\d,]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)  ", out, re.MULTILINE)
        assert row, f"no row {label!r}:\n{out}"
        requests_per_second, errors = int(row.group(1).replace(",", "")), int(row.group(4))
        assert requests_per_second > 0 and errors == 0, row.group(0)
    assert out.count("(rounds: ") == len(ROWS) - 2, out  # each ratio's range over the rounds
    fan = re.search(r"^spectator fan-out .*?(\d+) mv\s+([\d.]+)\s+([\d.]+)\s+(\d+)  \((\d+) deliveries", out, re.M)
    assert fan, out
    moves, errors, deliveries = int(fan.group(1)), int(fan.group(4)), int(fan.group(5))
    assert moves >= 3 and errors == 0 and deliveries == moves * 20, fan.group(0)
    # Where each row's CPU went: a move's in the server that took it.
    cpu = out[out.index("CPU per request, ms") :]
    for label, server in (("API move vs the perfect AI", 0), ("socket move vs the perfect AI", 1)):
        line = re.search(rf"^{re.escape(label)}\s+([\d. ]+)$", cpu, re.MULTILINE)
        assert line, f"no CPU line {label!r}:\n{cpu}"
        pages, sockets, _proxy, _worker, database, _redis, _client, _anchor = map(float, line.group(1).split())
        assert (pages, sockets)[server] > 0, line.group(0)
        if vendor == "postgresql":
            assert database > 0, line.group(0)
    assert "OK: no errors" in out


def test_rounds_are_summed_up_by_their_medians_and_the_ratio_s_range():
    from bench.web import Row, compare, median_row

    def a_round(anchor, raw, api, errors=0):
        rows = [Row("anchor: empty Django view", "a", requests_per_second=anchor)]
        rows += [Row("site /healthz/", "s", requests_per_second=anchor)]
        rows += [Row("site home page /", "s", requests_per_second=anchor / 2)]
        rows += [Row("raw move-shaped transaction", "a", requests_per_second=raw)]
        rows += [Row("API move vs the perfect AI", "s", requests_per_second=api, p99_ms=api / 10, errors=errors)]
        compare(rows)
        return rows

    # The machine slows down in the second round: both rows of that round with it.
    rounds = [a_round(7000, 1200, 480), a_round(3500, 600, 240, errors=2), a_round(7200, 1100, 440)]
    rows = [median_row(same) for same in zip(*rounds, strict=True)]
    compare(rows)
    api = rows[4]
    assert (api.requests_per_second, api.p99_ms, api.errors) == (440, 44, 2)
    assert round(api.ratio, 3) == round(440 / 1100, 3) and api.ratio_range == (0.4, 0.4)
    assert rows[2].ratio == 0.5 and rows[0].ratio is None
