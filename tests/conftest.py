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
def bob(django_user_model):
    """A second player; signs in with `password` too."""
    return django_user_model.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def carol(django_user_model):
    """A third player, often one who plays in none of the games at hand."""
    return django_user_model.objects.create_user("carol", password=PASSWORD)


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
