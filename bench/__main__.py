"""The benchmarks that run inside the site's Django, on the database its
settings name (DATABASE_URL, as the site reads it):

    python -m bench sample_games --games 1000000 --users 5000 [--days 365] [--seed N] [--batch 20000] [--no-recount]
    python -m bench pages [--requests 200]

``sample_games`` fills the database with realistic games (bench/sample_games.py);
``pages`` then times the pages that read the most (bench/pages.py). Every player
``sample_games`` creates signs in with the password "player-password".
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def sample_games(args) -> None:
    from bench.sample_games import PASSWORD, make_sample_games

    if args.games < 0 or args.users < 2 or args.days < 1 or args.batch < 1:
        sys.exit("need --games >= 0, --users >= 2, --days >= 1 and --batch >= 1")
    started = time.perf_counter()
    report = make_sample_games(
        games=args.games,
        users=args.users,
        days=args.days,
        seed=args.seed,
        batch=args.batch,
        recount=not args.no_recount,
        log=print,
    )
    statuses = ", ".join(f"{status}: {count:,}" for status, count in sorted(report.by_status.items()))
    print(
        f"Created {report.users:,} players (password {PASSWORD!r}), {report.games:,} games ({statuses}) "
        f"and {report.moves:,} moves in {time.perf_counter() - started:.1f} s."
    )


def pages(args) -> None:
    from bench.pages import bench_pages

    if args.requests < 1:
        sys.exit("--requests must be at least 1")
    bench_pages(args.requests)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fill = commands.add_parser("sample_games", help="Fill the database with realistic games and players.")
    fill.add_argument("--games", type=int, default=1000, help="Games to create (default 1000).")
    fill.add_argument("--users", type=int, default=100, help="Players to create (default 100).")
    fill.add_argument("--days", type=int, default=365, help="Spread the games over this many days.")
    fill.add_argument("--seed", type=int, default=0, help="Seed of every random choice (default 0).")
    fill.add_argument("--batch", type=int, default=20000, help="Games written per transaction.")
    fill.add_argument("--no-recount", action="store_true", help="Leave the statistics alone.")
    fill.set_defaults(run=sample_games)
    timed = commands.add_parser("pages", help="Time the heaviest pages, cold and warm (p50/p95/p99, queries).")
    timed.add_argument("--requests", type=int, default=200, help="Timed requests per page and mode.")
    timed.set_defaults(run=pages)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")
    import django

    django.setup()
    args.run(args)


if __name__ == "__main__":
    main()
