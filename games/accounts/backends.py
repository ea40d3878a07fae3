"""Django's ModelBackend, with the user a session names read by a statement
built once, or already read with the session.

Every request of a signed-in player (every page, every form move) reads
their user first. Through the ORM, compiling that one read cost about as
much CPU as rendering a third of the game panel (docs/benchmarks.md, issue
19); and the session's own read can bring the user along
(games/accounts/sessions.py): while the site's authentication middleware
asks Django who a request's session signs in, it names that session here
(:func:`reading`), and the user read with it is the one returned if it is
the one asked for. Whatever user is returned, Django then checks it as ever
(the session's password hash); signing in, passwords, permissions: all
Django's own.

Sessions made before this backend existed name Django's, and are read as
naming this one (games/accounts/sessions.py): nobody is signed out by it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.contrib.auth import backends

from games.accounts.selectors import user_by_pk

#: The path sessions store for this backend (settings.AUTHENTICATION_BACKENDS).
PATH = "games.accounts.backends.ModelBackend"
#: What sessions stored before: read as PATH.
DJANGOS_PATH = "django.contrib.auth.backends.ModelBackend"

#: The session store whose user is being looked up (its ``user_read``), while it is.
_session: ContextVar = ContextVar("the session whose user is being looked up", default=None)


@contextmanager
def reading(session) -> Iterator[None]:
    """While Django looks up the user ``session`` (a store) signs in."""
    token = _session.set(session)
    try:
        yield
    finally:
        _session.reset(token)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        """The active user ``user_id``, as Django's ModelBackend finds them; else None."""
        user = getattr(_session.get(), "user_read", None)
        if user is None or user.pk != user_id:
            user = user_by_pk(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
