"""Every learning page that sets the engine to work keeps to the guests' budget
(games/learn/rate_limit.py): the tree explorer, the scoring comparison, a
puzzle being solved and the mistakes trainer, like the analysis board."""

import pytest
from django.urls import reverse

from tests.factories import ai_game

pytestmark = pytest.mark.django_db


def _addresses():
    game = ai_game(None, guest_key="g" * 32)  # a finished game, played to its end
    return {
        "tree": reverse("games:tree"),
        "tree_scoring": reverse("games:tree_scoring"),
        "mistakes": reverse("games:mistakes", args=[game.pk]),
    }


@pytest.mark.parametrize("name", ["tree", "tree_scoring", "mistakes"])
def test_guests_past_their_budget_get_the_429_page_and_signed_in_players_do_not(
    client, django_user_model, settings, name
):
    url = _addresses()[name]
    settings.LEARN_RATE_ANON = "2/min"
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    refused = client.get(url)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Try again in" in refused.content.decode()

    client.force_login(django_user_model.objects.create_user("learner", password="pw-learner-1"))
    assert client.get(url).status_code == 200
