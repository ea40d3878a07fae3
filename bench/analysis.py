"""How fast the analysis board answers: ``python -m bench.analysis``.

The page must answer in 300 ms at the 95th percentile on 3x3 and 4x4, and
within the engine's own bound (``engine.DEFAULT_BUDGET``) on 5x5. For each
board this requests the analysis page (Django's test client, in this process:
the view, the engine and the template, no server or network) for the empty
board and for positions reached by random play, each position twice:

* first: the engine's remembered analyses and the kept lines forgotten
  (``forget()`` and the cache cleared), as for a position nobody asked about
  lately; the solvers' own tables stay warm, as in a running server;
* again: the same request straight after, as when a learner steps back.

It prints p50, p95 and the slowest per board and mode, and flags a p95 over
the target. It needs no database. Run it from the project folder with the
settings a deployment uses (``export SECRET_KEY=$(cat .secret_key)``);
``--positions`` sets how many positions per board (default 40).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable

#: The page's target at the 95th percentile, in milliseconds, on 3x3 and 4x4.
TARGET_P95_MS = 300


@dataclass
class BoardTiming:
    variant: str
    mode: str  # "first" or "again"
    times_ms: list[float]
    statuses: set[int]
    target_ms: float

    def percentile(self, p: int) -> float:
        times = sorted(self.times_ms)
        if len(times) == 1:
            return times[0]
        return statistics.quantiles(times, n=100, method="inclusive")[p - 1]


def positions_for(size: int, count: int, rng: random.Random):
    """The empty board and ``count - 1`` positions still in play, reached by random moves."""
    from games import engine

    boards = [engine.Board.empty(size)]
    while len(boards) < count:
        board = engine.Board.empty(size)
        for _ in range(rng.randrange(1, size * size - 2)):
            board = board.play(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


def bench_analysis(positions: int = 40, seed: int = 1, log: Callable[[str], None] = print) -> list[BoardTiming]:
    """Time the analysis page on every board and print the table."""
    from django.conf import settings
    from django.core.cache import cache
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import reverse

    from games import engine
    from games.learn.positions import analysis_query
    from games.search.analysis import forget

    rng = random.Random(seed)
    client = Client(raise_request_exception=False)
    url = reverse("games:analysis")
    header = f"{'board':<6} {'mode':<6} {'requests':>8} {'p50':>9} {'p95':>9} {'slowest':>9} {'target':>9}"
    log(f"analysis page, DEBUG={settings.DEBUG}, {positions} positions per board (seed {seed}), test client in-process")
    log(header)
    log("-" * len(header))
    timings = []
    unlimited = {
        "ALLOWED_HOSTS": [*settings.ALLOWED_HOSTS, "testserver"],
        # The search in this thread, as an engine process would make it, for
        # one guest asking a lot, whose session is a cookie (no database).
        "ENGINE_PROCESSES": False,
        "ENGINE_SECONDS_GUEST": "1000000/s",
        "ENGINE_SECONDS_ADDRESS": "1000000/s",
        "SESSION_ENGINE": "django.contrib.sessions.backends.signed_cookies",
        # No collected manifest needed: {% static %} costs the same either way.
        "STORAGES": {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    }
    with override_settings(**unlimited):
        client.get(url)  # imports, templates and the 3x3 table: not the page's own cost
        for size in (3, 4, 5):
            target = TARGET_P95_MS if size < 5 else engine.DEFAULT_BUDGET * 1000
            first = BoardTiming(f"{size}x{size}", "first", [], set(), target)
            again = BoardTiming(f"{size}x{size}", "again", [], set(), target)
            for board in positions_for(size, positions, rng):
                address = url + analysis_query(board)
                forget()
                cache.clear()
                for timing in (first, again):
                    started = time.perf_counter()
                    response = client.get(address)
                    timing.times_ms.append((time.perf_counter() - started) * 1000)
                    timing.statuses.add(response.status_code)
            for timing in (first, again):
                timings.append(timing)
                flag = "" if timing.percentile(95) <= target else "  <-- p95 over the target"
                if timing.statuses != {200}:
                    flag += f"  <-- HTTP {sorted(timing.statuses)}"
                log(
                    f"{timing.variant:<6} {timing.mode:<6} {len(timing.times_ms):>8} {timing.percentile(50):>7.1f}ms "
                    f"{timing.percentile(95):>7.1f}ms {max(timing.times_ms):>7.1f}ms {target:>7.0f}ms{flag}"
                )
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40, help="positions per board (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="the random positions' seed (default 1)")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")
    import django

    django.setup()
    bench_analysis(args.positions, args.seed)


if __name__ == "__main__":
    main()
