"""One plain settings module, driven by environment variables.

Safe unless told otherwise: ``DEBUG`` is off unless the environment says ``DEBUG=1`` (``make run``
does), and with it off the app refuses to start without ``SECRET_KEY``, serves only the hosts of
``ALLOWED_HOSTS`` (localhost alone by default) and turns on the secure settings: HTTPS redirect
(trusting a proxy's ``X-Forwarded-Proto``), HSTS, secure cookies. So a bare production start shows
no debug page and ``manage.py check --deploy`` has nothing to say with just ``DEBUG=0``,
``SECRET_KEY`` and ``ALLOWED_HOSTS`` set.

The rest has embedded defaults that run the app on a fresh machine with no services: SQLite,
Celery tasks executed eagerly in-process, an in-memory cache. Production points ``DATABASE_URL``
at PostgreSQL and ``REDIS_URL`` at Redis.
"""

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable to a long random "
            "string (50 characters or more, kept secret), or set DEBUG=1 for local development."
        )
    SECRET_KEY = "dev-only-insecure-key-used-because-DEBUG-is-on"
# Localhost only unless told: a forged Host header must not reach the links the API builds.
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# With DEBUG off the app is served over HTTPS, normally behind a proxy that terminates TLS and
# says so in X-Forwarded-Proto (the proxy must set or strip that header). Each is overridable,
# e.g. SECURE_SSL_REDIRECT=0 where the proxy redirects itself.
SECURE = not DEBUG
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=SECURE)
if env.bool("TRUST_X_FORWARDED_PROTO", default=SECURE):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=SECURE)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=SECURE)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=SECURE)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=SECURE)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "config.devserver",  # runserver with a backlog for bursts (make run)
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "simple_history",
    "rules",
    "csp",
    "axes",
    "django_celery_results",
    "tournaments",
    "scoring",
    "simulation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RefuseNulBytesMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the one chosen with the switcher (a cookie), else the browser's
    # Accept-Language, else LANGUAGE_CODE. After the session, before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.private_links.PrivateLinkMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tournaments.live_pages.LivePagesMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a sign-in it refused into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

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
                "tournaments.live_pages.live_poll",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", True)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite serves a burst of writes (two players validating each other's rows at once, a
    # worker writing a dry run beside the web process) when writers queue instead of failing:
    # each transaction takes the write lock when it begins (IMMEDIATE: a transaction that read
    # first and wrote later could find the lock taken and fail at once with "database is
    # locked"), waits up to `timeout` seconds for it, and in WAL mode readers never wait.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode=env.str("SQLITE_TRANSACTION_MODE", default="IMMEDIATE"),
        init_command="PRAGMA journal_mode=WAL",
    )
else:
    # A web worker or a Celery process keeps its PostgreSQL connection between requests (checked
    # before reuse) instead of opening one per request, which cost a third of a card write.
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if env.bool("DB_SERVER_SIDE_BINDING", default=False):
        # Server-side binding, and psycopg's prepared statements for a query seen twice on the
        # connection (Django turns them off unless told: binding alone prepares nothing).
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=env.int("DB_PREPARE_THRESHOLD", default=2)
        )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

AUTHENTICATION_BACKENDS = [
    # First: refuses any sign-in, right password or not, while its account and address are
    # locked out (see AXES_* below).
    "axes.backends.AxesStandaloneBackend",
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# English unless the visitor asks for French (Accept-Language or the language switcher); the
# French of the public pages is in locale/fr/LC_MESSAGES (django.po, compiled to django.mo and
# committed, so no gettext is needed to run the app).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(BASE_DIR / "media"))
MEDIA_URL = "media/"

LOGIN_URL = "login"
# Signing in leads a player to their own page, staff to their tournament's dashboard.
LOGIN_REDIRECT_URL = "landing"
LOGOUT_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    # Anonymous clients by address, signed-in ones by user; over the rate: 429 with a JSON detail
    # saying when to try again. An empty rate turns that throttle off (the tests do: their
    # requests all come from one address, and CI shares one Redis between test processes).
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_ANON_RATE", default="120/min") or None,
        "user": env.str("API_USER_RATE", default="1000/min") or None,
    },
    # How many proxies in front of the app append to X-Forwarded-For; 0 trusts only the address
    # the connection comes from, so a client cannot pick its own address by sending the header.
    "NUM_PROXIES": env.int("TRUSTED_PROXY_COUNT", default=0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Crokinole Tournament Manager API",
    "DESCRIPTION": "Tournaments, categories, players, entries, stages, matches, scorecards.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets of the same field name in several models, named apart in the schema.
    "ENUM_NAME_OVERRIDES": {
        "CardRowStatusEnum": "scoring.models.scorecards.CardRow.Status",
        "EntryRequestStatusEnum": "tournaments.models.registrations.EntryRequest.Status",
        "PersonDisciplineEnum": "tournaments.models.registry.Person.Discipline",
        "RatingDisciplineEnum": "scoring.models.record.Discipline",
        "CategoryDisciplineEnum": "tournaments.models.categories.Category.Discipline",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_error_responses",
        "config.openapi.require_a_round_result",
    ],
}

# Celery. Where tasks travel:
# - REDIS_URL set (production, CI): Redis is the broker and keeps the results.
# - else BROKER_URL set: that broker, results in the database (django-celery-results). `make run`
#   sets BROKER_URL=filesystem://: a queue kept in files under BROKER_FOLDER, no server, read by
#   the worker it starts beside runserver, so long work never runs inside a request.
# - else: nothing to run long work. Pages refuse to start it, saying so (LONG_WORK_IN_REQUEST
#   below); the tests run tasks eagerly in the calling process, unless a test starts a worker.
# Tasks are acknowledged once done (acks_late) and handed back to the queue when their worker
# dies, so every task may run twice: the simulation's transitions take that into account.
REDIS_URL = env.str("REDIS_URL", default="")
BROKER_URL = env.str("BROKER_URL", default="")
BROKER_FOLDER = Path(env.str("BROKER_FOLDER", default=str(BASE_DIR / "var" / "broker")))
CELERY_BROKER_URL = REDIS_URL or BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or ("django-db" if BROKER_URL else "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env.bool(
    "CELERY_TASK_ALWAYS_EAGER", default=not (REDIS_URL or BROKER_URL)
)
# Without a broker, long work (a dry run takes minutes) would run inside the request that starts
# it and be cut off by gunicorn's timeout: pages refuse to start it, saying how to configure a
# broker (config.celery.check_queue), unless this allows it (the tests, which set it, and
# management commands run by hand never ask).
LONG_WORK_IN_REQUEST = env.bool("LONG_WORK_IN_REQUEST", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TRACK_STARTED = True
# The queue's name: two checkouts (or test runs) sharing one Redis keep their tasks apart.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# With results in the database, each row names its task, so the simulation's periodic check can
# delete the played games' results once their batch is written (simulation.tasks).
CELERY_RESULT_EXTENDED = CELERY_RESULT_BACKEND == "django-db"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A broker that does not answer fails a page in a second or two (config.celery.check_queue), not
# after retrying for 20 s; a worker keeps retrying at start-up until the broker is there.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 0.5,
}
# A task taken by a worker that died goes back to Redis after TASK_VISIBILITY_TIMEOUT seconds
# (Redis' own default is an hour); a task still running then is handed out twice, which the
# tasks allow. The sweep for such tasks runs every 10 s.
TASK_VISIBILITY_TIMEOUT = env.int("TASK_VISIBILITY_TIMEOUT", default=120)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": TASK_VISIBILITY_TIMEOUT,
        "unacked_restore_interval": min(10, TASK_VISIBILITY_TIMEOUT),
        "unacked_restore_throttle": 1,
        "socket_connect_timeout": 1,
        "socket_timeout": 10,
    }
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
        "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.5}
    }
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # No server: messages are files. A task taken by a worker killed outright is lost with it;
    # the simulation's stall check (below) sends the work again.
    # The transport is kombu's, writing each message whole before it shows in the folder.
    for _folder in ("queue", "control"):
        (BROKER_FOLDER / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT = "config.celery:FilesystemTransport"
    CELERY_BROKER_URL = "filesystem://localhost/"  # the host means nothing; kombu wants one
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_FOLDER / "queue"),
        "data_folder_out": str(BROKER_FOLDER / "queue"),
        "control_folder": str(BROKER_FOLDER / "control"),
        "polling_interval": 0.2,
    }
# Background work that has made no progress for SIMULATION_STALL_SECONDS is "stalled": its page
# says since when, with Retry and Stop buttons, and the periodic check (run by the worker's beat,
# `celery worker -B` or `celery beat`) sends a stalled run's batches again a few times before
# failing it with the reason.
SIMULATION_STALL_SECONDS = env.int("SIMULATION_STALL_SECONDS", default=300)
# A PDF batch with no progress for this long (running), or not taken by a worker for this long
# (queued), is shown "Stalled" with a button that prints the round again. On Redis a batch whose
# worker died is handed out again once its visibility timeout has passed (plus up to one sweep)
# and reports progress at once: "Stalled" waits for that, with a margin, so that an organizer is
# not offered a second batch while the first is being redelivered.
PRINT_STALL_SECONDS = env.int("PRINT_STALL_SECONDS", default=120)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    PRINT_STALL_SECONDS = max(
        PRINT_STALL_SECONDS,
        TASK_VISIBILITY_TIMEOUT + CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] + 30,
    )
CELERY_BEAT_SCHEDULE = {
    "simulation-stalled-runs": {
        "task": "simulation.tasks.check_stalled_runs",
        "schedule": env.float("STALL_CHECK_SECONDS", default=30.0),
    },
    # Every rating recomputed from the record and each ranking kept (scoring.ratings.tasks).
    "ratings-nightly": {
        "task": "scoring.nightly_ratings",
        "schedule": crontab(hour=env.int("RATINGS_NIGHTLY_HOUR", default=3), minute=0),
    },
}
#: Games in a discipline before a person appears in its ranking.
RATING_MIN_GAMES = env.int("RATING_MIN_GAMES", default=10)

# The cache holds the API's throttling counts and the ranked standings: shared by every process
# through Redis, else kept per process. Nothing in it is needed to serve a page: with Redis down
# or hanging, config.cache answers every call as a miss within a fraction of a second (standings
# ranked again, throttling failing open, a warning in the log), so the site keeps serving.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
#: How long what public pages compute is kept per live version of a tournament (the standings):
#: a new result makes a new version, so this only bounds the memory of versions gone by. 0
#: turns the cache off.
LIVE_CACHE_SECONDS = env.int("LIVE_CACHE_SECONDS", default=600)
# The round clock's event stream (tournaments.views.clock_events): how long one stream lasts
# before the browser opens the next, and how many one web process serves at once (keep it below
# the gunicorn threads of a worker, config/gunicorn.conf.py, which sets it from them).
CLOCK_STREAM_SECONDS = env.int("CLOCK_STREAM_SECONDS", default=90)
CLOCK_STREAMS_PER_PROCESS = env.int("CLOCK_STREAMS_PER_PROCESS", default=24)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    # WeasyPrint logs every laid-out page at INFO; a batch of 200 cards would flood the worker.
    "loggers": {"weasyprint.progress": {"level": "WARNING"}},
}

# Content-Security-Policy (django-csp): scripts only from this site's own files, never inline, so
# an injected <script> or on*= attribute does not run. Styles may be inline: the progress bar's
# width and the bracket drawings' <style> are written into the page.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Guessing passwords (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one account from
# one address, that pair is refused, right password or not, for LOGIN_LOCKOUT_MINUTES (each try
# meanwhile starts the wait again), on the login page (a 429 page) and on the token endpoint (a
# JSON 429). The attempts are kept in the database, so every worker process counts them.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
# Password spraying (one password tried across many accounts from one address) is refused per
# address once LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords over all accounts came from it within
# the same wait (config.security.AddressLockoutHandler). Higher than the per-account limit: the
# players of a club hall may all sign in through its one address.
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
AXES_HANDLER = "config.security.AddressLockoutHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "config.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.security.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True

# Web Push (the calls to players' phones, tournaments.push): the VAPID key pair that signs each
# push, as base64url (the private key's raw 32 bytes or a PEM file's path; the public key's 65
# uncompressed bytes, which the phone's browser is given), and whom the push services may
# contact about them (a mailto: or https: address). Without both keys, push is off: the pages
# say so, and the calls are still shown on the hall screen and the players' pages.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:webmaster@localhost")
