"""The anchor project's WSGI application (gunicorn games.devtools.anchor.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "games.devtools.anchor.settings")

application = get_wsgi_application()
