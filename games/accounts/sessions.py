"""Django's database sessions, each read by a statement built once.

Every page a signed-in player or a guest opens, and every form move, reads
its session first. Through the ORM, compiling that one read cost about as
much CPU as sending it and reading the answer several times over
(games/rows.py says why, and docs/benchmarks.md by how much). Everything else
(creating, saving, deleting, the async read Channels uses) is Django's own.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from games.accounts import backends
from games.rows import ModelRows, fetch_one


@cache
def _sessions() -> ModelRows:
    return ModelRows(Session)


@cache
def _session_sql(vendor: str) -> str:
    rows = _sessions()
    table = connection.ops.quote_name(rows.table)
    return (
        f"SELECT {rows.columns()} FROM {table}"
        f" WHERE {rows.column('session_key')} = %s AND {rows.column('expire_date')} > %s"
    )


class SessionStore(db.SessionStore):
    """``SESSION_ENGINE = "games.accounts.sessions"``: the same table and the
    same sessions as Django's database engine, read more cheaply."""

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
        """The session's row if it has not expired; else None, and the key is
        forgotten (a new one is made if the session is saved), as Django does."""
        now = Session._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
        row = fetch_one(_session_sql(connection.vendor), [self.session_key, now])
        if row is None:
            self._session_key = None
            return None
        return _sessions().read(row)
