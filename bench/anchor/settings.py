"""Settings of the anchor project: as little as Django needs to answer a request.

No apps, no middleware, no templates: the empty view measures Django's own
request handling. The database is the site's (DATABASE_URL), opened the way the
best sync deployment opens it: a persistent connection per worker on
PostgreSQL; on SQLite the site's own options (IMMEDIATE transactions, WAL).
"""

import os

import dj_database_url

SECRET_KEY = os.environ.get("SECRET_KEY", "anchor-" + "x" * 50)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "bench.anchor.urls"
WSGI_APPLICATION = "bench.anchor.wsgi.application"
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
USE_TZ = True

DATABASES = {"default": dj_database_url.config(default="sqlite:///anchor.sqlite3", conn_max_age=600)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
