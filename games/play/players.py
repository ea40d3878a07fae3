"""Who is acting: a signed-in user, or a guest known by a key in their session.

A visitor who has not signed up plays as a guest; signing up (or signing in)
hands their games to the account (:func:`games.accounts.services.games_adopt_guest`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

#: Where a guest's key lives in their session.
GUEST_SESSION_KEY = "guest_key"


@dataclass(frozen=True)
class Player:
    """Who is acting: a signed-in user, or a guest known by the key in their session."""

    user: object = None
    guest_key: str = ""

    @property
    def is_known(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated) or bool(self.guest_key)

    @property
    def account(self):
        """The signed-in user, or None for a guest."""
        return self.user if self.user is not None and self.user.is_authenticated else None


def new_guest_key() -> str:
    return secrets.token_hex(16)


def current_player(request, *, create_guest: bool = False) -> Player:
    """The person behind a request: the signed-in user, or a guest by session key
    (made now when ``create_guest`` and they have none yet)."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    guest_key = request.session.get(GUEST_SESSION_KEY, "")
    if not guest_key and create_guest:
        guest_key = request.session[GUEST_SESSION_KEY] = new_guest_key()
    return Player(guest_key=guest_key)
