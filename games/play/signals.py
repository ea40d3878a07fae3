"""What play tells the domains built on it. Sent inside the transaction that
made the change, so a receiver's writes commit or roll back with it."""

from django.dispatch import Signal

#: A game has just finished (``game``: locked, its end saved). Sent once per
#: game: every service that ends a game refuses a finished one.
game_finished = Signal()

#: A game has just been called off, before both sides moved (``game``: locked,
#: saved as aborted). Sent once per game, like ``game_finished``.
game_aborted = Signal()
