"""Load test of the production server: bench/load.sh runs this.

For each database asked for (PostgreSQL, SQLite), on a fresh database:

1. start the site the production way (scripts/serve: nginx on
   127.0.0.1:PORT in front of granian's workers for the pages and the API and
   uvicorn for the WebSockets, the background worker, Redis between them);
2. let PLAYERS players play for DURATION seconds: half against the AI through
   the JSON API, half in pairs against each other, their moves sent and
   received over WebSockets; each waits a human-like moment before moving;
3. measure, in the same run, how many requests a second the server answers
   when pushed as hard as it goes, one kind at a time: /healthz/ (a page that
   does nothing), a read of one game through the API, a move against the AI
   through the API, and one over the game's WebSocket; each as a fraction of
   /healthz/. Each kind's seconds come in slices, the kinds in turn, so the
   machine's ups and downs fall on all of them (games to play are made
   before each clock starts);
4. stop the server and check that every move the server acknowledged is
   stored and that every stored game replays to its stored result
   (games.play.integrity, as `manage.py verify_games`).

With --kill-at S it also kills the whole server with SIGKILL S seconds into
the game phase (every process scripts/serve started: nginx, granian's
master and workers, uvicorn, the background worker, and the script itself) and starts it
again after --down seconds: the players carry on, and the checks show whether
anything acknowledged was lost or anything half-stored.

Nothing here is a test assertion: it prints figures (and writes them as JSON
with --json). The exit status is 1 when there were errors, lost moves or
corrupt games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

from bench.process_groups import group_members, start_serve, stop_group

ROOT = Path(__file__).resolve().parent.parent

PYTHON = ROOT / ".venv" / "bin" / "python"
LEVELS = ["easy", "medium", "hard", "perfect"]

PG_ADMIN_URL = os.environ.get("LOAD_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_DATABASE = os.environ.get("LOAD_PG_DATABASE", "tttsite_load")
SQLITE_PATH = Path(tempfile.gettempdir()) / "tttsite-load.sqlite3"


# -- figures ------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latency_summary(values: list[float]) -> dict:
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 0.50) * 1000, 1),
        "p95_ms": round(percentile(values, 0.95) * 1000, 1),
        "p99_ms": round(percentile(values, 0.99) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1) if values else None,
    }


class Tally:
    """What the players saw: latencies, errors, and every acknowledged move."""

    def __init__(self, kill_mode: bool):
        self.kill_mode = kill_mode
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.error_samples: dict[str, str] = {}
        self.interrupted: Counter[str] = Counter()
        self.acked: dict[int, dict[int, int]] = defaultdict(dict)  # game -> ply -> cell
        self.acked_at: dict[int, list[float]] = defaultdict(list)  # game -> when moves were acknowledged
        self.games_started: Counter[str] = Counter()

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        self.error_samples.setdefault(kind, detail[:300])

    def connection_lost(self, kind: str, detail: str = "") -> None:
        """A request cut off by the server going away: an error, unless the server was killed on purpose."""
        if self.kill_mode:
            self.interrupted[kind] += 1
        else:
            self.error(kind, detail)

    def ack(self, game: int, ply: int, cell: int) -> None:
        previous = self.acked[game].get(ply)
        if previous is not None and previous != cell:
            self.error("acknowledged_twice_differently", f"game {game} ply {ply}: {previous} then {cell}")
        self.acked[game][ply] = cell
        self.acked_at[game].append(time.monotonic())


# -- the players ------------------------------------------------------------------------


class Server:
    """Where the players go: pages and the API at ``base``, sockets at
    ``ws_base`` (the same address), opened as the site's pages open them,
    with ``base`` as their Origin."""

    def __init__(self, base: str, ws_base: str, session, tally: Tally, stop_at: float):
        self.base = base
        self.ws_base = ws_base
        self.session = session
        self.tally = tally
        self.stop_at = stop_at

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    async def call(self, method: str, path: str, token: str, body=None, kind: str = "request"):
        """(status, json) or None when the connection failed."""
        import aiohttp

        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        try:
            async with self.session.request(method, self.base + path, json=body, headers=headers) as response:
                text = await response.text()
                try:
                    data = json.loads(text) if text else None
                except ValueError:
                    data = None
                if response.status >= 500 or data is None:
                    self.tally.error(f"{kind}_{response.status}", text[:300])
                return response.status, data
        except (aiohttp.ClientConnectionError, asyncio.TimeoutError) as error:
            self.tally.connection_lost(f"{kind}_connection", repr(error))
            return None


def free_cells(board: str) -> list[int]:
    return [index for index, mark in enumerate(board) if mark == "."]


async def new_ai_game(server: Server, player: dict) -> dict | None:
    """A 3x3 game against the AI, on a side and at a level drawn at random."""
    answer = await server.call(
        "POST",
        "/api/games/",
        player["token"],
        {"variant": "3x3", "side": random.choice("XO"), "level": random.choice(LEVELS)},
        kind="create_game",
    )
    if answer is None:
        await asyncio.sleep(0.5)
        return None
    status, game = answer
    if status != 201:
        server.tally.error(f"create_game_{status}", json.dumps(game)[:300])
        await asyncio.sleep(1)
        return None
    server.tally.games_started["ai"] += 1
    for ply, cell in enumerate(game["moves"]):
        server.tally.ack(game["id"], ply, cell)
    return game


async def ai_player(server: Server, player: dict, think: float) -> None:
    """Games against the AI through the API, one move at a time, until time is up."""
    while server.running():
        game = await new_ai_game(server, player)
        if game is not None:
            await play_ai_game(server, player, game, think)


async def play_ai_game(server: Server, player: dict, game: dict, think: float) -> int:
    """Play ``game`` through the API to its end (or until time is up); the moves made."""
    tally, made = server.tally, 0
    while server.running() and game["status"] == "in_progress":
        if think:
            await asyncio.sleep(random.uniform(think / 2, think * 1.5))
        cell = random.choice(free_cells(game["board"]))
        started = time.monotonic()
        answer = await server.call(
            "POST",
            f"/api/games/{game['id']}/moves/",
            player["token"],
            {"cell": cell, "ply": game["ply"]},
            kind="ai_move",
        )
        if answer is None:
            game = await resync(server, player, game)
            continue
        status, body = answer
        if status == 201:
            tally.latencies["ai_move"].append(time.monotonic() - started)
            made += 1
            for ply, stored in enumerate(body["moves"]):
                tally.ack(body["id"], ply, stored)
            game = body
        elif status == 409 and tally.kill_mode and body and body.get("code") == "stale_ply":
            # Sent again after a restart, the first try having been stored: the game tells where it is.
            tally.interrupted["ai_move_already_stored"] += 1
            game = body["game"]
        elif status < 500:
            tally.error(f"ai_move_{status}", json.dumps(body)[:300])
            game = await resync(server, player, game)
    return made


async def resync(server: Server, player: dict, game: dict) -> dict:
    """The game as the server has it (asking also lets the AI make a pending move)."""
    while server.running():
        answer = await server.call("GET", f"/api/games/{game['id']}/", player["token"], kind="get_game")
        if answer is not None and answer[0] == 200:
            return answer[1]
        await asyncio.sleep(0.5)
    return {**game, "status": "stopped"}


async def human_pair(server: Server, first: dict, second: dict, think: float) -> None:
    """Two people: one challenges, the other accepts, both play over WebSockets."""
    tally = server.tally
    while server.running():
        answer = await server.call(
            "POST",
            "/api/challenges/",
            first["token"],
            {"kind": "direct", "opponent": second["username"]},
            kind="challenge",
        )
        if answer is None or answer[0] != 201:
            if answer is not None:
                tally.error(f"challenge_{answer[0]}", json.dumps(answer[1])[:300])
            await asyncio.sleep(0.5)
            continue
        challenge = answer[1]
        answer = await server.call("POST", f"/api/challenges/{challenge['id']}/accept/", second["token"], kind="accept")
        if answer is None or answer[0] != 201:
            if answer is not None:
                tally.error(f"accept_{answer[0]}", json.dumps(answer[1])[:300])
            await asyncio.sleep(0.5)
            continue
        game_id = answer[1]["id"]  # accepting answers with the new game
        tally.games_started["human"] += 1
        await asyncio.gather(
            play_over_websocket(server, first, game_id, think), play_over_websocket(server, second, game_id, think)
        )


async def play_over_websocket(server: Server, player: dict, game_id: int, think: float) -> None:
    """One side of a game between people: moves sent and heard over the game's socket."""
    import aiohttp

    tally = server.tally
    headers = {"Cookie": f"sessionid={player['session']}", "Origin": server.base}
    url = f"{server.ws_base}/ws/games/{game_id}/"
    game = await resync(server, player, {"id": game_id, "status": "in_progress"})
    while server.running() and game["status"] == "in_progress":
        try:
            async with server.session.ws_connect(url, headers=headers, heartbeat=None) as socket:
                game = await _play_on_socket(server, player, game, socket, think)
        except (aiohttp.ClientConnectionError, aiohttp.WSServerHandshakeError, asyncio.TimeoutError) as error:
            tally.connection_lost("websocket_connect", repr(error))
            await asyncio.sleep(0.5)
            game = await resync(server, player, game)


async def _play_on_socket(
    server: Server, player: dict, game: dict, socket, think: float, latency_key: str = "human_move"
) -> dict:
    import aiohttp

    tally = server.tally
    cells = list(game["moves"])
    side = game["your_side"]
    sent: dict[int, tuple[int, float]] = {}  # ply -> (cell, when)
    status = game["status"]

    async def maybe_move():
        to_move = "X" if len(cells) % 2 == 0 else "O"
        if status != "in_progress" or to_move != side or len(cells) in sent:
            return
        if think:
            await asyncio.sleep(random.uniform(think / 2, think * 1.5))
        board = ["."] * 9
        for index, cell in enumerate(cells):
            board[cell] = "XO"[index % 2]
        cell = random.choice(free_cells("".join(board)))
        sent[len(cells)] = (cell, time.monotonic())
        await socket.send_json({"action": "move", "cell": cell, "ply": len(cells)})

    while server.running():
        try:
            # Not receive(timeout=30): aiohttp answers the server's pings inside
            # receive() and starts its timeout again after each, so with pings
            # every 20 s a socket that never hears its move would wait for ever.
            message = await asyncio.wait_for(socket.receive(), 30)
        except asyncio.TimeoutError:
            tally.error("websocket_silent", f"game {game['id']}: nothing heard for 30 s")
            return await resync(server, player, game)
        if message.type != aiohttp.WSMsgType.TEXT:
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                if status == "in_progress":
                    tally.connection_lost("websocket_closed", f"code {socket.close_code}")
                return await resync(server, player, game)
            tally.connection_lost("websocket_error", repr(message))
            return await resync(server, player, game)
        event = json.loads(message.data)
        kind = event.get("type")
        if kind == "state":
            if event["ply"] != len(cells):
                game = await resync(server, player, game)
                cells = list(game["moves"])
            status = event["status"]
        elif kind == "move":
            for move in event["moves"]:  # every move the server stored in that transaction
                ply, cell = move["ply"], move["cell"]
                tally.ack(game["id"], ply, cell)
                if ply == len(cells):
                    cells.append(cell)
                elif ply > len(cells):  # missed one: ask
                    game = await resync(server, player, game)
                    cells = list(game["moves"])
                if ply in sent and sent[ply][0] == cell:
                    tally.latencies[latency_key].append(time.monotonic() - sent.pop(ply)[1])
            status = event["status"]
        elif kind == "refused":
            if tally.kill_mode and event.get("code") == "stale_ply":
                tally.interrupted["human_move_already_stored"] += 1
            else:
                tally.error(f"human_move_refused_{event.get('code')}", json.dumps(event)[:300])
            game = await resync(server, player, game)
            cells, status = list(game["moves"]), game["status"]
            sent.clear()
        elif kind in ("resigned", "timeout", "aborted"):
            status = event.get("status", status)
        if status != "in_progress":
            await socket.close()
            return {**game, "moves": cells, "status": status}
        await maybe_move()
    return {**game, "moves": cells, "status": "stopped"}


async def hammer_get(server: Server, clients: list[tuple[dict, str]], kind: str) -> int:
    """Each client GETs its path over and over until time is up; the answers counted."""
    import aiohttp

    async def one(player, path):
        done = 0
        headers = {"Authorization": f"Token {player['token']}"} if player else {}
        while server.running():
            started = time.monotonic()
            try:
                async with server.session.get(server.base + path, headers=headers) as response:
                    await response.read()
                    if response.status == 200:
                        done += 1
                        server.tally.latencies[kind].append(time.monotonic() - started)
                    else:
                        server.tally.error(f"{kind}_{response.status}")
            except aiohttp.ClientConnectionError as error:
                server.tally.error(f"{kind}_connection", repr(error))
        return done

    return sum(await asyncio.gather(*(one(player, path) for player, path in clients)))


async def games_for(server: Server, players: list[dict], each: int) -> list[list[dict]]:
    """``each`` new games against the AI per player, made before a clock starts."""

    async def make(player):
        games = []
        while len(games) < each:
            game = await new_ai_game(server, player)
            if game is not None and game["status"] == "in_progress":
                games.append(game)
        return games

    return await asyncio.gather(*(make(player) for player in players))


async def play_flat_out(server: Server, players: list[dict], games: list[list[dict]], over_socket: bool) -> None:
    """Each player plays its games to their end without pausing, until time is up
    or a player has none left (the clock stops for everyone then)."""
    import aiohttp

    async def one(player, queue):
        while server.running():
            if not queue:
                server.stop_at = min(server.stop_at, time.monotonic())
                return
            game = queue.pop()
            if not over_socket:
                await play_ai_game(server, player, game, think=0)
                continue
            headers = {"Cookie": f"sessionid={player['session']}", "Origin": server.base}
            try:
                async with server.session.ws_connect(
                    f"{server.ws_base}/ws/games/{game['id']}/", headers=headers, heartbeat=None
                ) as socket:
                    await _play_on_socket(server, player, game, socket, 0, latency_key="ai_move_socket")
            except (aiohttp.ClientConnectionError, aiohttp.WSServerHandshakeError, asyncio.TimeoutError) as error:
                server.tally.error("ai_move_socket_connect", repr(error))

    await asyncio.gather(*(one(player, queue) for player, queue in zip(players, games, strict=True)))


# -- phases -------------------------------------------------------------------------------


async def finish(coroutines, grace: float) -> None:
    """Run the players; any still busy ``grace`` seconds on (waiting on a socket
    whose other side has stopped, say) is cancelled rather than waited for."""
    tasks = [asyncio.ensure_future(coroutine) for coroutine in coroutines]
    done, pending = await asyncio.wait(tasks, timeout=grace)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        task.result()  # a bug in a player is a crash of this script, not a silent loss


async def run_phases(args, base: str, ws_base: str, players: list[dict], tally: Tally, on_kill) -> dict:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(
        connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
    ) as session:
        half = len(players) // 2
        ai_players, people = players[:half], players[half:]
        figures: dict = {"players": {"against_ai": len(ai_players), "in_human_games": len(people) // 2 * 2}}

        # Phase 1: everyone plays, at a person's pace.
        started = time.monotonic()
        server = Server(base, ws_base, session, tally, started + args.duration)
        tasks = [ai_player(server, player, args.think) for player in ai_players]
        tasks += [human_pair(server, people[i], people[i + 1], args.think) for i in range(0, len(people) - 1, 2)]
        if args.kill_at is not None:
            tasks.append(on_kill(started + args.kill_at))
        await finish(tasks, grace=args.duration + 30)
        elapsed = time.monotonic() - started
        moves = tally.latencies["ai_move"], tally.latencies["human_move"]
        figures["game_phase"] = {
            "seconds": round(elapsed, 1),
            "moves_acknowledged": sum(len(plies) for plies in tally.acked.values()),
            "move_requests_per_second": round((len(moves[0]) + len(moves[1])) / elapsed, 1),
            "ai_move": latency_summary(moves[0]),
            "human_move": latency_summary(moves[1]),
            "games_started": dict(tally.games_started),
        }
        if args.kill_at is not None or not args.saturation:
            return figures

        # Phase 2: as fast as it goes, one kind of request at a time: a page that
        # does nothing; a read of one game through the API (its token check and
        # rate limit, one game read and written out: what every API call pays);
        # moves against the AI through the API; the same over the game's socket.
        # The games are made before each clock starts, so a figure is of the
        # requests it names and nothing else.
        clients = players[: args.concurrency]
        answered, spent = Counter(), Counter()

        async def flat_out(name: str, measure, prepare, seconds: float) -> None:
            """``prepare(server)`` before the clock; ``measure(server, prepared)`` (the
            requests it got answered) for ``seconds``."""
            tally.latencies.setdefault(name, [])
            server = Server(base, ws_base, session, tally, float("inf"))
            prepared = await prepare(server) if prepare else None
            started = server.stop_at = time.monotonic()
            server.stop_at += seconds
            answered[name] += await measure(server, prepared)
            spent[name] += time.monotonic() - started

        async def one_game_each(server):
            return await games_for(server, clients, 1)

        async def games_to_play(server):
            # Enough for moves at one third of /healthz/'s pace (about three
            # moves a game); at a slower pace some are left over.
            healthz_rate = answered["healthz"] / spent["healthz"]
            return await games_for(server, clients, 2 + int(healthz_rate * slice_seconds / 3 / 3 / len(clients)))

        async def healthz(server, _):
            return await hammer_get(server, [(None, "/healthz/")] * len(clients), "healthz")

        async def api_read(server, games):
            paths = [(player, f"/api/games/{mine[0]['id']}/") for player, mine in zip(clients, games, strict=True)]
            return await hammer_get(server, paths, "api_read")

        async def api_moves(server, games):
            before = len(tally.latencies["ai_move"])
            await play_flat_out(server, clients, games, over_socket=False)
            return len(tally.latencies["ai_move"]) - before

        async def socket_moves(server, games):
            before = len(tally.latencies["ai_move_socket"])
            await play_flat_out(server, clients, games, over_socket=True)
            return len(tally.latencies["ai_move_socket"]) - before

        # Each kind gets its seconds in slices taken in turn, so a spell of
        # slowness on a shared machine falls on every kind alike rather than
        # on whichever was being measured when it came.
        tally.latencies["ai_move"] = []  # from here on, flat-out moves only
        slice_seconds = args.saturation / args.slices
        for _ in range(args.slices):
            await flat_out("healthz", healthz, None, slice_seconds)
            await flat_out("api_read", api_read, one_game_each, slice_seconds)
            await flat_out("ai_move", api_moves, games_to_play, slice_seconds)
            await flat_out("ai_move_socket", socket_moves, games_to_play, slice_seconds)
        rates = {name: answered[name] / spent[name] for name in answered}
        figures["saturation"] = {
            "concurrency": args.concurrency,
            "seconds_each": args.saturation,
            "slices": args.slices,
            **{
                name: {
                    "per_second": round(rate, 1),
                    "fraction_of_healthz": round(rate / rates["healthz"], 3),
                    "latency": latency_summary(tally.latencies[name]),
                }
                for name, rate in rates.items()
            },
        }
        return figures


# -- the server and the database ------------------------------------------------------------


def database_url(kind: str) -> str:
    if kind == "postgres":
        return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + PG_DATABASE
    return f"sqlite:///{SQLITE_PATH}"


def fresh_database(kind: str) -> None:
    if kind == "postgres":
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    else:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{SQLITE_PATH}{suffix}").unlink(missing_ok=True)


def fresh_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def server_environment(args, kind: str) -> dict:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="load-test-" + "k" * 50,
        DATABASE_URL=database_url(kind),
        REDIS_URL=args.redis_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        HOST="127.0.0.1",
        PORT=str(args.port),
        LOG_LEVEL="WARNING",
        # Bots play faster than people: the per-user API rate limit would
        # stop them long before the server is busy. Every player is on one
        # address, which the per-address socket cap would stop at a hundred.
        API_RATE_USER="1000000/min",
        API_RATE_ANON="1000000/min",
        SOCKETS_PER_ADDRESS="100000",
        SOCKET_FRAMES_PER_SECOND="100000",
        SOCKET_FRAME_BURST="100000",
    )
    if args.workers:
        env["WORKERS"] = str(args.workers)
    else:
        env.pop("WORKERS", None)  # scripts/serve's own default, one per core
    return env


def start_server(env: dict, log) -> subprocess.Popen:
    port = env["PORT"]
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", int(port))) == 0:
            raise SystemExit(f"something already listens on 127.0.0.1:{port}: stop it or pass --port")
    process = start_serve(env, log)
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with status {process.returncode}; see its log")
        if time.monotonic() > deadline:
            raise SystemExit(f"the server did not answer /healthz/ on {port} within 120 s")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            pass
        time.sleep(0.3)


def server_processes(group: int) -> dict[int, str]:
    """The living processes of process group ``group`` (scripts/serve and all it
    started), each named for what it is."""
    found = {}
    for pid, (ppid, command) in group_members(group).items():
        if "bin/granian" in command:
            name = "granian master" if ppid == group else "granian worker"
        elif command.startswith("nginx"):
            name = "nginx"
        elif "spawn_main" in command or "multiprocessing" in command:
            name = "spawned child"
        elif "uvicorn" in command:
            name = "uvicorn"
        elif "run_worker" in command:
            name = "run_worker"
        elif "scripts/serve" in command:
            name = "scripts/serve"
        else:
            name = command.split(" ", 1)[0].rsplit("/", 1)[-1] or "?"
        found[pid] = name
    return found


def kill_server(process: subprocess.Popen) -> dict[str, int]:
    """SIGKILL to every process of the server's group at once; waits until none
    is left alive. What was killed, counted by kind."""
    killed = server_processes(process.pid)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while (alive := server_processes(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    if alive:
        raise SystemExit(f"processes of the server outlived SIGKILL: {alive}")
    return dict(Counter(killed.values()))


def stop_server(process: subprocess.Popen) -> None:
    stop_group(process)
    # scripts/serve stops what it started; anything left would hold the ports or the database.
    deadline = time.monotonic() + 20
    while (left := server_processes(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left:
        print(f"   left after the server stopped, killed: {left}", flush=True)
        os.killpg(process.pid, signal.SIGKILL)


def in_django(env: dict, step: str, payload: dict) -> dict:
    """Run ``step`` of this file in a process set up with the server's settings."""
    result = subprocess.run(
        [str(PYTHON), "-m", "bench.load", "--in-django", step],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{step} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def run_one(args, kind: str) -> dict:
    base, ws_base = f"http://127.0.0.1:{args.port}", f"ws://127.0.0.1:{args.port}"
    print(f"\n== {kind}: fresh database; the site on {base}", flush=True)
    fresh_database(kind)
    fresh_redis(args.redis_url)
    env = server_environment(args, kind)
    log_path = Path(tempfile.gettempdir()) / f"tttsite-load-{kind}.log"
    tally = Tally(kill_mode=args.kill_at is not None)
    kills = {}
    with open(log_path, "w") as log:
        server = start_server(env, log)
        try:  # the server stops however the run ends
            serving = Counter(server_processes(server.pid).values())
            print(f"   scripts/serve's processes: {dict(serving)}", flush=True)
            players = in_django(env, "players", {"count": args.players})["players"]
            print(f"   {len(players)} players ready; playing for {args.duration} s", flush=True)

            async def kill_and_restart(when: float):
                nonlocal server
                await asyncio.sleep(max(0, when - time.monotonic()))
                kills["processes_killed"] = kill_server(server)
                kills["killed_at"] = time.monotonic()
                kills["killed_at_s"] = args.kill_at
                print(
                    f"   kill -9 of every server process at {args.kill_at} s ({kills['processes_killed']}); "
                    f"down for {args.down} s",
                    flush=True,
                )
                await asyncio.sleep(args.down)
                restarted = time.monotonic()
                server = await asyncio.to_thread(start_server, env, log)
                kills["restart_seconds"] = round(time.monotonic() - restarted, 1)
                kills["back_at"] = time.monotonic()

            figures = asyncio.run(run_phases(args, base, ws_base, players, tally, kill_and_restart))
        finally:
            stop_server(server)
    figures["server"] = {"pages": base, "sockets": ws_base, "processes": dict(serving)}
    acked = {str(game): plies for game, plies in tally.acked.items()}
    figures["check"] = in_django(env, "verify", {"acked": acked})
    figures["errors"] = dict(tally.errors)
    figures["error_samples"] = tally.error_samples
    if args.kill_at is not None:
        killed, back = kills.get("killed_at", float("inf")), kills.get("back_at", float("inf"))
        went_on = sum(1 for times in tally.acked_at.values() if min(times) < killed and max(times) > back)
        figures["kill"] = {
            "killed_at_s": kills.get("killed_at_s"),
            "processes_killed": kills.get("processes_killed"),
            "down_s": args.down,
            "restart_seconds": kills.get("restart_seconds"),
            "requests_cut_off": dict(tally.interrupted),
            "games_that_went_on_after_the_restart": went_on,
        }
    figures["server_log"] = str(log_path)
    return figures


# -- the steps that need Django ------------------------------------------------------------


def django_players(payload: dict) -> dict:
    """Accounts with an API token and a signed-in session each."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model

    from games.accounts.services import api_token_create

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore  # the site's sessions, as login() makes them

    User = get_user_model()
    players = []
    for number in range(payload["count"]):
        user = User(username=f"load{number:04d}")
        user.set_unusable_password()
        user.save()
        token = api_token_create(user=user, name="load test")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append({"username": user.username, "token": token, "session": session.session_key})
    return {"players": players}


def django_verify(payload: dict) -> dict:
    """Is every acknowledged move stored, and does every stored game replay?"""
    from games.play.integrity import verify_games
    from games.play.models import Game, Move

    acked = {int(game): {int(ply): cell for ply, cell in plies.items()} for game, plies in payload["acked"].items()}
    stored = defaultdict(dict)
    for game, ply, cell in Move.objects.filter(game_id__in=list(acked)).values_list("game_id", "ply", "cell"):
        stored[game][ply] = cell
    lost = [
        f"game {game} ply {ply} cell {cell}"
        for game, plies in acked.items()
        for ply, cell in plies.items()
        if stored[game].get(ply) != cell
    ]
    problems = [str(problem) for problem in verify_games()]
    return {
        "games_stored": Game.objects.count(),
        "moves_stored": Move.objects.count(),
        "moves_acknowledged": sum(len(plies) for plies in acked.values()),
        "acknowledged_but_missing": len(lost),
        "missing_samples": lost[:10],
        "corrupt_games": len(problems),
        "corrupt_samples": problems[:10],
    }


def in_django_main(step: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")
    import django

    django.setup()
    payload = json.load(sys.stdin)
    print(json.dumps({"players": django_players, "verify": django_verify}[step](payload)))


# -- main -----------------------------------------------------------------------------------


SATURATION_LABELS = {
    "healthz": "/healthz/ (a page that does nothing)",
    "api_read": "one game read through the API",
    "ai_move": "a move against the AI, API",
    "ai_move_socket": "a move against the AI, WebSocket",
}


def report(kind: str, figures: dict) -> None:
    phase = figures["game_phase"]
    print(f"\n-- {kind} --")
    server = figures["server"]
    print(f"server: pages and API {server['pages']}, WebSockets {server['sockets']}; processes {server['processes']}")
    print(
        f"players: {figures['players']['against_ai']} against the AI (HTTP API), "
        f"{figures['players']['in_human_games']} in games between people (WebSockets)"
    )
    print(
        f"game phase: {phase['seconds']} s, {phase['moves_acknowledged']} moves acknowledged, "
        f"{phase['move_requests_per_second']} moves sent per second, games started {phase['games_started']}"
    )
    for name in ("ai_move", "human_move"):
        summary = phase[name]
        print(
            f"  {name:<11} n={summary['count']:<6} p50 {summary['p50_ms']} ms  p95 {summary['p95_ms']} ms  "
            f"p99 {summary['p99_ms']} ms  max {summary['max_ms']} ms"
        )
    if "saturation" in figures:
        sat = figures["saturation"]
        print(
            f"flat out ({sat['concurrency']} clients, {sat['seconds_each']} s each in {sat['slices']} slices taken in turn; "
            "games made before the clock):"
        )
        for name, label in SATURATION_LABELS.items():
            figure = sat[name]
            print(
                f"  {label:<40} {figure['per_second']:>7}/s  p50 {figure['latency']['p50_ms']:>6} ms  "
                f"= {figure['fraction_of_healthz']:.2f} of /healthz/"
            )
    if "kill" in figures:
        print(f"kill -9: {figures['kill']}")
    check = figures["check"]
    print(
        f"check: {check['games_stored']} games and {check['moves_stored']} moves stored; "
        f"{check['moves_acknowledged']} moves acknowledged, {check['acknowledged_but_missing']} of them missing; "
        f"{check['corrupt_games']} games that do not replay"
    )
    for sample in check["missing_samples"] + check["corrupt_samples"]:
        print("   ", sample)
    print(f"errors: {sum(figures['errors'].values())} {figures['errors'] or ''}")
    for kind_, sample in figures["error_samples"].items():
        print(f"   {kind_}: {sample}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["postgres", "sqlite", "both"], default="both")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--duration", type=float, default=120, help="seconds of play")
    parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="a player's mean pause before a move, seconds (uniform from half to one and a half times it)",
    )
    parser.add_argument("--saturation", type=float, default=20, help="seconds of each saturation measure (0: skip)")
    parser.add_argument(
        "--slices", type=int, default=4, help="each saturation measure is taken in this many slices, the kinds in turn"
    )
    parser.add_argument("--concurrency", type=int, default=32, help="clients in the saturation measures")
    parser.add_argument(
        "--workers", type=int, default=0, help="granian's workers (default: scripts/serve's, one per core)"
    )
    parser.add_argument("--port", type=int, default=8200, help="the site's port")
    parser.add_argument("--redis-url", default=os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/7"))
    parser.add_argument("--kill-at", type=float, default=None, help="kill -9 the server this many seconds in")
    parser.add_argument("--down", type=float, default=2, help="seconds the killed server stays down")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    results = {}
    for kind in ["postgres", "sqlite"] if args.db == "both" else [args.db]:
        results[kind] = run_one(args, kind)
        report(kind, results[kind])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    failed = any(
        figures["errors"] or figures["check"]["acknowledged_but_missing"] or figures["check"]["corrupt_games"]
        for figures in results.values()
    )
    print("\nFAILED" if failed else "\nOK: no errors, nothing acknowledged is missing, every game replays.")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--in-django":
        in_django_main(sys.argv[2])
    else:
        sys.exit(main())
