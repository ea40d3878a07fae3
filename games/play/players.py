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
    """The person behind a request: the signed-in user, or a guest by session key.

    ``create_guest`` is for a guest starting a game: the key is made now if they
    have none yet, and the session gets a new id (its data kept, as Django's
    login() does). A session id planted in the browser beforehand, known to
    whoever planted it, so never holds a guest's games: signing up with it
    adopts nothing of theirs. The key itself only ever lives in the session,
    never in a cookie or a parameter of its own."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    guest_key = request.session.get(GUEST_SESSION_KEY, "")
    if create_guest:
        if not guest_key:
            guest_key = request.session[GUEST_SESSION_KEY] = new_guest_key()
        request.session.cycle_key()
    return Player(guest_key=guest_key)
