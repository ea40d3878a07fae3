"""What the lobby tells the domains built on it. Sent inside the transaction
that made the change, so a receiver's writes commit or roll back with it."""

from django.dispatch import Signal

#: A challenge was sent to a named player (``challenge``: saved, with its
#: ``opponent``); a rematch offer is one, with ``rematch_of`` set.
challenge_sent = Signal()
