"""WSGI entry point: `application` for gunicorn, uWSGI and the like.

scripts/serve serves the site's HTTP through it (gunicorn, sync workers) and
only its WebSockets through tttsite/asgi.py (docs/operations.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

django_application = get_wsgi_application()

from games.serving.static import require_manifest  # noqa: E402

# With DEBUG off and no collectstatic, every page would be a 500: refuse to start instead.
require_manifest()

from django.urls import get_resolver  # noqa: E402

# Every view imported now, as the worker starts and before it takes a request:
# left to the first request, it held up a player's first move on each worker
# by a fifth of a second (the views, DRF, the engine's solved 3x3 table).
get_resolver().url_patterns  # noqa: B018

from games.serving.bodies import LimitRequestBodyWSGI  # noqa: E402

# Bodies over the limit, chunked or not, are refused before Django reads them.
application = LimitRequestBodyWSGI(django_application)
