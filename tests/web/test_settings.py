"""The settings module read in a clean process, as a deployment would start it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]

SHOW_SETTINGS = (
    "import json, tttsite.settings as s;"
    "print(json.dumps({'DEBUG': s.DEBUG, 'SECRET_KEY': s.SECRET_KEY, 'ALLOWED_HOSTS': s.ALLOWED_HOSTS,"
    " 'DATABASE': s.DATABASES['default'],"
    " 'STATICFILES': s.STORAGES['staticfiles']['BACKEND'], 'REDIS_URL': s.REDIS_URL,"
    " 'EMAIL_BACKEND': s.EMAIL_BACKEND}, default=str))"
)


def load_settings(**env):
    """Import tttsite.settings in a fresh interpreter with only `env` (and PATH) set."""
    clean_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env}
    return subprocess.run(
        [sys.executable, "-c", SHOW_SETTINGS],
        cwd=BASE_DIR,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"SECRET_KEY": ""},
        {"SECRET_KEY": "django-insecure-tttsite-dev-only-do-not-use-in-production"},
        {"DEBUG": "0"},
    ],
    ids=["missing", "empty", "dev-default", "debug-0"],
)
def test_production_refuses_to_start_without_a_real_secret_key(env):
    result = load_settings(**env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_allows_the_dev_key():
    result = load_settings(DEBUG="1")

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["DEBUG"] is True
    assert loaded["SECRET_KEY"].startswith("django-insecure-")
    assert loaded["STATICFILES"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_defaults_with_a_real_key():
    result = load_settings(SECRET_KEY="s3cret-for-this-test")

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["DEBUG"] is False
    assert loaded["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost"]
    assert loaded["STATICFILES"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    database = loaded["DATABASE"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(BASE_DIR / "db.sqlite3")
    # Concurrent writers wait for the lock instead of failing.
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


def test_environment_overrides():
    result = load_settings(
        SECRET_KEY="s3cret-for-this-test",
        DEBUG="true",
        ALLOWED_HOSTS="ttt.example.com, www.ttt.example.com",
        DATABASE_URL="postgres://player:pw@db.internal:5432/ttt",
        CONN_MAX_AGE="120",
        REDIS_URL="redis://cache.internal:6379/2",
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
    )

    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["DEBUG"] is True
    assert loaded["ALLOWED_HOSTS"] == ["ttt.example.com", "www.ttt.example.com"]
    database = loaded["DATABASE"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["HOST"], database["USER"]) == ("ttt", "db.internal", "player")
    # PostgreSQL connections come from a pool, checked before each use.
    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 16, "timeout": 3.0, "reconnect_timeout": 2.0}
    assert database["CONN_MAX_AGE"] == 0
    assert database["CONN_HEALTH_CHECKS"] is True
    assert loaded["REDIS_URL"] == "redis://cache.internal:6379/2"
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"


def test_postgresql_without_the_pool_keeps_persistent_connections():
    result = load_settings(
        SECRET_KEY="s3cret-for-this-test",
        DATABASE_URL="postgres://player:pw@db.internal:5432/ttt",
        DB_POOL="0",
        CONN_MAX_AGE="120",
    )

    assert result.returncode == 0, result.stderr
    database = json.loads(result.stdout)["DATABASE"]
    assert "pool" not in database.get("OPTIONS", {})
    assert database["CONN_MAX_AGE"] == 120
    assert database["CONN_HEALTH_CHECKS"] is True  # Django's: once a request, on a connection kept from before
