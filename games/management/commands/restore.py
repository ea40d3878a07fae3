"""``python manage.py restore FILE``: the database as ``manage.py backup`` saved it, then checked.

Everything stored is replaced by the backup: stop the site (scripts/serve,
the worker) first. Then every game is replayed (``verify_games``), and the
command fails if one disagrees with what is stored about it.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from games.management.databases import postgresql_command, sqlite_copy


class Command(BaseCommand):
    help = "Replace the database with the backup in FILE (made by manage.py backup), then verify every game."

    def add_arguments(self, parser):
        parser.add_argument("file", help="A backup made by manage.py backup.")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, file: str, database: str, **options):
        if not Path(file).is_file():
            raise CommandError(f"no backup at {file}")
        connection = connections[database]
        connection.close()
        if connection.vendor == "sqlite":
            sqlite_copy(file, connection.settings_dict["NAME"])
        elif connection.vendor == "postgresql":
            postgresql_command(
                connection,
                ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", file],
                what="pg_restore",
            )
        else:
            raise CommandError(f"no restore for a {connection.vendor} database")
        self.stdout.write(f"Restored the {connection.vendor} database from {file}.")
        call_command("verify_games", stdout=self.stdout, stderr=self.stderr)
