"""Settings for the test suite: production settings, made fast.

DEBUG stays off so tests see what users see (styled error pages, no debug
toolbar of tracebacks). A SECRET_KEY is supplied here because tests are not a
deployment.
"""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "tttsite-tests-only-secret-key-not-for-production")

from tttsite.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Plain storage: templates resolve {% static %} without a collectstatic manifest.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# WhiteNoise serves straight from the apps' static/ folders (as with DEBUG on),
# so the live server in browser tests has CSS and JS without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file rather than memory: the race tests run threads, which need SQLite's
    # real locking (WAL, IMMEDIATE transactions that wait) to show what users get.
    # One file per test process, so two runs on one machine do not collide.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"tttsite-test-{os.getpid()}.sqlite3")
    }

# Close connections after each use: threads the tests start (asgiref's database
# thread in the WebSocket tests, the live server's) must not keep the test
# database open, or PostgreSQL refuses to drop it at the end of the run.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# No connection pool in the test process: tests start dozens of threads that
# each hold a connection (the race tests, the live servers), and a pool would
# keep connections open after a test, which stops PostgreSQL dropping the test
# database at the end. The pool is exercised where it runs, in the server
# processes of tests/live/test_production_server.py (production settings).
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405

# The engine's budget (games/engine_work/): the tests are one visitor asking
# hundreds of times a minute, searching in the test's own process (where tests
# can count the searches); the budget's own tests set small ones and the pool.
ENGINE_SECONDS_GUEST = ENGINE_SECONDS_USER = ENGINE_SECONDS_ADDRESS = "100000/min"
ENGINE_PROCESSES = False
