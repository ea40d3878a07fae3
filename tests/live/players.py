"""People for the live tests, made in the database from synchronous code."""

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games.accounts.models import ApiToken, token_digest
from games.accounts.services import api_token_create
from games.lobby import services


def game_between(x_player, o_player):
    """A game that has just started between two people: ``x_player``
    challenged, ``o_player`` accepted."""
    challenge = services.challenge_create(challenger=x_player, side="X")
    return services.challenge_accept(user=o_player, challenge_id=challenge.pk)


def alice_and_bob_in_a_game():
    """Alice (X) and Bob (O), and a game between them that has just started."""
    users = get_user_model().objects
    alice = users.create_user("alice", password="x")
    bob = users.create_user("bob", password="x")
    return alice, bob, game_between(alice, bob)


@database_sync_to_async
def signed_in(user) -> dict:
    """What the socket stack puts in the scope of a socket that ``user``
    opened with one of their API tokens (games.serving.sockets.SocketCredentials)."""
    token = ApiToken.objects.get(digest=token_digest(api_token_create(user=user)))
    return {"user": user, "credential": "token", "token": token.pk}
