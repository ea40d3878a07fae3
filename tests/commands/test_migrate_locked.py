"""Servers started at once migrate one after the other (manage.py migrate_locked):
two processes migrating the same fresh database both succeed, on PostgreSQL
and on SQLite, and the database ends fully migrated."""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A PostgreSQL server where the test may create and drop a database of its own.
POSTGRES = os.environ.get("MIGRATE_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")


def start_together(database_url: str, count: int = 2, command: str = "migrate_locked"):
    """``count`` processes of ``manage.py <command>`` started at once; their (returncode, output)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tttsite.settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "REDIS_URL": "",
    }
    processes = [
        subprocess.Popen(
            [sys.executable, "manage.py", command, "--noinput"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(count)
    ]
    return [(process.wait(timeout=300), process.stdout.read()) for process in processes]


def assert_all_succeeded(results):
    for returncode, output in results:
        assert returncode == 0, output
    # One of them did the work; the other found it done.
    assert sum("No migrations to apply." in output for _, output in results) >= len(results) - 1, results


def test_two_starts_at_once_on_a_fresh_sqlite_file(tmp_path):
    db = tmp_path / "db.sqlite3"

    assert_all_succeeded(start_together(f"sqlite:///{db}"))

    with sqlite3.connect(db) as connection:
        applied = connection.execute("SELECT count(*) FROM django_migrations WHERE app = 'games'").fetchone()[0]
    assert applied == len(list((ROOT / "games" / "migrations").glob("0*.py")))


@pytest.fixture
def fresh_postgres_database():
    psycopg = pytest.importorskip("psycopg")
    name = f"wt_serving_migrate_{secrets.token_hex(4)}"
    try:
        admin = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        pytest.skip(f"no PostgreSQL at {POSTGRES}: {error}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{POSTGRES}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_two_starts_at_once_on_a_fresh_postgresql_database(fresh_postgres_database):
    assert_all_succeeded(start_together(fresh_postgres_database))
