"""The WebSocket addresses (tttsite/asgi.py serves them)."""

from django.urls import path

from games.lobby.consumers import LobbyConsumer
from games.notifications.consumers import NotificationsConsumer
from games.play.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:pk>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/notifications/", NotificationsConsumer.as_asgi()),
]
