"""Settings for tttsite, read from the environment.

Every knob a deployment turns is an environment variable (see docs/operations.md,
"Settings"); the defaults suit a laptop: SQLite in the project folder, e-mail
printed to the console, plain http on 127.0.0.1.
"""

import os
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name, default=False):
    """True when the variable is set to 1/true/yes/on (any case)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default):
    """A comma-separated variable as a list, blanks dropped."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG")

# A key anyone can read in this file signs nobody's sessions in production:
# with DEBUG off the site refuses to start without a real one.
INSECURE_DEV_SECRET_KEY = "django-insecure-tttsite-dev-only-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY or SECRET_KEY == INSECURE_DEV_SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off tttsite refuses to start without a "
            "real secret key: set the SECRET_KEY environment variable to a long random "
            "string (scripts/run makes one for you), or set DEBUG=1 for local development."
        )
    SECRET_KEY = INSECURE_DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")


INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver leaves static files to WhiteNoise and
    # development serves them exactly as production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    # Swagger UI's files served from this site: the docs page loads nothing
    # from a CDN.
    "drf_spectacular_sidecar",
    # Counts failed sign-ins and locks the client out for a while (AXES_* below).
    "axes",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below).
    "csp",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before WhiteNoise, so static files (an SVG opened on its own) get them too.
    "csp.middleware.CSPMiddleware",
    "tttsite.security.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside the session, CSRF and auth middleware, so a stopped database or
    # Redis is a 503 wherever it is noticed, and an oversized body a 413
    # before anything reads it (games/serving/middleware.py).
    "games.serving.middleware.ServiceUnavailableMiddleware",
    "games.serving.middleware.RequestTooLargeMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tttsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.serving.first_visit.csrf_placeholder",
            ],
        },
    },
]

WSGI_APPLICATION = "tttsite.wsgi.application"
ASGI_APPLICATION = "tttsite.asgi.application"

# Database: DATABASE_URL (postgres://..., sqlite:///...) or an SQLite file here.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
if POSTGRESQL and env_flag("DB_POOL", True):
    # Under ASGI every request runs its database work in a thread of its own,
    # and a persistent connection stays with its thread: under load that is a
    # connection per thread until PostgreSQL refuses more. Django's pool
    # instead lends each request a connection and takes it back when the
    # request ends, checked first (conn_health_checks above): none that died
    # while PostgreSQL restarted. A pool that cannot reconnect gives up after
    # reconnect_timeout and tries again at the next request, so a site whose
    # database comes back is back within seconds, not after psycopg-pool's
    # ever longer waits between attempts.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "16")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "3")),
        "reconnect_timeout": float(os.environ.get("DB_POOL_RECONNECT_TIMEOUT", "2")),
    }
if POSTGRESQL and env_flag("DB_PREPARED_STATEMENTS", True):
    # Parameters sent apart from the SQL (server-side binding), so a statement
    # a connection repeats is the same text each time, and psycopg prepares it
    # after its fifth use: PostgreSQL then skips parsing and planning it. Off
    # (DB_PREPARED_STATEMENTS=0) behind a pooler in transaction mode, which
    # cannot keep a session's statements.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite allows one writer at a time. IMMEDIATE transactions take the write
    # lock up front, so a second writer waits (up to `timeout` seconds) instead
    # of failing mid-transaction with "database is locked"; WAL lets readers go
    # on while someone writes. Connections persist (CONN_MAX_AGE, as above):
    # opening one, reading the schema and setting WAL cost a request about
    # 1.2 ms of CPU, more than the rest of its database work.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def redis_channel_layer(url):
    """The channel layer on the Redis at ``url``, as the site runs it (tests use it too):
    channels_redis's pub/sub layer, whose group message is one PUBLISH however
    many sockets watch the game, and whose sockets wait on a queue in their own
    process, so one closing never costs another its message."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    host = {
        "address": url,
        # A Redis that stopped answering is found out in a second or two.
        "socket_connect_timeout": 1,
        "socket_timeout": 5,
        # Once Redis is back after a restart, the pooled connections are dead:
        # a command on one is tried once more on a fresh connection rather
        # than failing a WebSocket (4503) for each of them in turn.
        "retry_on_error": [RedisConnectionError],
    }
    return {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [host]}}


# Threads each ASGI process gives its sockets' database work (a move, a
# socket's opening): fewer leave moves queueing for a thread while theirs wait
# on PostgreSQL; more only wait for Python's interpreter lock beside the
# event loop, which then answers every socket later.
SOCKET_THREADS = int(os.environ.get("SOCKET_THREADS", "4"))
# Sockets one address may hold open in one server process, and the frames a
# socket may send a second (so many at once): past either, closed with 4429.
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "100"))
SOCKET_FRAMES_PER_SECOND = float(os.environ.get("SOCKET_FRAMES_PER_SECOND", "5"))
SOCKET_FRAME_BURST = int(os.environ.get("SOCKET_FRAME_BURST", "20"))

# Live games: moves are pushed to the browsers over WebSockets through a
# channel layer. Without REDIS_URL it lives in the server's memory (one
# process, nothing to install); with REDIS_URL, Redis carries it, so several
# server processes share games, and the cache (spectator counts) lives there too.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that stopped answering is found out in a second, not a minute.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes first: it refuses a locked-out client before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Whether the site serves its WebSockets (/ws/) beside the pages, so that every
# page of a signed-in player opens the notifications socket: yes wherever it is
# served for people (scripts/run, scripts/serve, runserver); the tests' WSGI
# server (pytest-django's live_server) serves none and turns it off.
NOTIFICATIONS_SOCKET = env_flag("NOTIFICATIONS_SOCKET", True)
# The site's address as mails link to it (a worker sending a mail has no request to ask).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tttsite <noreply@localhost>")
# Django's SMTP backend (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", False)

# Who hears of a server error: "Ann <ann@example.com>, bob@example.com". Each
# error is mailed to them through Django's own logging (LOGGING below).
ADMINS = [(name, address) for name, address in getaddresses([os.environ.get("ADMINS", "")]) if address]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

LANGUAGE_CODE = "en-us"
# Dates and times as the site writes them, 24-hour, in the admin too.
FORMAT_MODULE_PATH = ["tttsite.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names in production so browsers may cache forever;
        # plain files while developing so no collectstatic is needed per edit.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# Sessions in the database, Django's default: not in the cache, so that the
# pages keep working, signed-in players included, while Redis is down.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Security. Cookies and headers that are safe on plain http://127.0.0.1 are
# always on; the ones that would break plain http wait for HTTPS=1.
SESSION_COOKIE_HTTPONLY = True
# No script reads the CSRF cookie: pages send the token from their forms'
# hidden input, the API docs from the token written into their script.
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
if env_flag("HTTPS"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A year, subdomains included, preload allowed: what `check --deploy` asks
    # for. A site that still serves a subdomain over plain http turns
    # SECURE_HSTS_INCLUDE_SUBDOMAINS off (and preload with it).
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)

# Content-Security-Policy (django-csp): everything from this site only, no
# inline script or style anywhere, no framing. 'self' in connect-src covers
# the site's own ws:// and wss:// addresses (CSP Level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Features no page uses, switched off for the site and anything it embeds.
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

# Failed sign-ins (django-axes), counted in the database so every server
# process sees the same counts. The lock is per username *and* client address:
# locking a username alone would let anyone lock its owner out. It lifts by
# itself AXES_COOLOFF_MINUTES after the last counted failure; a success clears
# the count. Staff lift a lock early in the admin (Access attempts) or with
# `manage.py axes_reset_username NAME`. The address is the client's as
# games.serving.clients.client_address works it out (FORWARDED_ALLOW_IPS below).
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Tries during the lock are refused without counting, so the lock lifts when
# the page said it would.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "games.accounts.lockout.lockout_page"
AXES_CLIENT_IP_CALLABLE = "games.serving.clients.client_address"

# The proxies whose X-Forwarded-For is believed (addresses or networks,
# comma-separated, "*" for any): the variable uvicorn reads for
# --forwarded-allow-ips (scripts/serve), read here too so throttles, the
# lockout and the logs agree with the server. Anyone else's header is ignored.
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS", "127.0.0.1")

# No form or API request needs more than a few kilobytes: a bigger body is
# refused with 413 before it is read (games.serving.middleware.RequestTooLargeMiddleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

# The JSON API under /api/ (games/api/): tokens for programs, the session
# (with CSRF) for pages; JSON in and out; every error in one body shape.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous request hears 401 with
        # "WWW-Authenticate: Token" rather than a bare 403.
        "games.api.authentication.TokenAuthentication",
        "games.api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_THROTTLE_CLASSES": [
        "games.api.throttles.AnonRateThrottle",
        "games.api.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "60/min"),
        "user": os.environ.get("API_RATE_USER", "600/min"),
    },
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "games.api.exceptions.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# The engine's searches on demand (hints, the AI's thinking, the analysis
# board, puzzles, /api/analyse/; games/engine_work/). Budgets are seconds of
# search a period, per visitor (an account, else the guest's session) and per
# address (sized for a class behind one router); 3x3 and answers kept in the
# cache cost nothing. Each server process hands searches to ENGINE_SLOTS
# engine processes, with at most ENGINE_QUEUE waiting or running, and
# ENGINE_SEARCHES_PER_VISITOR of them for one visitor; past that "busy".
# ENGINE_PROCESSES off runs searches in the request's thread (the tests).
ENGINE_SECONDS_GUEST = os.environ.get("ENGINE_SECONDS_GUEST", "30/min")
ENGINE_SECONDS_USER = os.environ.get("ENGINE_SECONDS_USER", "60/min")
ENGINE_SECONDS_ADDRESS = os.environ.get("ENGINE_SECONDS_ADDRESS", "600/min")
ENGINE_SLOTS = int(os.environ.get("ENGINE_SLOTS", "2"))
ENGINE_QUEUE = int(os.environ.get("ENGINE_QUEUE", "8"))
ENGINE_SEARCHES_PER_VISITOR = int(os.environ.get("ENGINE_SEARCHES_PER_VISITOR", "2"))
ENGINE_PROCESSES = env_flag("ENGINE_PROCESSES", True)

# Each action's budget per client (signed-in user, else address), through a
# page's form and the API alike; past it a 429 (games/serving/action_limits.py).
ACTION_RATES = {
    "signin": os.environ.get("ACTION_RATE_SIGNIN", "20/min"),
    "signup": os.environ.get("ACTION_RATE_SIGNUP", "10/hour"),
    "password_reset": os.environ.get("ACTION_RATE_PASSWORD_RESET", "10/hour"),
    "challenge": os.environ.get("ACTION_RATE_CHALLENGE", "30/min"),
    "offer": os.environ.get("ACTION_RATE_OFFER", "20/min"),
    "pairing": os.environ.get("ACTION_RATE_PAIRING", "20/min"),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "tttsite API",
    "DESCRIPTION": (
        "Tic-tac-toe against a minimax AI and against other people.\n\n"
        "**Writing a bot?** [Check your own minimax](/learn/bots/): the reference client, the exam "
        "that grades it against perfect play, and live games over the sockets.\n\n"
        "**Authentication**: `Authorization: Token <token>` (POST /api/auth/token/), or the site's "
        "session with its CSRF token. Anonymous clients may call only: {anonymous}.\n\n"
        '**Errors** have one body: `{"code", "message"}`, plus `fields` for invalid input and '
        "`game` (as it now stands) when an action on a game is refused (409).\n\n"
        '**Moves** are `{"cell", "ply"}`: 201 when played (with the AI\'s reply), 200 when the '
        "same move at the same ply was already played, 409 with the game when refused.\n\n"
        "**Rate limits**: per user and per anonymous client, tighter for analysis, sign-in, challenges, "
        "offers and quick pairing (each shared with the site's pages); "
        "a 429 says how long to wait in Retry-After.\n\n"
        "**Live updates** over WebSockets: [the AsyncAPI document](/api/asyncapi.yaml)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name per choice set, whichever serializer uses it.
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "games.play.models.Side",
        "SideOrRandomEnum": "games.lobby.models.ChallengeSide",
        "LevelEnum": "games.play.models.Level",
        "VariantEnum": "games.play.models.Variant",
        "ChallengeKindEnum": "games.lobby.models.ChallengeKind",
        "DeclineReasonEnum": "games.lobby.models.DeclineReason",
        "PlayerKindEnum": ["human", "ai", "guest", "deleted"],
        "ExamStatusEnum": ["open", "finished"],
        "GameStatusEnum": "games.play.models.Status",
        "OutcomeEnum": "games.engine.OUTCOMES",
        "ExamGameOutcomeEnum": "games.api.exams.OUTCOMES",
        "GradeEnum": "games.exams.models.Grade",
        "ReportReasonEnum": "games.moderation.models.Reason",
        "ReportDecisionEnum": "games.moderation.models.Decision",
        "ErrorCodeEnum": "games.api.codes.ERROR_CODES",
    },
    # games.api.schema.tidy: summaries, typed nullables, readable enum names, the anonymous operations.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "games.api.schema.tidy"],
    # The site answers on whatever host it is served from; clients pass their base URL.
    # Relative: the site that serves the schema (its own docs page calls it,
    # under a Content-Security-Policy that allows no other origin).
    "SERVERS": [{"url": "/", "description": "The site that serves this document."}],
    "TAGS": [
        {"name": "auth", "description": "API tokens."},
        {"name": "bots", "description": "Bot accounts: programs that play on the site, shown BOT."},
        {"name": "games", "description": "Games against the AI and between people: moves, offers, reviews."},
        {"name": "chat", "description": "The chat of a game between people."},
        {"name": "challenges", "description": "Open, direct and invite-link challenges."},
        {"name": "pairing", "description": "Quick pairing with a player of about your rating."},
        {"name": "engine", "description": "The engine's view of a position."},
        {"name": "puzzles", "description": "Puzzles found in the site's games."},
        {"name": "exams", "description": "A minimax program's answers graded against perfect play."},
        {"name": "notifications", "description": "What you are told: challenges, your turn, answers to offers."},
        {"name": "reports", "description": "Reporting a player or a chat message to the moderators."},
        {"name": "statistics", "description": "Players' records, ratings and the leaderboard."},
    ],
}

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        # A stopped database or Redis answers every request with 503: /readyz/
        # is the alarm for that, not a mail per request.
        "not_an_outage": {"()": "games.serving.outages.NotAnOutage"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "not_an_outage"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL, "propagate": False},
        # The site's own errors (a socket's failed message, the worker's) are mailed too, and printed by root.
        "games": {"handlers": ["mail_admins"], "level": LOG_LEVEL},
        # django-axes says a lot at INFO (its banner on every start, each step
        # of every sign-in); its warnings (failures, lockouts) still show.
        "axes": {"level": "WARNING"},
    },
}

# Optional error reports to Sentry, through sentry-sdk's Django integration.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration()],
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
