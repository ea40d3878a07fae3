"""What a server process does once it has loaded the site, before its first request.

``tttsite/asgi.py`` (uvicorn's workers) and ``tttsite/wsgi.py`` (for a WSGI
server) call :func:`ready_to_serve` last.
"""

import gc

from django.urls import get_resolver


def ready_to_serve() -> None:
    # Every view imported now, not in the process's first request: left to
    # it, a player's first move on each worker waited a fifth of a second
    # (the views, DRF, the engine's solved 3x3 table).
    get_resolver().url_patterns  # noqa: B018
    # What is loaded by now (Django, the site, the engine's tables: several
    # hundred thousand objects) lives as long as the process: kept out of
    # the garbage collector's full passes, which otherwise walked all of it
    # every second or two under load. In the socket server, each such pass
    # held up every socket's messages for about 100 ms (the spectator fan-out's
    # late moves, docs/benchmarks.md).
    gc.freeze()
