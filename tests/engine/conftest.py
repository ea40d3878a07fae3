import pytest

from . import reference


@pytest.fixture(scope="session")
def positions_3x3() -> list[str]:
    """Every reachable 3x3 position, as strings."""
    return reference.reachable(3)
