"""People for the live tests, made in the database from synchronous code."""

from django.contrib.auth import get_user_model

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
