from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/games/<int:pk>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
