"""WSGI entry point: `application` for a WSGI server (gunicorn, uWSGI and the like).

scripts/serve serves everything through tttsite/asgi.py; this serves the
pages and the API, not the WebSockets, for a deployment that puts a WSGI
server beside an ASGI one (docs/operations.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

django_application = get_wsgi_application()

from games.serving.static import require_manifest  # noqa: E402

# With DEBUG off and no collectstatic, every page would be a 500: refuse to start instead.
require_manifest()

from games.serving.bodies import LimitRequestBodyWSGI  # noqa: E402

# Bodies over the limit, chunked or not, are refused before Django reads them.
application = LimitRequestBodyWSGI(django_application)

from games.serving.startup import ready_to_serve  # noqa: E402

ready_to_serve()
