"""/healthz/ while anonymous clients hammer ``?hint=1`` on 5x5 games (issue 18).

    python -m games.devtools.bench_hints [--clients 6] [--rate 2] [--seconds 20]

For each setting of the engine budget it starts a real server (uvicorn, one
worker, production settings, a fresh SQLite file), makes 5x5 games at many
different positions a few marks in (so every hint is a real search, never an
answer from the cache), lets ``--clients`` threads ask for hints ``--rate``
times a second each, and meanwhile times /healthz/ ten times a second. It prints
the median and 95th percentile of /healthz/ and how the hint requests were
answered. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The settings compared: what the site did before (every search in the
#: server's process, no limit), slots only, and the budget as it now ships.
MODES = {
    "before (in-process, unlimited)": {
        "ENGINE_PROCESSES": "0",
        "ENGINE_SLOTS": "1000",
        "ENGINE_RATE_ANON": "1000000/min",
    },
    "slots only (in-process, 2 slots)": {
        "ENGINE_PROCESSES": "0",
        "ENGINE_SLOTS": "2",
        "ENGINE_RATE_ANON": "1000000/min",
    },
    "after, no rate limit (2 processes)": {
        "ENGINE_PROCESSES": "1",
        "ENGINE_SLOTS": "2",
        "ENGINE_RATE_ANON": "1000000/min",
    },
    "after, defaults (20 searches/min a client)": {"ENGINE_PROCESSES": "1", "ENGINE_SLOTS": "2"},
}

MAKE_GAMES = """
import random, sys
from games.play import services
from games.play.models import Game, Move
from games.play.players import Player
from games.engine import Board
rng = random.Random(7)
ids = []
for n in range(int(sys.argv[1])):
    game = services.game_create_against_ai(player=Player(guest_key=f"bench{n}"), variant="5x5", level="easy")
    Move.objects.filter(game=game).delete()
    board, cells = Board.empty(5), []
    while len(cells) < 6:
        cell = rng.choice(board.legal_moves)
        board = board.play(cell)
        cells.append(cell)
    Move.objects.bulk_create(Move(game=game, ply=p, cell=c) for p, c in enumerate(cells))
    Game.objects.filter(pk=game.pk).update(move_count=len(cells), seed=n)
    ids.append(game.pk)
print(",".join(map(str, ids)))
"""


def _get(url: str, timeout: float = 30) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except Exception:
        status = 0
    return status, time.perf_counter() - start


def run_mode(name: str, overrides: dict, clients: int, rate: float, seconds: float, port: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-hints-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tttsite.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "SECRET_KEY": "bench-" + "x" * 50,
        "DEBUG": "0",
        "STATIC_ROOT": str(folder / "static"),
        **overrides,
    }
    env.pop("REDIS_URL", None)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [python, "-c", "import django; django.setup()\n" + MAKE_GAMES, "400"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    games = [int(pk) for pk in made.stdout.strip().splitlines()[-1].split(",")]
    server = subprocess.Popen(
        [python, "-m", "uvicorn", "tttsite.asgi:application", "--port", str(port), "--workers", "1", "--no-access-log"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            if _get(base + "/healthz/", 1)[0] == 200:
                break
            time.sleep(0.2)
        quiet = [_get(base + "/healthz/")[1] for _ in range(20)]
        stop = threading.Event()
        answers: dict[int, int] = {}
        queue = iter(random.Random(1).sample(games, len(games)) * 10)
        lock = threading.Lock()

        def hammer():
            # A fixed offered load: each client asks every 1/rate seconds (at once when late),
            # so a cheap refusal does not turn into more requests than the search it saves.
            next_at = time.monotonic()
            while not stop.is_set():
                with lock:
                    pk = next(queue)
                status, _ = _get(f"{base}/games/{pk}/?hint=1", 60)
                with lock:
                    answers[status] = answers.get(status, 0) + 1
                next_at += 1 / rate
                stop.wait(max(0.0, next_at - time.monotonic()))

        threads = [threading.Thread(target=hammer, daemon=True) for _ in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        loaded = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            loaded.append(_get(base + "/healthz/")[1])
            time.sleep(0.1)
        stop.set()
        for thread in threads:
            thread.join(70)
    finally:
        server.terminate()
        server.wait(10)
    ms = lambda values: f"{statistics.median(values) * 1000:7.1f} ms"  # noqa: E731
    p95 = sorted(loaded)[int(len(loaded) * 0.95) - 1] * 1000
    print(
        f"{name:45} /healthz/ quiet {ms(quiet)}, under load median {ms(loaded)}, p95 {p95:7.1f} ms; "
        f"hint answers {dict(sorted(answers.items()))}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--rate", type=float, default=2, help="hint requests a second per client")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--mode", choices=list(MODES), action="append", help="only these settings (repeatable)")
    args = parser.parse_args()
    print(
        f"{args.clients} anonymous clients asking ?hint=1 on 5x5 games {args.rate:g} times a second each, "
        f"/healthz/ timed for {args.seconds:g} s"
    )
    for name in args.mode or MODES:
        run_mode(name, MODES[name], args.clients, args.rate, args.seconds, args.port)


if __name__ == "__main__":
    main()
