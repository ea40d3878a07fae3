"""ws/notifications/: what is for the signed-in player alone, on every page
(the header's bell): their notifications as they are made and marked read,
and the lobby's events sent to them by name. A page opening or closing this
socket is the player being on the site, which the turn mails ask about."""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.notifications import services
from games.play import live
from games.serving.sockets import CLOSE_NOT_SIGNED_IN, LiveConsumer


class NotificationsConsumer(LiveConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_NOT_SIGNED_IN, "sign in to hear your notifications")
            return
        self.group = live.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.follow_credentials()
        await database_sync_to_async(services.player_seen)(user=user)
        await self.send_json({"type": "ready"})

    async def disconnect(self, code):
        await self.unfollow_credentials()
        if getattr(self, "group", None) is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(services.player_seen)(user=self.scope["user"])

    async def user_event(self, event):
        """What a service published to the player, as games/api/asyncapi.yaml describes it."""
        message = {key: value for key, value in event.items() if key not in ("type", "event")}
        await self.send_json({"type": event["event"], **message})
