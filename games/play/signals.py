"""What play tells the domains built on it. Sent inside the transaction that
made the change, so a receiver's writes commit or roll back with it."""

from django.dispatch import Signal

#: A game has just finished (``game``: locked, its end saved). Sent once per
#: game: every service that ends a game refuses a finished one.
game_finished = Signal()

#: A game has just been called off, before both sides moved (``game``: locked,
#: saved as aborted). Sent once per game, like ``game_finished``.
game_aborted = Signal()

#: Moves were made in a game between people that goes on (``game``: locked,
#: saved; ``to_move``: the side whose turn it now is).
turn_passed = Signal()

#: A player answered the other's offer (``game``: locked, saved; ``offer``:
#: "draw" or "takeback"; ``accepted``: True or False; ``side``: the side that answered).
offer_answered = Signal()
