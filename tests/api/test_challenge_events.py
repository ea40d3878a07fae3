"""The lobby socket's challenge events carry the challenge as the API gives it:
a bot reads one shape, whether it heard the challenge or asked for it."""

from datetime import datetime

import pytest

from games.api.serializers import ChallengeSerializer
from games.lobby import services
from games.lobby.models import DeclineReason

pytestmark = pytest.mark.django_db


def _moments_read(data: dict) -> dict:
    """The challenge with its moments as the moments they name ("Z" and "+00:00" are one)."""
    return {
        name: datetime.fromisoformat(value) if name.endswith("_at") and value else value for name, value in data.items()
    }


def _same(told: dict, challenge) -> bool:
    """The challenge told is the API's, field for field, but the invite's secret."""
    answered = {name: value for name, value in ChallengeSerializer(challenge).data.items() if name != "token"}
    return _moments_read(told) == _moments_read(answered)


@pytest.mark.parametrize(
    "choices",
    [
        {"kind": "open", "side": "X"},
        {"kind": "link", "variant": "4x4", "time_control": "3+2", "rated": False},
        {"kind": "direct", "side": "random", "move_time_limit": 30, "takebacks_allowed": True},
    ],
)
def test_a_told_challenge_is_what_the_api_answers_but_the_secret(user, bob, choices):
    if choices["kind"] == "direct":
        choices = {**choices, "opponent_username": bob.username}
    challenge = services.challenge_create(challenger=user, **choices)
    assert _same(services.challenge_told(challenge), challenge)
    if choices["kind"] == "direct":
        services.challenge_decline(user=bob, challenge_id=challenge.pk, reason=DeclineReason.LATER)
        challenge.refresh_from_db()
        told = services.challenge_told(challenge)
        assert _same(told, challenge)
        assert told["decline_reason"] == "later" and told["resolved_at"]
