import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each learning test starts with an empty cache: the engine's answers are
    kept there by position, and guests' budgets and the API's throttles count
    requests there."""
    cache.clear()
    yield
    cache.clear()
