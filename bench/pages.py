"""Measure the pages that read the most data: ``python -m bench pages``.

Meant for a database filled by ``python -m bench sample_games``. Each page is requested through
Django's test client, in this process (no web server, no network: the figures
are the view, its queries and its template), ``requests`` times cold and
``requests`` times warm:

* cold: Django's cache cleared and the database connection closed before each
  request, so it pays for a fresh connection and recomputes whatever it caches;
* warm: the same request repeated, after one untimed request to fill the cache.

The queries of one cold and one warm request are counted separately from the
timed ones, so counting costs nothing to the times. A page whose URL does not
resolve is printed as "not available", never skipped in silence.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import NoReverseMatch, reverse

from games.stats.models import PlayerStats

TARGET_P95_MS = 150


@dataclass
class PageTiming:
    page: str
    mode: str  # "cold" or "warm"
    status: int | None = None
    times_ms: list[float] | None = None
    queries: int | None = None
    note: str = ""

    def percentile(self, p: int) -> float:
        times = sorted(self.times_ms)
        if len(times) == 1:
            return times[0]
        return statistics.quantiles(times, n=100, method="inclusive")[p - 1]


@dataclass
class Page:
    label: str
    url_name: str
    args: tuple = ()
    user: object = None  # signed in as this user when set


def pick_players():
    """(the busiest player, a player with the median number of finished games)."""
    stats = PlayerStats.objects.select_related("user").order_by("-games", "user_id")
    busiest = stats.first()
    if busiest is None:
        return None, None
    median = stats[stats.count() // 2]
    return busiest.user, median.user


def pages_to_measure() -> list[Page]:
    busy, average = pick_players()
    pages = [Page("site statistics", "games:stats"), Page("leaderboard", "games:leaderboard")]
    for kind, player in (("busiest", busy), ("median", average)):
        if player is None:
            pages.append(Page(f"profile of the {kind} player (no players)", "games:profile", ("",)))
            continue
        games = player.stats.games
        pages.append(Page(f"profile, {kind} player ({games:,} games)", "games:profile", (player.username,)))
        pages.append(Page(f"history p.1, {kind} player ({games:,} games)", "games:history", (), player))
    return pages


def _client_for(page: Page) -> Client:
    # A page that fails is measured and flagged with its status, not a crash of the benchmark.
    client = Client(raise_request_exception=False)
    if page.user is not None:
        client.force_login(page.user)
    return client


def _request(client: Client, url: str):
    started = time.perf_counter()
    response = client.get(url)
    return response, (time.perf_counter() - started) * 1000


def measure(page: Page, requests: int) -> list[PageTiming]:
    """The cold and the warm timings of one page."""
    try:
        url = reverse(page.url_name, args=page.args)
    except NoReverseMatch:
        return [PageTiming(page.label, mode, note="not available") for mode in ("cold", "warm")]
    results = []
    for mode in ("cold", "warm"):
        timing = PageTiming(page.label, mode, times_ms=[])
        client = _client_for(page)

        def prepare():
            if mode == "cold":
                cache.clear()
                if page.user is not None:  # the session may live in the cache just cleared
                    client.force_login(page.user)
                # Last, after signing in (which queries): the timed request connects afresh.
                # Inside a test's transaction the connection must stay open.
                if not connection.in_atomic_block:
                    connection.close()

        prepare()
        if mode == "warm":
            client.get(url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        timing.queries, timing.status = len(queries), response.status_code
        for _ in range(requests):
            prepare()
            response, elapsed = _request(client, url)
            if response.status_code != 200:  # an error page is fast: it must not pass for a result
                timing.status = response.status_code
            timing.times_ms.append(elapsed)
        results.append(timing)
    return results


def bench_pages(requests: int = 200, log: Callable[[str], None] = print) -> list[PageTiming]:
    """Measure every page and print a table of milliseconds and query counts."""
    log(f"database: {connection.vendor} {settings.DATABASES['default']['NAME']}, DEBUG={settings.DEBUG}, "
        f"{requests} requests per page and mode, test client in-process")  # fmt: skip
    header = f"{'page':<44} {'mode':<5} {'status':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'queries':>8}"
    log(header)
    log("-" * len(header))
    timings = []
    # The test client's host name.
    with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
        for page in pages_to_measure():
            for timing in measure(page, requests):
                timings.append(timing)
                if timing.note:
                    log(f"{timing.page:<44} {timing.mode:<5} {timing.note}")
                    continue
                p95 = timing.percentile(95)
                flag = "" if p95 < TARGET_P95_MS else f"  <-- p95 over {TARGET_P95_MS} ms"
                if timing.status != 200:
                    flag += f"  <-- HTTP {timing.status}"
                log(
                    f"{timing.page:<44} {timing.mode:<5} {timing.status:>6} {timing.percentile(50):>6.1f}ms "
                    f"{p95:>6.1f}ms {timing.percentile(99):>6.1f}ms {timing.queries:>8}{flag}"
                )
    return timings
