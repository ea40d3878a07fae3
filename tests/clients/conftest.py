"""The reference client in clients/python/, run against a real server (Daphne,
HTTP and WebSockets) as a student runs it."""

import sys
from pathlib import Path

import pytest

from games.accounts.services import api_token_create
from tests.browser.conftest import asgi_live_server  # noqa: F401 - the fixture, shared

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))


@pytest.fixture
def bot_account(django_user_model):
    """An account and its API token, as a student gets them."""

    def make(username: str) -> tuple[object, str]:
        user = django_user_model.objects.create_user(username, password="a long password")
        return user, api_token_create(user=user)

    return make
