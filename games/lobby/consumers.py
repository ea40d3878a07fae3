"""ws/lobby/: the lobby's lists and a player's challenges, live."""

from __future__ import annotations

from games.play import live
from games.serving.sockets import CLOSE_NOT_SIGNED_IN, LiveConsumer


class LobbyConsumer(LiveConsumer):
    """ws/lobby/: open challenges and live games appearing and going, and the
    challenges sent to the signed-in player."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_NOT_SIGNED_IN, "sign in to follow the lobby")
            return
        self.groups_joined = [live.lobby_group(), live.user_group(user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.follow_credentials()
        # Subscribed: from here on the page hears every change (see games.play.consumers.GameConsumer).
        await self.send_json({"type": "ready"})

    async def disconnect(self, code):
        await self.unfollow_credentials()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def lobby_event(self, event):
        await self._forward(event)

    async def user_event(self, event):
        await self._forward(event)

    async def _forward(self, event):
        """What a service published, as games/api/asyncapi.yaml describes it:
        {"type": "challenge_created", "challenge": 5} (the layer's own keys dropped)."""
        message = {key: value for key, value in event.items() if key not in ("type", "event")}
        await self.send_json({"type": event["event"], **message})
