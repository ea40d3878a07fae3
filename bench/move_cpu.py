"""The CPU an API move costs the server: ``DEBUG=1 python -m bench.move_cpu``.

    python -m bench.move_cpu [--games 400] [--warmup 50] [--form] [--profile]

The busiest API request is ``POST /api/games/<id>/moves/`` against the perfect
AI on 3x3. This makes ``--games`` games against it, then plays the
first move of each through the whole of Django: the WSGI handler
(``tttsite.wsgi.application``) called in this process with a hand-made
environ, ``Authorization: Token ...`` and a JSON body, so every middleware,
DRF's authentication, throttles and parsers, the move service, its queries and
the serializer are counted, and no server, socket or client is. ``--form``
times the game page's move instead, as its script sends it: the session's
cookie, the CSRF token and ``X-Partial``, with the game panel rendered back. Each
request's CPU time is the process's (``time.process_time``, so work the
request hands to another thread counts too), and the script prints the
median, 90th percentile and mean in milliseconds; on PostgreSQL, also the CPU
its server processes on this machine spent per request over the same
requests (it counts every ``postgres`` process here, so run it on a quiet
machine). ``--profile`` adds cProfile's top 25 functions by cumulative time
over the timed requests (timed again, without the profiler, so the figures
above are not its; the profiler too counts CPU time, not time waiting for
the database).

The database is a fresh SQLite file in a temporary folder, with the settings a
deployment on SQLite has (a connection opened and closed per request, WAL);
``DATABASE_URL`` is ignored. ``--database-url postgres://...`` uses that
database instead (empty or made for the purpose: the players and games are
left in it), with the settings a deployment on PostgreSQL has (a connection
pool). Only this process's CPU is counted, not the database server's.
Measured with ``DEBUG`` off whatever the environment says, as in production,
so Django does not keep a log of every query; the channel layer and cache are
the ones the environment chooses (in memory without ``REDIS_URL``). The games
are spread over players of ``--per-player`` requests each, so no player nears
the API's rate limit. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path


def _setup(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "tttsite.settings"
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", "bench-move-cpu-" + "x" * 50)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _environ(game_id: int, credentials: dict, cell: int, form: bool) -> dict:
    """The API move, or with ``form`` the game page's (its session, CSRF token and X-Partial)."""
    from django.conf import settings

    from bench.request_cpu import wsgi_environ

    if form:
        cookies = f"{settings.SESSION_COOKIE_NAME}={credentials['session']}; csrftoken={credentials['csrf']}"
        return wsgi_environ(
            "POST",
            f"/games/{game_id}/move/",
            f"cell={cell}&ply=0".encode(),
            CONTENT_TYPE="application/x-www-form-urlencoded",
            HTTP_COOKIE=cookies,
            HTTP_X_CSRFTOKEN=credentials["csrf"],
            HTTP_X_PARTIAL="1",
        )
    return wsgi_environ(
        "POST",
        f"/api/games/{game_id}/moves/",
        json.dumps({"cell": cell, "ply": 0}).encode(),
        CONTENT_TYPE="application/json",
        HTTP_ACCEPT="application/json",
        HTTP_AUTHORIZATION=f"Token {credentials['token']}",
    )


def _make_games(count: int, per_player: int) -> list[tuple[int, dict, int]]:
    """(game id, its player's credentials, the cell to play) for ``count`` new
    games against the perfect AI, the person playing X; ``per_player`` games a
    player, who has an API token and a signed-in session."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils.crypto import get_random_string

    from games.accounts.services import api_token_create
    from games.play import services
    from games.play.players import Player

    users = get_user_model().objects
    made = []
    for n in range(count):
        if n % per_player == 0:
            user = users.create_user(f"bench{n // per_player}", password="x" * 12)
            browser = Client()
            browser.force_login(user)
            credentials = {
                "token": api_token_create(user=user),
                "session": browser.session.session_key,
                "csrf": get_random_string(32),
            }
        game = services.game_create_against_ai(player=Player(user=user), side="X", level="perfect")
        made.append((game.pk, credentials, n % 9))
    return made


def _request(application, game_id: int, credentials: dict, cell: int, form: bool) -> tuple[str, bytes]:
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = status

    response = application(_environ(game_id, credentials, cell, form), start_response)
    try:
        content = b"".join(response)
    finally:
        response.close()
    return answer["status"], content


def _play(application, games, times: list[float] | None = None, *, form: bool = False) -> None:
    for game_id, credentials, cell in games:
        start = time.process_time()
        status, content = _request(application, game_id, credentials, cell, form)
        spent = time.process_time() - start
        if not status.startswith("200" if form else "201"):
            raise SystemExit(f"game {game_id}: {status} {content[:300]!r}")
        if times is not None:
            times.append(spent * 1000)


def _local_postgres_cpu() -> float:
    """Seconds of CPU that every PostgreSQL process on this machine has used
    (its server for this process's connections, when it runs here; 0 without /proc)."""
    from bench.process_groups import cpu_seconds_by_name

    return cpu_seconds_by_name().get("postgres", 0.0)


def _layer() -> str:
    from django.conf import settings

    return settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]


def _percentile(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="timed requests, one new game each (400)")
    parser.add_argument("--warmup", type=int, default=50, help="untimed requests first (50)")
    parser.add_argument("--per-player", type=int, default=50, help="games a player (50)")
    parser.add_argument(
        "--database-url",
        help="an existing, empty database to use instead (postgres://...): its tables are made, "
        "the games and players are left in it",
    )
    parser.add_argument(
        "--form", action="store_true", help="the game page's move instead (session, CSRF, the panel back)"
    )
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 25 over the timed requests")
    parser.add_argument("--profile-file", help="and write the whole profile there (for pstats or snakeviz)")
    args = parser.parse_args(argv)

    if args.database_url:
        database_url = args.database_url
    else:
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='bench-move-cpu-')) / 'bench.sqlite3'}"
    _setup(database_url)
    from django.test.utils import override_settings

    from tttsite.wsgi import application

    rounds = 2 if args.profile else 1
    games = _make_games(args.warmup + args.games * rounds, args.per_player)
    warmup, timed = games[: args.warmup], games[args.warmup :]
    times: list[float] = []
    with override_settings(DEBUG=False):
        _play(application, warmup, form=args.form)
        server_before = _local_postgres_cpu()
        _play(application, timed[: args.games], times, form=args.form)
        server_spent = _local_postgres_cpu() - server_before
        if args.profile:
            profiler = cProfile.Profile(time.process_time)  # CPU time, as the figures above
            profiler.enable()
            _play(application, timed[args.games :], form=args.form)
            profiler.disable()

    from django.db import connection

    what = "POST /games/<id>/move/ (X-Partial)" if args.form else "POST /api/games/<id>/moves/"
    print(f"{what}, first move against the perfect AI on 3x3, {len(times)} requests")
    print(f"  database: {connection.vendor}; channel layer: {_layer()}")
    print(f"  CPU per request: median {statistics.median(times):.2f} ms, p90 {_percentile(times, 90):.2f} ms,")
    print(f"                   mean {statistics.fmean(times):.2f} ms, fastest {min(times):.2f} ms")
    if connection.vendor == "postgresql" and server_spent:
        print(
            f"  PostgreSQL's CPU per request (its processes on this machine): {server_spent / len(times) * 1000:.2f} ms"
        )
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
        if args.profile_file:
            profiler.dump_stats(args.profile_file)


if __name__ == "__main__":
    main()
