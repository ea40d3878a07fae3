"""Fixtures shared by every test folder."""
import pytest

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def password():
    """The password every `user` fixture signs in with."""
    return PASSWORD


@pytest.fixture
def user(django_user_model):
    """A registered player with an e-mail address (for password resets)."""
    return django_user_model.objects.create_user(
        username="alice", email="alice@example.com", password=PASSWORD
    )


@pytest.fixture
def client_logged_in(client, user):
    """The test client, signed in as `user`."""
    client.force_login(user)
    return client


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last: Playwright's sync API leaves an event loop
    running in the main thread, where the asyncio tests (tests/live) cannot
    start theirs."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
