"""The site's speed beside Django's own: ``bench/web.sh`` runs this.

    bench/web.sh                                  # SQLite, 32 connections, 10 s a row
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bench/web.sh
    bench/web.sh --rounds 3                       # every row three times, in turn: medians
    bench/web.sh --duration 1 --warmup 0 --rounds 2 --connections 4   # what CI runs

On free ports of 127.0.0.1, on a fresh database (an SQLite file in a temporary
folder; with DATABASE_URL, a new database on that PostgreSQL server, dropped
afterwards), it starts:

* the anchor: a minimal Django project with one empty view and one raw-SQL view
  (bench/anchor/), served by gunicorn with 4 sync workers;
* the site as ``scripts/serve`` runs it: nginx on one address in front of
  granian's workers (the pages and the API) and uvicorn's (the WebSockets),
  Redis between them.

Every HTTP row is driven by the same client (wrk, its Lua scripts above), with
the same threads, connections and seconds, after a warm-up of its own that is
not counted:

  anchor: empty Django view        GET  anchor /empty/
  site /healthz/                   GET  site /healthz/
  site home page                   GET  site /  (a first visit: no cookies)
  raw move-shaped transaction      POST anchor /move/<game>/ (lock, two inserts, an update)
  API move against the perfect AI  POST site /api/games/<game>/moves/, each a new game's first move
  form move                        POST site /games/<game>/move/ as the game page's script
                                   sends it (session, CSRF token, X-Partial: the panel back)

Pages are compared with the empty view, moves with the raw transaction. The
games are made before any clock starts (spread over players with tokens and
sessions, one player per connection), enough for ``--moves-per-second`` moves a
second; a request that finds its game already played is a 409, an error in the
table.

Then, with as many connections, moves over the game's socket: each player plays
whole games by sending {"action": "move"} on the game's socket and waiting to
hear it back (the client in this file, picows on uvloop: wrk speaks no WebSocket).

Then the spectator fan-out: SPECTATORS WebSockets follow a game against the AI
while its player moves through the API; the figure is the time from sending
the move to each spectator hearing it (p50, p99), for the same seconds.

Under the table, where each row's CPU went, per request, read from /proc over
its measured seconds: the site's pages server (granian), its socket server
(uvicorn), nginx in front, the background worker, PostgreSQL's processes and Redis on this
machine (every one of theirs: run it on a quiet machine), the load client (wrk,
or this process for the sockets), and the anchor's gunicorn.

With ``--rounds N`` the rows are measured N times over, one round of every
row after another, and the table shows each figure's median and each ratio's
range over the rounds: this machine's speed drifts over minutes (the raw
transaction was once 787/s in one run and 484/s in the next, the empty view
unchanged), and a ratio of two rows measured minutes apart takes the drift in.

The exit status is 1 when any row had errors. Nothing here judges timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from bench.process_groups import (
    cpu_seconds,
    cpu_seconds_by_name,
    group_members,
    start_serve,
    stop_group,
)

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
ANCHOR_WORKERS = 4
ANCHOR_GAMES = 1000  # rows the raw transaction spreads its locks over

# -- the load client's scripts ------------------------------------------------------------

# Every script ends with this: the figures as one line of JSON on stdout.
REPORT_LUA = r"""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, '
    .. '"status": %d, "timeout": %d, "p50_us": %.0f, "p99_us": %.0f}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""

# One game per request, read from a file of lines "id<TAB>Header: value<TAB>...": thread t
# of n takes lines t, t+n, t+2n... so no two connections ever play the same game.
MOVE_LUA = r"""
local threads = 0
setup = function(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

init = function(args)
  local nthreads = tonumber(args[2])
  games = {}
  local n = 0
  for line in io.lines(args[1]) do
    if n % nthreads == tid then
      local fields = {}
      for field in line:gmatch("[^\t]+") do fields[#fields + 1] = field end
      local headers = {["Content-Type"] = args_type}
      for i = 2, #fields do
        local name, value = fields[i]:match("^([^:]+): (.*)$")
        headers[name] = value
      end
      games[#games + 1] = {id = fields[1], headers = headers}
    end
    n = n + 1
  end
  sent = 0
end

request = function()
  sent = sent + 1
  local game = games[((sent - 1) % #games) + 1]
  return wrk.format("POST", string.format(args_path, game.id), game.headers, args_body)
end
"""


def move_script(path_pattern: str, body: str, content_type: str = "application/json") -> str:
    settings = {"args_path": path_pattern, "args_body": body, "args_type": content_type}
    return "".join(f"{name} = {json.dumps(value)}\n" for name, value in settings.items()) + MOVE_LUA + REPORT_LUA


def games_file(path: Path, games: list[dict], headers) -> None:
    """One line per game: its id and the ``headers(game)`` its move is sent with."""
    path.write_text(
        "".join("\t".join([str(game["id"]), *(f"{k}: {v}" for k, v in headers(game).items())]) + "\n" for game in games)
    )


def api_headers(game: dict) -> dict:
    return {"Accept": "application/json", "Authorization": f"Token {game['token']}"}


def form_headers(game: dict) -> dict:
    """What the game page's script sends: the session, the CSRF token, and X-Partial for the panel."""
    cookies = f"{game['session_cookie']}={game['session']}; csrftoken={game['csrf']}"
    return {"Cookie": cookies, "X-CSRFToken": game["csrf"], "X-Partial": "1"}


# -- figures ---------------------------------------------------------------------------------


@dataclass
class Row:
    label: str
    server: str
    requests_per_second: float = 0.0
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    errors: int = 0
    requests: int = 0
    ratio: float | None = None
    ratio_to: str = ""
    error_detail: dict = field(default_factory=dict)
    cpu_ms: dict = field(default_factory=dict)  # part -> CPU milliseconds per request
    ratio_range: tuple[float, float] | None = None  # over the rounds, when there were several


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_wrk(args, url: str, script: Path, script_args: list[str], seconds: float) -> dict:
    """wrk's figures."""
    command = ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", f"{max(1, round(seconds))}s"]
    command += ["--timeout", "10s", "-s", str(script), url, "--", *script_args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = process.communicate()
    match = re.search(r"^BENCH (\{.*\})$", stdout, re.MULTILINE)
    if process.returncode != 0 or match is None:
        raise SystemExit(f"wrk failed ({process.returncode}):\n{stdout}\n{stderr}")
    return json.loads(match.group(1))


# -- where the CPU went -------------------------------------------------------------------------

CPU_PARTS = ("pages", "sockets", "proxy", "worker", "postgresql", "redis", "client", "anchor")


def _site_part(pid: int, members: dict[int, tuple[int, str]]) -> str | None:
    """The part of the site ``pid`` works for: its own command's, or its
    nearest parent's (uvicorn's workers, and any process a server spawns)."""
    while pid in members:
        parent, command = members[pid]
        for word, part in (("granian", "pages"), ("uvicorn", "sockets"), ("nginx", "proxy"), ("run_worker", "worker")):
            if word in command:
                return part
        pid = parent
    return None


class CpuMeter:
    """CPU seconds used so far by each part of the run (``CPU_PARTS``): the site's
    process group, the anchor's, PostgreSQL and Redis on this machine, and the
    client (wrk, counted once it has exited, or this process)."""

    def __init__(self, site: subprocess.Popen, anchor: subprocess.Popen | None = None):
        self.site, self.anchor = site, anchor

    def read(self) -> dict[str, float]:
        used = dict.fromkeys(CPU_PARTS, 0.0)
        groups = {self.site.pid: None, **({self.anchor.pid: "anchor"} if self.anchor else {})}
        for group, part in groups.items():
            members = group_members(group)
            for pid in members:
                try:
                    _name, seconds = cpu_seconds(pid)
                except OSError:
                    continue  # gone meanwhile
                name = part or _site_part(pid, members)
                if name:
                    used[name] += seconds
        for name, seconds in cpu_seconds_by_name().items():
            if name == "postgres":
                used["postgresql"] += seconds
            elif name.startswith("redis-server"):
                used["redis"] += seconds
        me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        used["client"] = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
        return used

    @staticmethod
    def per_request(before: dict[str, float], after: dict[str, float], requests: int) -> dict[str, float]:
        # A process that ended between the readings (a PostgreSQL backend) takes
        # its seconds with it: its part can come out below zero, read as none.
        return {part: max(0.0, after[part] - before[part]) * 1000 / requests for part in CPU_PARTS} if requests else {}


def measure(args, row: Row, url: str, script: Path, script_args=(), warmup_args=None, meter=None) -> Row:
    """Warm up (not counted), then the measured run; both with the same client settings."""
    if args.warmup > 0:
        run_wrk(args, url, script, list(warmup_args if warmup_args is not None else script_args), args.warmup)
    before = meter.read() if meter else None
    figures = run_wrk(args, url, script, list(script_args), args.duration)
    after = meter.read() if meter else None
    # Answered, and not with an error status: an error page is fast, it must not pass for speed.
    row.requests = figures["requests"] - figures["status"]
    row.requests_per_second = row.requests / (figures["duration_us"] / 1e6)
    row.p50_ms, row.p99_ms = figures["p50_us"] / 1000, figures["p99_us"] / 1000
    row.error_detail = {
        kind: figures[kind] for kind in ("connect", "read", "write", "status", "timeout") if figures[kind]
    }
    row.errors = sum(row.error_detail.values())
    if row.requests == 0:
        row.errors += 1
        row.error_detail["no_answers"] = 1
    if meter:
        row.cpu_ms = CpuMeter.per_request(before, after, row.requests)
    return row


# -- moves over the game's socket ------------------------------------------------------------


async def socket_moves(ws_base: str, games: list[dict], connections: int, seconds: float) -> dict:
    """``connections`` players at once, each playing whole games over the game's
    socket as the game page does (its API token on the handshake): the first
    free cell, sent as {"action": "move"}, until the game ends, then the next
    game. A move is timed from sending it to hearing it back, the AI's reply with it.

    The client is picows (WebSocket frames parsed in Cython) on uvloop: it
    shares the machine's two cores with the server it measures, and the
    ``websockets`` client cost about twice its CPU per move
    (docs/benchmarks.md), as wrk is to HTTP what a Python client is not."""
    from picows import WSCloseCode, WSListener, WSMsgType, ws_connect

    latencies: list[float] = []
    errors: dict[str, int] = {}
    waiting = iter(games)
    deadline = time.monotonic() + seconds

    def error(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    class Player(WSListener):
        """One game: moves on hearing the game's state, then on hearing each move back."""

        def __init__(self):
            self.board, self.ply, self.sent, self.left = ["."] * 9, 0, 0.0, False

        def move_or_leave(self, transport, status: str) -> None:
            if status == "in_progress" and time.monotonic() < deadline:
                self.sent = time.monotonic()
                move = {"action": "move", "cell": self.board.index("."), "ply": self.ply}
                transport.send(WSMsgType.TEXT, json.dumps(move).encode())
            else:
                self.left = True
                transport.send_close(WSCloseCode.OK)
                transport.disconnect()

        def on_ws_frame(self, transport, frame) -> None:
            if frame.msg_type == WSMsgType.CLOSE:  # the server ended the game's socket
                transport.disconnect()
                return
            if frame.msg_type != WSMsgType.TEXT:
                return
            event = json.loads(frame.get_payload_as_bytes())
            if event["type"] == "state":
                self.ply = event["ply"]
                self.move_or_leave(transport, event["status"])
            elif event["type"] == "refused":
                error(f"refused_{event['code']}")
                self.move_or_leave(transport, "refused")
            elif event["type"] == "move" and any(move["ply"] == self.ply for move in event["moves"]):
                latencies.append(time.monotonic() - self.sent)
                for move in event["moves"]:
                    self.board[move["cell"]] = "XO"[move["ply"] % 2]
                self.ply = event["ply"]
                self.move_or_leave(transport, event["status"])

    async def player() -> None:
        while time.monotonic() < deadline:
            game = next(waiting, None)
            if game is None:
                error("ran_out_of_games")
                return
            address = f"{ws_base}/ws/games/{game['id']}/"
            try:
                transport, game_player = await ws_connect(
                    Player, address, extra_headers={"Authorization": f"Token {game['token']}"}
                )
                await asyncio.wait_for(transport.wait_disconnected(), seconds + 10)
                if not game_player.left:
                    error("closed_by_the_server")
            except Exception as failure:  # refused, timed out, a bad frame: counted, not fatal
                error(type(failure).__name__)

    started = time.monotonic()
    await asyncio.gather(*(player() for _ in range(connections)))
    elapsed = time.monotonic() - started
    return {
        "moves": len(latencies),
        "per_second": len(latencies) / elapsed if elapsed else 0.0,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "errors": errors,
    }


def run_on_uvloop(coroutine):
    """``asyncio.run`` on uvloop (which uvicorn brings), as the socket server runs."""
    import uvloop

    return uvloop.run(coroutine)


# -- the spectator fan-out ------------------------------------------------------------------


async def fan_out(base: str, ws_base: str, games: list[dict], spectators: int, seconds: float) -> dict:
    """Spectators follow one game at a time, from pages of ``base`` (their Origin);
    its player moves through the API, each move waiting until every spectator has
    heard it (or 10 s)."""
    from websockets.asyncio.client import connect

    latencies: list[float] = []
    answered: list[float] = []  # move sent -> its POST answered (the site's own part of the latency)
    each: list[list[float]] = []  # a move's [answered, first heard, last heard] in ms after it was sent
    errors: dict[str, int] = {}
    moves = 0

    def error(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    def post_move(game_id: int, token: str, cell: int, ply: int) -> dict:
        request = urllib.request.Request(
            f"{base}/api/games/{game_id}/moves/",
            data=json.dumps({"cell": cell, "ply": ply}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    deadline = time.monotonic() + seconds
    for game in games:
        game_id, token = game["id"], game["token"]
        if time.monotonic() >= deadline and moves >= 3:
            break
        heard: dict[int, list[float]] = {}
        everyone = asyncio.Condition()

        last_message = [time.monotonic()]

        async def follow(socket, heard=heard, everyone=everyone, last_message=last_message):
            async for message in socket:
                now = last_message[0] = time.monotonic()
                event = json.loads(message)
                if event.get("type") != "move":
                    continue
                async with everyone:
                    for move in event["moves"]:
                        heard.setdefault(move["ply"], []).append(now)
                    everyone.notify_all()

        sockets = await asyncio.gather(
            *(connect(f"{ws_base}/ws/games/{game_id}/", origin=base, open_timeout=20) for _ in range(spectators))
        )
        try:
            for socket in sockets:  # each has its state before the first move
                first = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if first.get("type") != "state":
                    error("no_state")
            readers = [asyncio.ensure_future(follow(socket)) for socket in sockets]
            # Each spectator that came is announced to those already there: measured
            # once that has died down (half a second without a message), not during it.
            settle_by = time.monotonic() + 10
            while time.monotonic() - last_message[0] < 0.5 and time.monotonic() < settle_by:
                await asyncio.sleep(0.1)
            board, ply = "." * 9, 0
            while time.monotonic() < deadline or moves < 3:
                cell = board.index(".")
                sent = time.monotonic()
                try:
                    game = await asyncio.to_thread(post_move, game_id, token, cell, ply)
                except OSError as failure:
                    error(f"move_{getattr(failure, 'code', 'connection')}")
                    break
                answered.append(time.monotonic() - sent)
                moves += 1
                async with everyone:
                    try:
                        await asyncio.wait_for(
                            everyone.wait_for(lambda heard=heard, ply=ply: len(heard.get(ply, [])) >= spectators), 10
                        )
                    except TimeoutError:
                        error("not_heard_in_10s")
                latencies.extend(when - sent for when in heard.get(ply, []))
                if heard.get(ply):  # for --json: where each move's time went
                    times = (answered[-1], min(heard[ply]) - sent, max(heard[ply]) - sent)
                    each.append([round(seconds * 1000, 1) for seconds in times])
                if game["status"] != "in_progress":
                    break
                board, ply = game["board"], game["ply"]
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
        finally:
            await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
    return {
        "moves": moves,
        "heard": len(latencies),
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "answered_p50_ms": percentile(answered, 0.50) * 1000,
        "answered_p99_ms": percentile(answered, 0.99) * 1000,
        "each_move_ms": each,
        "errors": errors,
    }


# -- servers and the database -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(base: str, path: str, process: subprocess.Popen, log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{base} exited with status {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(base + path, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{base}{path} did not answer within {seconds} s:\n{log.read_text()[-3000:]}")


class Database:
    """A fresh database for one run: an SQLite file in ``folder``, or a new PostgreSQL
    database on the server of ``admin_url`` (dropped by :meth:`drop`)."""

    def __init__(self, admin_url: str | None, folder: Path, name: str):
        self.admin_url, self.name = admin_url, name
        if admin_url:
            parts = urllib.parse.urlsplit(admin_url)
            self.url = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
            self.vendor = "postgresql"
        else:
            self.url = f"sqlite:///{folder / 'bench.sqlite3'}"
            self.vendor = "sqlite"

    def _admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(statement)

    def create(self) -> None:
        if self.admin_url:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            self._admin(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        if self.admin_url:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def site_environment(args, database: Database, port: int) -> dict:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-web-" + "k" * 50,
        DATABASE_URL=database.url,
        REDIS_URL=args.redis_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        HOST="127.0.0.1",
        PORT=str(port),
        LOG_LEVEL="WARNING",
        # The benchmark's clients are a few players moving flat out: the per-user
        # API budget would stop them long before the server is busy.
        API_RATE_USER="1000000/min",
        API_RATE_ANON="1000000/min",
        # All from one address, and each socket sending moves as fast as it is answered.
        SOCKETS_PER_ADDRESS="100000",
        SOCKET_FRAMES_PER_SECOND="100000",
        SOCKET_FRAME_BURST="100000",
    )
    if args.workers:
        env["WORKERS"] = str(args.workers)
    return env


def in_django(env: dict, step: str, payload: dict) -> dict:
    """Run ``step`` of this module in a process with the site's settings."""
    result = subprocess.run(
        [PYTHON, "-m", "bench.web", "--in-django", step],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "tttsite.settings"},
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{step} failed:\n{result.stderr}")
    return json.loads(result.stdout)


# -- the steps that need Django -------------------------------------------------------------------


def django_setup(payload: dict) -> dict:
    """``players`` players, each with an API token and a signed-in session, and
    ``games`` new 3x3 games against the perfect AI, the player X (to move), shared
    out among the players in turn. One game is made by the site's own service;
    the rest are copies of it."""
    import random

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils.crypto import get_random_string

    from games.accounts.services import api_token_create
    from games.play.models import Game
    from games.play.players import Player
    from games.play.services import game_create_against_ai

    User = get_user_model()
    players = []
    for number in range(payload["players"]):
        user = User(username=f"bench{number:03d}")
        user.set_unusable_password()
        user.save()
        browser = Client()
        browser.force_login(user)
        players.append(
            {
                "user": user,
                "token": api_token_create(user=user, name="bench-web"),
                "session": browser.cookies[settings.SESSION_COOKIE_NAME].value,
                "csrf": get_random_string(32),
            }
        )
    model = Game.objects.get(
        pk=game_create_against_ai(player=Player(user=players[0]["user"]), side="X", level="perfect").pk
    )
    copies = []
    for number in range(1, payload["games"]):
        copy = Game(**{f.attname: getattr(model, f.attname) for f in Game._meta.concrete_fields if not f.primary_key})
        copy.x_player_id = players[number % len(players)]["user"].pk
        copy.seed = random.randrange(2**31)
        copies.append(copy)
    made = [model] + Game.objects.bulk_create(copies, batch_size=1000)
    by_user = {player["user"].pk: player for player in players}
    return {
        "games": [
            {
                "id": game.pk,
                "session_cookie": settings.SESSION_COOKIE_NAME,
                **{key: by_user[game.x_player_id][key] for key in ("token", "session", "csrf")},
            }
            for game in made
        ]
    }


def in_django_main(step: str) -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    payload = json.load(sys.stdin)
    print(json.dumps({"setup": django_setup}[step](payload)))


# -- the run ----------------------------------------------------------------------------------------


def print_table(rows: list[Row], fan: dict, args, database: Database, log=print) -> None:
    rounds = f"; the median of {args.rounds} rounds, each row in turn in each" if args.rounds > 1 else ""
    log(
        f"\n{database.vendor}, wrk {args.threads} threads, {args.connections} connections, "
        f"{args.duration:g} s a row after {args.warmup:g} s of warm-up{rounds}; {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the end (others' work on the machine shows here)"
    )
    header = f"{'what':<36} {'server':<24} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}  ratio"
    log(header)
    log("-" * len(header))
    for row in rows:
        ratio = f"{row.ratio:.2f} of {row.ratio_to}" if row.ratio is not None else "(anchor)"
        if row.ratio_range:
            ratio += f" (rounds: {row.ratio_range[0]:.2f}-{row.ratio_range[1]:.2f})"
        log(
            f"{row.label:<36} {row.server:<24} {row.requests_per_second:>9,.0f} {row.p50_ms:>8.1f} "
            f"{row.p99_ms:>8.1f} {row.errors:>7}  {ratio}"
        )
        if row.error_detail:
            log(f"{'':<36} errors: {row.error_detail}")
    log("\nCPU per request, ms (over each row's measured seconds; PostgreSQL and Redis: every process of theirs here)")
    header = f"{'what':<36} " + " ".join(f"{part:>10}" for part in CPU_PARTS)
    log(header)
    log("-" * len(header))
    for row in rows:
        if row.cpu_ms:
            log(f"{row.label:<36} " + " ".join(f"{row.cpu_ms[part]:>10.2f}" for part in CPU_PARTS))
    errors = sum(fan["errors"].values())
    log(
        f"\n{'spectator fan-out':<36} {f'{args.spectators} sockets, scripts/serve':<24} "
        f"{fan['moves']:>6} mv {fan['p50_ms']:>8.1f} {fan['p99_ms']:>8.1f} {errors:>7}  "
        f"({fan['heard']} deliveries: move sent -> each spectator heard it)"
    )
    log(
        f"{'':<36} {'':<24} {'':>9} {fan['answered_p50_ms']:>8.1f} {fan['answered_p99_ms']:>8.1f} {'':>7}  "
        "(of which the move's POST: sent -> answered)"
    )
    if fan["errors"]:
        log(f"{'':<36} errors: {fan['errors']}")


def socket_row(args, sockets: str, warm_games: list[dict], games: list[dict], meter: CpuMeter) -> Row:
    """Moves over the game's socket, warmed up first, as a row of the table."""
    if args.warmup > 0:
        run_on_uvloop(socket_moves(sockets, warm_games, args.connections, args.warmup))
    before = meter.read()
    played = run_on_uvloop(socket_moves(sockets, games, args.connections, args.duration))
    after = meter.read()
    return Row(
        "socket move vs the perfect AI",
        "scripts/serve: uvicorn",
        requests_per_second=played["per_second"],
        p50_ms=played["p50_ms"],
        p99_ms=played["p99_ms"],
        requests=played["moves"],
        errors=sum(played["errors"].values()) + (0 if played["moves"] else 1),
        error_detail=played["errors"] or ({} if played["moves"] else {"no_moves": 1}),
        cpu_ms=CpuMeter.per_request(before, after, played["moves"]),
    )


def compare(rows: list[Row]) -> None:
    """Each row's ratio: pages to the empty view (the first row), moves to the raw transaction (the fourth)."""
    empty, raw = rows[0], rows[3]
    for row in rows:
        if row in (empty, raw):
            continue
        compared = empty if "move" not in row.label else raw
        row.ratio = row.requests_per_second / compared.requests_per_second if compared.requests_per_second else 0
        row.ratio_to = "the empty view" if compared is empty else "the raw transaction"


def median_row(same: tuple[Row, ...]) -> Row:
    """One row's rounds as one: the median of each figure (of an odd number of
    rounds, the middle round's; of an even number, the mean of the middle two),
    errors added up. The ratio is then taken
    between the medians; print_table also shows the ratio's range over the rounds."""

    first = same[0]
    errors: dict[str, int] = {}
    for row in same:
        for kind, count in row.error_detail.items():
            errors[kind] = errors.get(kind, 0) + count
    ratios = [row.ratio for row in same if row.ratio is not None]
    return Row(
        first.label,
        first.server,
        requests_per_second=median(row.requests_per_second for row in same),
        p50_ms=median(row.p50_ms for row in same),
        p99_ms=median(row.p99_ms for row in same),
        requests=sum(row.requests for row in same),
        errors=sum(row.errors for row in same),
        error_detail=errors,
        cpu_ms={part: median(row.cpu_ms[part] for row in same) for part in first.cpu_ms}
        if all(row.cpu_ms for row in same)
        else {},
        ratio_range=(min(ratios), max(ratios)) if ratios else None,
    )


def run(args) -> int:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    database = Database(os.environ.get("DATABASE_URL"), folder, args.database_name)
    processes: list[subprocess.Popen] = []
    try:
        database.create()
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()

        site_port, anchor_port = free_port(), free_port()
        site, anchor = f"http://127.0.0.1:{site_port}", f"http://127.0.0.1:{anchor_port}"
        sockets = f"ws://127.0.0.1:{site_port}"
        env = site_environment(args, database, site_port)
        site_log = folder / "site.log"
        print(f"==> the site (scripts/serve) on {site}, {database.vendor}; log {site_log}", flush=True)
        with open(site_log, "w") as log:
            processes.append(start_serve(env, log))
        wait_for(site, "/healthz/", processes[-1], site_log)

        per_row = int(args.moves_per_second * args.duration) + args.connections * 4
        warm = int(args.moves_per_second * args.warmup) + args.connections * 2
        wanted = {"fan-out": 50}
        for n in range(args.rounds):  # a game is played once: each round has its own
            wanted |= {f"api-warm{n}": warm, f"api{n}": per_row, f"form-warm{n}": warm, f"form{n}": per_row}
            wanted |= {f"socket-warm{n}": warm // 2 + args.connections, f"socket{n}": per_row // 2 + args.connections}
        print(f"==> {args.connections} players and {sum(wanted.values()):,} games against the perfect AI", flush=True)
        made = in_django(env, "setup", {"players": args.connections, "games": sum(wanted.values())})["games"]
        games = {}
        for name, count in wanted.items():
            games[name], made = made[:count], made[count:]
        for name in games:
            if name.startswith(("api", "form")):
                games_file(folder / f"{name}.txt", games[name], api_headers if name.startswith("api") else form_headers)
        games_file(folder / "anchor.txt", [{"id": n} for n in range(1, ANCHOR_GAMES + 1)], lambda game: {})

        anchor_env = {**env, "DJANGO_SETTINGS_MODULE": "bench.anchor.settings"}
        subprocess.run([PYTHON, "-m", "bench.anchor.schema", str(ANCHOR_GAMES)], cwd=ROOT, env=anchor_env, check=True)  # fmt: skip
        anchor_log = folder / "anchor.log"
        print(f"==> the anchor (gunicorn, {ANCHOR_WORKERS} sync workers) on {anchor}; log {anchor_log}", flush=True)
        with open(anchor_log, "w") as log:
            gunicorn = Path(PYTHON).parent / "gunicorn"
            command = [str(gunicorn), "bench.anchor.wsgi:application", "--bind", f"127.0.0.1:{anchor_port}"]
            command += ["--workers", str(ANCHOR_WORKERS), "--worker-class", "sync", "--log-level", "warning"]
            processes.append(
                subprocess.Popen(
                    command, cwd=ROOT, env=anchor_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )  # fmt: skip
            )
        wait_for(anchor, "/empty/", processes[-1], anchor_log)
        meter = CpuMeter(site=processes[0], anchor=processes[1])

        get_script = folder / "get.lua"
        get_script.write_text(REPORT_LUA)
        raw_script = folder / "raw-move.lua"
        raw_script.write_text(move_script("/move/%s/", ""))
        api_script = folder / "api-move.lua"
        api_script.write_text(move_script("/api/games/%s/moves/", json.dumps({"cell": 4, "ply": 0})))
        form_script = folder / "form-move.lua"
        form_script.write_text(move_script("/games/%s/move/", "cell=4&ply=0", "application/x-www-form-urlencoded"))
        threads = str(args.threads)

        def played(name):
            return (str(folder / f"{name}.txt"), threads)

        anchor_label, site_label = f"gunicorn {ANCHOR_WORKERS} sync", "scripts/serve: granian"
        rounds: list[list[Row]] = []
        for n in range(args.rounds):
            steps = [
                (Row("anchor: empty Django view", anchor_label), anchor + "/empty/", get_script, (), None),
                (Row("site /healthz/", site_label), site + "/healthz/", get_script, (), None),
                (Row("site home page /", site_label), site + "/", get_script, (), None),
                (Row("raw move-shaped transaction", anchor_label), anchor, raw_script, played("anchor"), None),
                (
                    Row("API move vs the perfect AI", site_label),
                    site,
                    api_script,
                    played(f"api{n}"),
                    played(f"api-warm{n}"),
                ),  # fmt: skip
                (
                    Row("form move (the page's script)", site_label),
                    site,
                    form_script,
                    played(f"form{n}"),
                    played(f"form-warm{n}"),
                ),  # fmt: skip
            ]
            rows = []
            for row, url, script, script_args, warmup_args in steps:
                print(
                    f"==> {row.label}" + (f" (round {n + 1} of {args.rounds})" if args.rounds > 1 else ""), flush=True
                )
                rows.append(measure(args, row, url, script, script_args, warmup_args, meter))
            print("==> moves over the game's socket", flush=True)
            rows.append(socket_row(args, sockets, games[f"socket-warm{n}"], games[f"socket{n}"], meter))
            compare(rows)
            rounds.append(rows)
        rows = rounds[0] if args.rounds == 1 else [median_row(same) for same in zip(*rounds, strict=True)]
        compare(rows)

        print(f"==> spectator fan-out: {args.spectators} spectators", flush=True)
        fan = asyncio.run(fan_out(site, sockets, games["fan-out"], args.spectators, args.duration))
        print_table(rows, fan, args, database)
        if args.json:
            figures = {"rows": [row.__dict__ for row in rows], "fan_out": fan, "database": database.vendor}
            figures["rounds"] = [[row.__dict__ for row in each] for each in rounds]
            args.json.write_text(json.dumps(figures, indent=2))
        failed = any(row.errors for row in rows) or bool(fan["errors"]) or fan["heard"] == 0
        print("\nFAILED: some requests had errors" if failed else "\nOK: no errors")
        return 1 if failed else 0
    finally:
        for process in reversed(processes):
            stop_group(process)
        database.drop()
        if args.keep:
            print(f"(logs kept in {folder})")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10, help="measured seconds a row (default 10)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up before each row (default 3)")
    parser.add_argument("--connections", type=int, default=32, help="open connections, every row (default 32)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2, help="wrk threads (default: cores)")
    parser.add_argument("--workers", type=int, default=0, help="the site's WORKERS (default: scripts/serve's)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure every row this many times, in turn, and print each figure's median (default 1): "
        "the machine's speed drifts over minutes, and alternating rounds share the drift out fairly",
    )
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument(
        "--moves-per-second",
        type=float,
        default=1500,
        help="games made for the API move row: this many a second of it (default 1500)",
    )
    parser.add_argument(
        "--database-name",
        default=f"bench_web_{os.getpid()}",
        help="with DATABASE_URL: the PostgreSQL database made for the run and dropped after",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"),
        help="the site's Redis (this database is emptied first)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, Lua scripts)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")
    if args.connections < args.threads:
        args.threads = args.connections
    return run(args)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--in-django":
        in_django_main(sys.argv[2])
    else:
        sys.exit(main())
