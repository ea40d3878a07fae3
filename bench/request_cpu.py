"""The CPU one plain GET costs in process, beside the benchmark's anchor.

    python -m bench.request_cpu [PATH ...] [--requests 5000] [--anchor]

Calls the site's WSGI handler (every middleware, the URLconf, the view) with
a hand-made GET of each PATH (default ``/healthz/`` and ``/``, as a first visit
with no cookie) and prints the CPU time per request (``time.process_time``,
best of five rounds, after a warm-up). ``--anchor`` adds the empty view of
``bench/anchor`` (Django with no middleware), measured in a process
of its own the same way: the floor that ``bench/web.sh`` compares pages
with, without the server, client and scheduling noise of a loaded machine.

The database is a fresh SQLite file (``DATABASE_URL`` is replaced); ``DEBUG`` is
off while it measures, as in production. A script that prints figures, not a test.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time


def wsgi_environ(method: str, path: str, body: bytes = b"", **headers: str) -> dict:
    """A WSGI request as a server on 127.0.0.1 would hand it to Django."""
    return {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        **({"CONTENT_LENGTH": str(len(body))} if body else {}),
        **headers,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def _microseconds(path: str, requests: int) -> float:
    """Best of five rounds of ``requests`` GETs of ``path``: CPU µs per request."""
    from django.core.handlers.wsgi import WSGIHandler

    application, answer = WSGIHandler(), {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = status

    def get():
        response = application(wsgi_environ("GET", path), start_response)
        b"".join(response)
        response.close()

    for _ in range(min(500, requests)):
        get()
    if not answer["status"].startswith("200"):
        raise SystemExit(f"GET {path}: {answer['status']}")
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(requests):
            get()
        best = min(best, (time.process_time() - started) / requests * 1e6)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["/healthz/", "/"])
    parser.add_argument("--requests", type=int, default=5000, help="requests a round (5000)")
    parser.add_argument("--anchor", action="store_true", help="also the anchor's empty view")
    parser.add_argument("--in-anchor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("SECRET_KEY", "bench-request-cpu-" + "x" * 50)
    if args.in_anchor:
        os.environ["DJANGO_SETTINGS_MODULE"] = "bench.anchor.settings"
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/anchor.sqlite3"
        import django

        django.setup()
        print(f"{_microseconds('/empty/', args.requests):.1f}")
        return 0
    if args.anchor:
        command = [sys.executable, "-m", "bench.request_cpu", "--in-anchor", "--requests", str(args.requests)]  # fmt: skip
        floor = float(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        print(f"{'anchor: empty view, no middleware':<40} {floor:8.1f} µs CPU a request")
    os.environ.update(DJANGO_SETTINGS_MODULE="tttsite.settings", DEBUG="1")  # DEBUG off below, once set up
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/site.sqlite3"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DEBUG = False
    for path in args.paths:
        print(f"{'site ' + path:<40} {_microseconds(path, args.requests):8.1f} µs CPU a request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
