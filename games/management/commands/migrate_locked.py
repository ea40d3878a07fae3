"""`manage.py migrate_locked`: `migrate`, one process at a time.

Two servers started together would both migrate a fresh database and one
dies ("relation already exists", "table ... already exists"). Under a lock
the second waits for the first, then finds nothing left to do:

- PostgreSQL: a session advisory lock (``pg_advisory_lock``), held by the
  connection that migrates, released when it is done or the process dies;
- SQLite: an exclusive ``flock`` on a file beside the database
  (``<name>.migrate-lock``), released the same way.

scripts/run and scripts/serve run it before serving (docs/operations.md,
"Releasing").
"""

from __future__ import annotations

import fcntl
from contextlib import contextmanager

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections

#: The advisory lock's key: any number no other program on the database uses ("ttt" in hex).
ADVISORY_LOCK_KEY = 0x747474


@contextmanager
def migration_lock(alias: str = DEFAULT_DB_ALIAS):
    connection = connections[alias]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [ADVISORY_LOCK_KEY])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_LOCK_KEY])
    elif connection.vendor == "sqlite" and not connection.is_in_memory_db():
        with open(f"{connection.settings_dict['NAME']}.migrate-lock", "a") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)
    else:  # a database of one process's own, or one without such a lock
        yield


class Command(BaseCommand):
    help = "Run migrate under a lock, so servers started at once never migrate side by side."

    def add_arguments(self, parser):
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="The database to migrate (default: default).")
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive", help="Ask no questions."
        )

    def handle(self, *args, database, interactive, verbosity, **options):
        with migration_lock(database):
            call_command("migrate", database=database, interactive=interactive, verbosity=verbosity)
