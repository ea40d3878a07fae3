"""ASGI entry point: HTTP through Django, WebSockets through Channels.

scripts/serve and scripts/run serve it with uvicorn, several worker processes
sharing the Redis channel layer in production (docs/operations.md).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tttsite.settings")

# Django must be set up before anything imports models (the consumers do).
django_application = get_asgi_application()

from games.serving.static import require_manifest  # noqa: E402

# With DEBUG off and no collectstatic, every page would be a 500: refuse to start instead.
require_manifest()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from games.serving.bodies import LimitRequestBody  # noqa: E402
from games.serving.sockets import CloseWhenServiceDown, SocketCredentials, SocketLimits  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Bodies over the limit, chunked or not, are refused before Django
        # reads (and spools) them.
        "http": LimitRequestBody(django_application),
        # Outermost, the caps on sockets per address and frames per socket;
        # outside the token, session and user lookup, a stopped database or
        # Redis closes the socket with 4503 wherever it is noticed. Who may
        # connect, from which origin: games/serving/sockets.py.
        "websocket": SocketLimits(CloseWhenServiceDown(SocketCredentials(URLRouter(websocket_urlpatterns)))),
    }
)

from games.serving.startup import ready_to_serve  # noqa: E402

ready_to_serve()
