"""People for the live tests, made in the database from synchronous code."""

from django.contrib.auth import get_user_model

from games import services


def alice_and_bob_in_a_game():
    """Alice (X) and Bob (O), and a game between them that has just started."""
    users = get_user_model().objects
    alice = users.create_user("alice", password="x")
    bob = users.create_user("bob", password="x")
    challenge = services.challenge_create(challenger=alice, side="X")
    return alice, bob, services.challenge_accept(user=bob, challenge_id=challenge.pk)
