"""WSGI entry point: `application` for gunicorn, uWSGI and the like."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

application = get_wsgi_application()

from games.serving.static import require_manifest  # noqa: E402

# With DEBUG off and no collectstatic, every page would be a 500: refuse to start instead.
require_manifest()
