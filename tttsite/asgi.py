"""ASGI entry point: HTTP through Django, WebSockets through Channels.

`manage.py runserver` serves it through Daphne; production runs it with
several worker processes sharing the Redis channel layer (docs/operations.md).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

# Django must be set up before anything imports models (the consumers do).
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from games.serving.sockets import CloseWhenServiceDown, SocketCredentials  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # Outside the token, session and user lookup: a stopped database or
        # Redis closes the socket with 4503 wherever it is noticed. Who may
        # connect, from which origin: games/serving/sockets.py.
        "websocket": CloseWhenServiceDown(SocketCredentials(URLRouter(websocket_urlpatterns))),
    }
)
