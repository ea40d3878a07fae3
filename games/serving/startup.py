"""What a server process does once it has loaded the site, before its first request.

``tttsite/asgi.py`` (uvicorn's workers) and ``tttsite/wsgi.py`` (for a WSGI
server) call :func:`ready_to_serve` last.
"""

import gc

from django.urls import get_resolver


def ready_to_serve() -> None:
    # Every view imported now, not in the process's first request, which
    # would otherwise wait for the views, DRF and the engine's solved 3x3 table.
    get_resolver().url_patterns  # noqa: B018
    # What is loaded by now (Django, the site, the engine's tables) lives as
    # long as the process: kept out of the garbage collector's full passes,
    # each of which would hold up every socket's messages while it walks it all.
    gc.freeze()
