"""PostgreSQL's own tools, run against a Django connection's database."""

from __future__ import annotations

import os
import shutil
import subprocess

from django.core.management.base import CommandError


def postgresql_command(connection, command: list[str], *, what: str) -> None:
    """Run ``command`` (pg_dump, pg_restore) on ``connection``'s database,
    connected as Django is; a CommandError with its message if it fails."""
    if shutil.which(command[0]) is None:
        raise CommandError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)")
    settings = connection.settings_dict
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    where = [f"--dbname={settings['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            where.append(f"{option}={settings[key]}")
    run = subprocess.run([*command, *where], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise CommandError(f"{what} failed: {run.stderr.strip()}")
