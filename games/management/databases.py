"""Copying a whole database: SQLite's online backup, PostgreSQL's own tools."""

from __future__ import annotations

import os
import shutil
import sqlite3
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


def sqlite_copy(source: str, target: str) -> None:
    """Copy the SQLite database at ``source`` over the one at ``target``
    with SQLite's online backup: consistent however many writes ``source``
    takes meanwhile."""
    reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writing = sqlite3.connect(target)
    try:
        with writing:
            reading.backup(writing)
    finally:
        writing.close()
        reading.close()
