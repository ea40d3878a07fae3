"""ASGI entry point: `application` for uvicorn, daphne and the like."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

application = get_asgi_application()
