"""Every message a test socket hears is checked against the protocol's
document (games/api/asyncapi.yaml): the document cannot drift from the server."""

import pytest
from channels.testing import WebsocketCommunicator

from tests.live.asyncapi import check_received


@pytest.fixture(autouse=True)
def _messages_match_the_document(monkeypatch):
    receive_json_from = WebsocketCommunicator.receive_json_from

    async def checked(self, timeout=1):
        message = await receive_json_from(self, timeout)
        check_received(self.scope["path"], message)
        return message

    monkeypatch.setattr(WebsocketCommunicator, "receive_json_from", checked)
