"""Django's database sessions, each read with the user it signs in, by one
statement built once.

Every page a signed-in player or a guest opens, and every form move, reads
its session first, then (signed in) its user. Through the ORM, compiling
those reads cost several times the CPU of sending them and reading the
answers (games/rows.py says why, and docs/benchmarks.md by how much), and
they were two round trips to the database. Here the session's row
(games.accounts.models.Session: Django's, with the user's id in a column of
its own) is read joined to its user; the user is kept on the store
(``user_read``) for the site's authentication middleware to hand to the
backend (games/accounts/middleware.py), which still checks it the way Django
does (active, the session's password hash). Everything else (creating,
saving, deleting, the async read Channels uses) is Django's own.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from games.accounts import backends
from games.accounts.models import Session
from games.rows import ModelRows, fetch_one


@cache
def _rows() -> tuple[ModelRows, ModelRows]:
    return ModelRows(Session), ModelRows(get_user_model())


@cache
def _session_sql(vendor: str) -> str:
    sessions, users = _rows()
    quote = connection.ops.quote_name
    return (
        f"SELECT {sessions.columns()}, {users.columns()} FROM {quote(sessions.table)}"
        f" LEFT OUTER JOIN {quote(users.table)} ON ({sessions.column('user')} = {users.column('pk')})"
        f" WHERE {sessions.column('session_key')} = %s AND {sessions.column('expire_date')} > %s"
    )


def signed_in_user_id(data: dict) -> int | None:
    """The id of the user ``data`` (a session's) signs in, or None."""
    try:
        return get_user_model()._meta.pk.to_python(data[SESSION_KEY])
    except (KeyError, TypeError, ValidationError):
        return None


class SessionStore(db.SessionStore):
    """``SESSION_ENGINE = "games.accounts.sessions"``: Django's database
    sessions, each with the user it signs in beside it."""

    #: The user the session's row names, read with it (None: nobody, or not read yet).
    user_read = None

    @classmethod
    def get_model_class(cls):
        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = signed_in_user_id(data)
        return session

    def decode(self, session_data):
        """The session's data; one signed in through Django's ModelBackend
        (before games/accounts/backends.py) as signed in through the site's,
        which Django then finds in AUTHENTICATION_BACKENDS: nobody is signed
        out by the change. Saved again, it names the site's."""
        data = super().decode(session_data)
        if data.get(BACKEND_SESSION_KEY) == backends.DJANGOS_PATH:
            data[BACKEND_SESSION_KEY] = backends.PATH
        return data

    def _get_session_from_db(self):
        """The session's row if it has not expired, its user read with it;
        else None, and the key is forgotten (a new one is made if the session
        is saved), as Django does."""
        sessions, users = _rows()
        now = Session._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
        row = fetch_one(_session_sql(connection.vendor), [self.session_key, now])
        if row is None:
            self._session_key = None
            return None
        self.user_read = users.read(row, sessions.width)
        return sessions.read(row)
