"""``python manage.py backup FILE``: a copy of the whole database, safe while the site runs.

SQLite: SQLite's online backup, page by page, consistent however many
writes happen meanwhile. PostgreSQL: ``pg_dump`` in its custom format (one
consistent snapshot), which ``manage.py restore`` reads back.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from games.management.databases import postgresql_command, sqlite_copy


class Command(BaseCommand):
    help = "Back up the database to FILE while the site runs (restore it with manage.py restore FILE)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="Where the backup goes; an existing file is replaced.")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, file: str, database: str, **options):
        connection = connections[database]
        if connection.vendor == "sqlite":
            sqlite_copy(connection.settings_dict["NAME"], file)
        elif connection.vendor == "postgresql":
            postgresql_command(
                connection, ["pg_dump", "--format=custom", "--no-owner", f"--file={file}"], what="pg_dump"
            )
        else:
            raise CommandError(f"no backup for a {connection.vendor} database")
        self.stdout.write(f"Backed up the {connection.vendor} database to {file}.")
