"""Django's ModelBackend, with the user a session names read by a statement
built once.

Every request of a signed-in player (every page, every form move) reads
their user first. Through the ORM, compiling that one read cost about as
much CPU as rendering a third of the game panel (docs/benchmarks.md, issue
19). Signing in, passwords, permissions: all Django's own.

Sessions made before this backend existed name Django's, and are read as
naming this one (games/accounts/sessions.py): nobody is signed out by it.
"""

from __future__ import annotations

from django.contrib.auth import backends

from games.accounts.selectors import user_by_pk

#: The path sessions store for this backend (settings.AUTHENTICATION_BACKENDS).
PATH = "games.accounts.backends.ModelBackend"
#: What sessions stored before: read as PATH.
DJANGOS_PATH = "django.contrib.auth.backends.ModelBackend"


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        """The active user ``user_id``, as Django's ModelBackend finds them; else None."""
        user = user_by_pk(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
