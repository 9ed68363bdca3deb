"""Settings, read from the environment (README.md lists every variable).

Defaults give the embedded mode: a SQLite file and an embedded Redis on a unix socket, both under var/.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from .redis_url import kombu_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ROBORACER_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    # The embedded default keeps a generated key under var/ so sessions survive restarts.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        import secrets

        key_file.write_text(secrets.token_urlsafe(50))
    SECRET_KEY = key_file.read_text().strip()
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_ratelimit",
    "knox",  # personal API tokens (issue 41): its token model is ours, accounts.ApiToken
    "csp",
    "roboracer.accounts",
    "roboracer.courses",
    "games",
    "roboracer.ratings",
    "roboracer.tournaments",
    "roboracer.pyramid",
    "roboracer.economy",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # before WhiteNoise: static responses (an SVG opened directly) get it too
    "roboracer.static_files.AsyncFileWhiteNoiseMiddleware",  # WhiteNoise, warning-free under ASGI
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "roboracer.accounts.bot_sessions.BotSessionMiddleware",  # a bot account's session changes nothing on pages
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: turns a refused log-in into its 429
]

# Served over HTTPS (SECURE=true, docs/site.md "Security"): Django's production security settings. Off by
# default so that `make run` on http://127.0.0.1:8000 works; `manage.py check --deploy` passes with it on.
SECURE = env_bool("SECURE", False)
if SECURE:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)  # false when the proxy already redirects
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
    # uvicorn already takes the scheme from X-Forwarded-Proto when the proxy is in its --forwarded-allow-ips
    # (FORWARDED_ALLOW_IPS, 127.0.0.1 by default); this is for a proxy that reaches it from elsewhere and
    # always sets the header itself.
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sent in every mode (Django's defaults, written out): no MIME sniffing, no framing, referrer only to our own
# pages, a window of our own.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Content-Security-Policy on every response (django-csp; docs/site.md "Security"). Scripts only from our own
# files (the bundle is an ES module under /static/dist/; json_script data is type application/json, not run);
# styles also inline, because the bundle injects its stylesheet as a <style> element and sets SVG style
# attributes, and Redoc (/api/docs/) injects its styles too. Redoc's search runs in a blob: worker.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],  # 'self' covers ws:/wss: to our own host (CSP 3)
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "roboracer.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "roboracer" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "roboracer.tournaments.context_processors.invitations",
                "games.context_processors.bell",
            ],
        },
    },
]
ASGI_APPLICATION = "roboracer.asgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'roboracer.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the web server, the worker and beat read while one of them writes; IMMEDIATE
        # transactions take the write lock up front, so concurrent writers wait instead of deadlocking.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Tests share their database file with the worker and server subprocesses they start.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request in flight runs in a thread of its own with its own connection; a pool bounds
    # them per process (the others wait for one) and saves the connect. Without it 100 busy games exceed
    # PostgreSQL's default max_connections=100 (make bench-site).
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 2, "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "16")), "timeout": 20},
    }
    # Prepared statements: parameters bound by the server, and a statement run again on a connection (the hot
    # path's dozen, run every turn) is parsed and planned once per connection instead of each time. It halved
    # PostgreSQL's CPU per turn (docs/performance.md). Django turns preparing off unless prepare_threshold is
    # given; DATABASE_PREPARED=0 turns both off, for a pooler in transaction mode (PgBouncer without
    # max_prepared_statements) that cannot keep a connection's prepared statements.
    if os.environ.get("DATABASE_PREPARED", "1") != "0":
        DATABASES["default"]["OPTIONS"] |= {"server_side_binding": True, "prepare_threshold": 1}
    # A process cut off from PostgreSQL mid-transaction (its host partitioned, or frozen) keeps the game row it
    # locked until its connection dies: every move of that game waits. With DATABASE_IDLE_TX_TIMEOUT (seconds)
    # PostgreSQL ends such a session once it has sent nothing that long inside a transaction, and the lock goes
    # (docs/cluster.md, partition-web-db). Off by default (0): a test's own transaction may idle that long; the
    # cluster and docker-compose set 5.
    IDLE_TX_TIMEOUT = int(os.environ.get("DATABASE_IDLE_TX_TIMEOUT") or 0)
    if IDLE_TX_TIMEOUT > 0:
        DATABASES["default"]["OPTIONS"]["options"] = f"-c idle_in_transaction_session_timeout={IDLE_TX_TIMEOUT * 1000}"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL") or f"unix://{VAR_DIR / 'redis.sock'}"
CHANNEL_LAYERS = {
    "default": {
        # Redis pub/sub: a group_send is one PUBLISH whatever the group's size, and each server process gets
        # its messages pushed on one subscribed connection. The list-based RedisChannelLayer needed four
        # round trips per message per socket, one message at a time per process, and at 100 busy games its
        # queue held events for seconds (make bench-site, docs/site.md). Delivery is at most once either way;
        # clients resync from a snapshot.
        "BACKEND": "roboracer.channel_layer.ChannelLayer",  # RedisPubSubChannelLayer, a quieter idle loop
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}],
            # Pub/sub channels are shared by all databases of a Redis server: sites (or parallel test
            # workers) that share one server keep apart with a prefix of their own.
            "prefix": os.environ.get("CHANNEL_LAYER_PREFIX") or "asgi",
        },
    }
}
CELERY_BROKER_URL = kombu_url(REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
# Celery's Django fixup closes every database connection before and after each task, and in a prefork child
# it closes the whole connection pool too: each turn then opened new PostgreSQL connections (a backend forked
# and its catalogue caches warmed for every task; make bench-site). With a reuse count it does that only every
# this many tasks; roboracer.celery returns a task's connection to the pool and drops a broken one instead.
CELERY_DB_REUSE_MAX = 1000
# Computer players think on a queue of their own, served by its own worker (`make run`, docker-compose), so a
# resolution never waits behind them (docs/computer-players.md). Every other task goes to the default queue.
CELERY_TASK_ROUTES = {"games.tasks.computer_move": {"queue": "computers"}}
CELERY_BEAT_SCHEDULE = {
    "sweep-games": {"task": "games.tasks.sweep_games", "schedule": 5.0},
    # Real-time games have two-minute move times: look for passed deadlines every second.
    # ROBORACER_DEADLINE_CHECK_SECONDS: shorter for the process tests' sampling windows (docs/testing.md).
    "enforce-deadlines": {"task": "games.tasks.enforce_deadlines",
                          "schedule": float(os.environ.get("ROBORACER_DEADLINE_CHECK_SECONDS") or 1.0)},
    # Registrations that are due close, and a tournament round whose advance was lost is repaired.
    "sweep-tournaments": {"task": "tournaments.tasks.sweep", "schedule": 10.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# One scheduler at a time per Redis, however many `celery beat` run (roboracer/beat.py, docs/site.md).
CELERY_BEAT_SCHEDULER = "roboracer.beat:SingleScheduler"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# The test suite (tests/testenv.py) sets ROBORACER_TEST_PASSWORD_HASHER=1 for itself and the live stacks it
# starts: one PBKDF2 hash costs about 0.4 s of CPU here, and the suite makes and logs in thousands of users
# (Django's testing docs recommend a fast hasher for tests). Never on a site served over HTTPS.
if env_bool("ROBORACER_TEST_PASSWORD_HASHER", False):
    if SECURE:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("ROBORACER_TEST_PASSWORD_HASHER is for the test suite, not a site with SECURE=true")
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a throttled log-in before any password check
    "roboracer.accounts.backends.UsernameIgnoringCaseBackend",
]
# Log-in throttling (django-axes, docs/site.md): after LOGIN_FAILURE_LIMIT failures for one username from one
# client address, or from one address whatever the usernames, log-ins from that address are refused with a 429
# and Retry-After until LOGIN_COOLOFF_MINUTES have passed since the last failure. Never per username alone:
# wrong passwords from one address must not keep the owner out from another (issue 33). A successful log-in
# forgets that account's and address's failures.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))

# Open lobbies (created through the lobby form or the API, not started) one account may have at once; the
# next create is refused with 429 (docs/api.md). Tournament tables and Pyramid challenges don't count.
OPEN_LOBBIES_PER_ACCOUNT = int(os.environ.get("OPEN_LOBBIES_PER_ACCOUNT", "10"))
# Open public games in one page of the lobby list (GET /api/games/, the lobby socket's first frame, the page).
LOBBY_PAGE_SIZE = int(os.environ.get("LOBBY_PAGE_SIZE", "50"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # either one reaching the limit locks
AXES_USERNAME_CALLABLE = "roboracer.accounts.lockout.username_key"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures only: no row per successful log-in
AXES_LOCKOUT_CALLABLE = "roboracer.accounts.lockout.lockout_response"
AXES_VERBOSE = False  # no "AXES: BEGIN" banner on every process start and manage.py command
# The largest request body accepted (bytes): larger ones get a 413 as they stream in, before Django reads
# them (roboracer/body_limit.py, docs/site.md "Request size"). Django's own DATA_UPLOAD_MAX_MEMORY_SIZE.
MAX_REQUEST_BODY_BYTES = int(os.environ.get("MAX_REQUEST_BODY_BYTES", str(2_621_440)))
# Sign-up throttling (django-ratelimit, docs/site.md "Sign-up throttling"): at most SIGNUP_RATE sign-up attempts
# from one client address, counted in the shared Redis (every web process sees one count).
SIGNUP_RATE = os.environ.get("SIGNUP_RATE", "10/h")
RATELIMIT_USE_CACHE = "throttle"
# django-ratelimit warns that Django's own RedisCache is "not officially supported": it only tests memcached
# and django-redis. Its add (SET NX) and incr (INCR) are what the count needs (docs/site.md).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                 "KEY_PREFIX": "throttle", "OPTIONS": {"socket_timeout": 5, "socket_connect_timeout": 5}},
}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "collected-static"
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    # The session first: an unauthenticated request stays a 403 (docs/api.md). A personal API token
    # ("Authorization: Bearer <token>", docs/bot-api.md) works on the API only, never on an HTML page.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication",
                                       "roboracer.accounts.tokens.ApiTokenAuthentication"],
    # TokenScopes: what a token may do (its scopes, its rate); PeopleOnSessions: a bot account plays with a token.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated",
                                   "roboracer.accounts.tokens.TokenScopes",
                                   "roboracer.accounts.tokens.PeopleOnSessions"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "roboracer.common.api_errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "roboracer.common.parsers.JSONParser",  # DRF's, with too-deeply nested JSON a 400 instead of a 500
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "RoboRacer API",
    "DESCRIPTION": "Lobby, games, hands and programs. Hidden information is only ever shown to its owner.",
    "VERSION": "0.1.0",
    "REDOC_DIST": "SIDECAR",  # the docs page works offline: Redoc is served from our static files
    # A course's state appears in many fields (state, can, history's from and to): one enum for all of them.
    # The timeout policy of games and of tournaments (which create games): one enum for both.
    "ENUM_NAME_OVERRIDES": {
        "CourseStateEnum": "roboracer.courses.models.Course.State",
        "TimeoutPolicyEnum": "games.models.Game.TimeoutPolicy",
        "ComputerFillEnum": "roboracer.tournaments.models.Tournament.ComputerFill",
        "StrengthEnum": ("easy", "normal", "hard"),
    },
}

# Personal API tokens and bot accounts (issue 41, docs/bot-api.md). django-rest-knox stores each token as a
# SHA-512 digest; "rr_" starts every token so that a leaked one is recognisable; TOKEN_TTL None: the owner
# chooses an expiry (or none) for each token.
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's own migrations would create its stock token table even though ours replaces it (a table nothing uses,
# whose foreign key to the users stops the test database's flush): its only model is swapped out, so knox
# needs no migration at all.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {"AUTH_HEADER_PREFIX": "Bearer", "TOKEN_TTL": None, "TOKEN_PREFIX": "rr_", "AUTO_REFRESH": False}
API_TOKENS_PER_ACCOUNT = int(os.environ.get("API_TOKENS_PER_ACCOUNT", "20"))
# Requests per token (django-ratelimit, counted in Redis for every web process), and program/move requests per token.
BOT_REQUEST_RATE = os.environ.get("BOT_REQUEST_RATE", "120/m")
BOT_MOVE_RATE = os.environ.get("BOT_MOVE_RATE", "30/m")
# At most this many games at once (in the lobby or running) per bot account.
BOT_MAX_GAMES = int(os.environ.get("BOT_MAX_GAMES", "8"))
# The bot streams (docs/bot-api.md "Streams"): a blank line every BOT_STREAM_KEEPALIVE seconds; the database is
# read again at least that often (sooner when the channel layer says something happened), and the token checked.
BOT_STREAM_KEEPALIVE = float(os.environ.get("BOT_STREAM_KEEPALIVE", "7"))

SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")  # for links in e-mails
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "RoboRacer <noreply@roboracer.invalid>")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "filters": {"client_error_as_warning": {"()": "roboracer.http.ClientErrorAsWarning"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # The beat sweep runs every 5 s; Celery's per-task lines would bury everything else.
    "loggers": {
        **{name: {"level": "WARNING"} for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat")},
        # Bad request bodies and Host headers are the client's error: a warning line, no traceback (4xx only).
        **{
            f"django.security.{name}": {"filters": ["client_error_as_warning"]}
            for name in ("RequestDataTooBig", "TooManyFieldsSent", "TooManyFilesSent", "SuspiciousMultipartForm",
                         "DisallowedHost")
        },
        "django.request": {"filters": ["client_error_as_warning"]},
    },
}
