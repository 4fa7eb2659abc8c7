"""Django settings for the floor service.

The embedded default (no environment set) keeps the read models in
``var/floor.sqlite3``, the event store in ``var/events.sqlite3`` and the Celery
broker in ``var/broker/``. ``DATABASE_URL`` (or ``POSTGRES_DB``) moves both the
read models and the event store to PostgreSQL; ``CELERY_BROKER_URL`` moves the
broker to Redis or RabbitMQ. See README.md.
"""

from __future__ import annotations

import os
import secrets
import time
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import db_schema_from_env, flag, postgres_from_env
from games.profiles import PROFILES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("FLOOR_VAR_DIR", BASE_DIR / "var")).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """The key from the environment, or one made once and kept under var/.

    Created with O_EXCL and mode 0600, so processes starting together agree on
    one key and no other user ever reads it.
    """
    if os.environ.get("DJANGO_SECRET_KEY"):
        return os.environ["DJANGO_SECRET_KEY"]
    key_file = VAR_DIR / "secret_key"
    try:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50))
    for _attempt in range(50):  # another process may be writing it this instant
        key = key_file.read_text().strip()
        if key:
            return key
        time.sleep(0.01)
    raise ImproperlyConfigured(f"{key_file} is empty: delete it or set DJANGO_SECRET_KEY")


SECRET_KEY = _secret_key()
DEBUG = flag("DJANGO_DEBUG", False)
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if h.strip()
]

# --- Security in production (docs/deploy.md, "Settings checklist").
# FLOOR_PRODUCTION=1 is a deployment behind a TLS-terminating proxy: secure
# cookies, HSTS, HTTPS redirects and a secret key that is given, not made; each
# can be turned off one by one with its own variable. Without it nothing here
# differs from Django's defaults, so `make run` serves plain HTTP on 127.0.0.1.
# `manage.py check --deploy` is clean with the production settings
# (tests/floor/test_settings_env.py).
FLOOR_PRODUCTION = flag("FLOOR_PRODUCTION", False)
if FLOOR_PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be off when FLOOR_PRODUCTION is set")
    # Django's check security.W009: at least 50 characters, 5 different ones.
    if len(os.environ.get("DJANGO_SECRET_KEY", "")) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "FLOOR_PRODUCTION needs DJANGO_SECRET_KEY of at least 50 random characters "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    # Every machine chains the journal (the sweep and the projector catch it up):
    # one key for all, given, or each would make its own and verify_log fail.
    if len(os.environ.get("FLOOR_AUDIT_KEY", "")) < 43:
        raise ImproperlyConfigured(
            "FLOOR_PRODUCTION needs FLOOR_AUDIT_KEY of at least 43 characters, the same "
            "on every machine (python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
SESSION_COOKIE_SECURE = flag("DJANGO_SESSION_COOKIE_SECURE", FLOOR_PRODUCTION)
CSRF_COOKIE_SECURE = flag("DJANGO_CSRF_COOKIE_SECURE", FLOOR_PRODUCTION)
SECURE_SSL_REDIRECT = flag("DJANGO_SECURE_SSL_REDIRECT", FLOOR_PRODUCTION)
# Monitors inside the casino's network ask these over plain HTTP, to the
# machine itself: they are answered, not redirected.
SECURE_REDIRECT_EXEMPT = [r"^healthz/?$", r"^metrics/?$"]
SECURE_HSTS_SECONDS = int(
    os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000" if FLOOR_PRODUCTION else "0")
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = flag("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", FLOOR_PRODUCTION)
SECURE_HSTS_PRELOAD = flag("DJANGO_SECURE_HSTS_PRELOAD", FLOOR_PRODUCTION)


def _proxy_ssl_header(raw: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto`` (or ``X-Forwarded-Proto: https``) as Django's
    SECURE_PROXY_SSL_HEADER; set it only behind a proxy that overwrites the
    header, since a client could otherwise claim HTTPS."""
    name, _sep, value = raw.partition(":")
    name = name.strip()
    if not name:
        return None
    return ("HTTP_" + name.upper().replace("-", "_"), value.strip() or "https")


SECURE_PROXY_SSL_HEADER = _proxy_ssl_header(os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", ""))
# The console's forms posted through the proxy: https://floor.casino.example,...
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    # The director's staff pages at /admin/ (floor.admin).
    "django.contrib.admin.apps.SimpleAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # htmx for the consoles' live parts ({% htmx_script %}, its static files).
    "django_htmx",
    "floor",
    "ledger",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "floor.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A player's sign-in reaches the player's page only (issue 24).
    "floor.player.fence.PlayerFence",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a login refused for a lockout.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Databases: the read models, the projector's position, users and sessions.
# DATABASE_URL (or POSTGRES_*) is parsed by dj-database-url (config.env), every
# libpq option of its query string kept; FLOOR_DB_SCHEMA puts this casino's
# read models and event store in their own PostgreSQL schema (docs/deploy.md).
FLOOR_DB_SCHEMA = db_schema_from_env()
POSTGRES = postgres_from_env()
if POSTGRES:
    DATABASES = {"default": POSTGRES}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("FLOOR_SQLITE_PATH", str(VAR_DIR / "floor.sqlite3")),
            "OPTIONS": {
                # Take the write lock when a transaction starts, and wait for it,
                # so that web, worker and beat processes queue instead of failing.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {
                # A file, not memory, so that a Celery worker or a projector
                # started by a test in another process sees the same data.
                "NAME": os.environ.get(
                    "FLOOR_SQLITE_TEST_PATH", str(VAR_DIR / "test_floor.sqlite3")
                ),
            },
        }
    }

# A rebuild writes its read models to a shadow database while the live ones
# serve (floor.kernel.web.shadow_db); the router is idle otherwise.
DATABASE_ROUTERS = ["floor.kernel.web.shadow_db.ShadowRouter"]

# --- Event store: where the eventsourcing library keeps the log.
# "sqlite": a file under var/; "postgres": the same database as the read models;
# "popo": in memory (unit tests only).
EVENT_STORE_BACKEND = os.environ.get("FLOOR_EVENT_STORE", "postgres" if POSTGRES else "sqlite")
EVENT_STORE_SQLITE_PATH = os.environ.get("FLOOR_EVENT_STORE_PATH", str(VAR_DIR / "events.sqlite3"))
# Every event state is stored zlib-compressed with a preset dictionary, in every
# process that builds the floor's application (web, workers, beat, projector,
# rebuild, backup and restore, benches): the library's own setting, which the
# environment may set to another compressor of floor.kernel.compression, or to
# nothing (empty). Every compressor there reads plain states too; once states
# are compressed, every reader needs one (issue 23, item 6; bench/README.md,
# "store_size.py").
EVENT_COMPRESSOR_TOPIC = os.environ.get(
    "COMPRESSOR_TOPIC", "floor.kernel.compression:ZlibWithDictionary"
)

# --- The casino this deployment serves.
FLOOR_CASINO_NAME = os.environ.get("FLOOR_CASINO_NAME", "Casino de demostración")
FLOOR_RULE_PROFILE = os.environ.get("FLOOR_RULE_PROFILE", "CM").upper()
if FLOOR_RULE_PROFILE not in PROFILES:
    raise ImproperlyConfigured(
        f"FLOOR_RULE_PROFILE={FLOOR_RULE_PROFILE!r} is not a rule profile: "
        f"one of {', '.join(PROFILES)}"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
# django-axes checks every login (console and API) before the password is.
# Each door lets its own people in: the staff's login and the API's tokens no
# player, the player's page (a PIN, or the desk's one-time code) no staff.
AUTHENTICATION_BACKENDS = [
    "floor.logins.LockoutBackend",
    "floor.logins.DoorBackend",
    "floor.player.signin.PlayerCodeBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "floor:home"
LOGOUT_REDIRECT_URL = "login"

# --- Language: Spanish by default; Galician, Portuguese and English on request.
LANGUAGE_CODE = "es"
LANGUAGES = [
    ("es", _("Spanish")),
    ("gl", _("Galician")),
    ("pt", _("Portuguese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language a person picks sticks for a year on that PC or tablet, not just
# until the browser closes.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = os.environ.get("FLOOR_TIME_ZONE", "Europe/Madrid")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# Served by WhiteNoise from the app directories too, so `collectstatic` is optional.
WHITENOISE_USE_FINDERS = True
# The browser libraries npm installs from package-lock.json (`make` runs
# `npm ci`), served as static files: idiomorph, the morphing swap of the
# consoles' live parts (docs/console.md). Nothing third-party is committed.
STATICFILES_DIRS = [("idiomorph", BASE_DIR / "node_modules" / "idiomorph" / "dist")]

# --- REST API.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's, without its sweep of expired tokens on every request (floor.logins).
        "floor.logins.ShiftTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "floor.api.permissions.MayRunTheCommand",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "floor.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # The token endpoint's throttle (floor.api.auth_views): per client address.
    "DEFAULT_THROTTLE_RATES": {"login": os.environ.get("FLOOR_LOGIN_RATE", "20/minute")},
    # The client address is the connection's (REMOTE_ADDR), as axes reads it:
    # without it DRF would key the throttle on X-Forwarded-For, which any
    # caller writes. Behind N trusted reverse proxies, set FLOOR_NUM_PROXIES=N.
    "NUM_PROXIES": int(os.environ.get("FLOOR_NUM_PROXIES", "0")),
}

# --- Logging in (README, "Logging in").
# django-axes locks a user name out after FLOOR_LOGIN_FAILURE_LIMIT wrong
# passwords within the cool-off, an address after FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT;
# the lockout lifts itself FLOOR_LOGIN_COOLOFF_MINUTES after the last failure, or when a
# director lifts it (POST /api/auth/lockouts/lift/).
# A player's one-time sign-in code from the desk lasts this long (issue 24).
FLOOR_PLAYER_CODE_MINUTES = int(os.environ.get("FLOOR_PLAYER_CODE_MINUTES", "15"))
# The player's page asks for its live part (a call, the positions) this often.
FLOOR_PLAYER_POLL_SECONDS = int(os.environ.get("FLOOR_PLAYER_POLL_SECONDS", "5"))
AXES_FAILURE_LIMIT = int(os.environ.get("FLOOR_LOGIN_FAILURE_LIMIT", "5"))
# An address (several people may share one) locks after more failures: axes has
# one limit, floor.logins.LockoutHandler gives the address its own.
FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
AXES_HANDLER = "floor.logins.LockoutHandler"
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("FLOOR_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "floor.logins.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_ENABLE_ADMIN = False
AXES_VERBOSE = False  # no banner from every process at start
# API tokens (django-rest-knox) last a shift, and are kept only as a digest.
FLOOR_TOKEN_HOURS = float(os.environ.get("FLOOR_TOKEN_HOURS", "12"))
# Expired tokens are deleted by beat this often (requests only refuse them).
FLOOR_TOKEN_SWEEP_SECONDS = float(os.environ.get("FLOOR_TOKEN_SWEEP_SECONDS", "3600"))
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=FLOOR_TOKEN_HOURS),
    "AUTO_REFRESH": False,  # a token ends with the shift, however busy it was
    "AUTH_HEADER_PREFIX": "Token",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Floor service API",
    "DESCRIPTION": (
        "Poker floor of a casino: sectors, tables, seats and the money around "
        "them. Every mutating request carries a command_id; a repeat returns "
        "the first outcome and records nothing new."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # One name for the variants wherever a field offers them (variant, second_variant).
    "ENUM_NAME_OVERRIDES": {
        "VariantEnum": "floor.api.serializers.VARIANT_CHOICES",
        "SessionEndEnum": "floor.api.serializers.SESSION_END_CHOICES",
    },
    # Swagger UI served from our own static files: no CDN on a casino network.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every operation lists the answers every endpoint can give (401, 403, 404).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "floor.api.schema.common_error_responses",
        "floor.api.schema.backend_free_integers",
    ],
}

# --- Celery: the embedded default is a broker in files under var/broker
# (embedded://, config.broker: kombu's filesystem transport made safe for several
# processes; bench/broker.py and bench/soak.py are the evidence).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "embedded://")
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
EMBEDDED_BROKER = CELERY_BROKER_URL.startswith(("embedded://", "filesystem://"))
# A broker in files has no broadcast a remote control could trust: the worker's
# remote control (and mingle and gossip, which ride on it) stay off there; the
# worker's liveness is its heartbeat in the database (floor.health).
CELERY_WORKER_ENABLE_REMOTE_CONTROL = not EMBEDDED_BROKER
if EMBEDDED_BROKER:
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The sweeper runs every FLOOR_SWEEP_SECONDS: it proves beat is alive, catches the
# read models up with the log, and (from the clocks issue on) fires overdue timers.
FLOOR_SWEEP_SECONDS = float(os.environ.get("FLOOR_SWEEP_SECONDS", "2"))
# The worker and beat write their heartbeat this often (floor.liveness); /healthz
# calls a process gone when its heartbeat is FLOOR_HEALTH_STALE_SECONDS old, the
# timers stopped when the last sweep is that old, and the read models behind when
# FLOOR_HEALTH_MAX_LAG events wait to be projected (docs/operations.md).
FLOOR_HEARTBEAT_SECONDS = float(os.environ.get("FLOOR_HEARTBEAT_SECONDS", "2"))
FLOOR_HEALTH_STALE_SECONDS = float(
    os.environ.get(
        "FLOOR_HEALTH_STALE_SECONDS",
        str(max(10.0, 5 * max(FLOOR_SWEEP_SECONDS, FLOOR_HEARTBEAT_SECONDS))),
    )
)
FLOOR_HEALTH_MAX_LAG = int(os.environ.get("FLOOR_HEALTH_MAX_LAG", "500"))
# Who applies new events to the read models (issue 23, item 1). "projector":
# the projector process (manage.py run_projector, a child of runfloor, the
# floor-projector unit), and a command's request only waits, bounded by
# FLOOR_READ_YOUR_WRITES_SECONDS, until that process's position passes the
# command's own (floor.read_models). "inline": the request applies them itself,
# as before issue 23: the seam for the test suite (tests/conftest.py, no
# projector process under Django's test client), the POPO store, and one-shot
# loaders such as load_demo_floor. Any other value is a configuration error.
FLOOR_READ_MODELS = os.environ.get(
    "FLOOR_READ_MODELS", "inline" if EVENT_STORE_BACKEND == "popo" else "projector"
)
if FLOOR_READ_MODELS not in ("projector", "inline"):
    raise ImproperlyConfigured(
        f"FLOOR_READ_MODELS={FLOOR_READ_MODELS!r}: 'projector' (default) or 'inline'"
    )
# How long a command's request waits for the read models to show it; past it the
# command answers 202 read_models_lagging (recorded, not yet shown).
FLOOR_READ_YOUR_WRITES_SECONDS = float(os.environ.get("FLOOR_READ_YOUR_WRITES_SECONDS", "5"))
# Restarts of one background process within the last hour from which /healthz
# says it keeps crashing.
FLOOR_HEALTH_MAX_RESTARTS = int(os.environ.get("FLOOR_HEALTH_MAX_RESTARTS", "3"))
# The consoles ask for their live part this often: a change shows within one
# second at worst (the poll's period plus one render; bench/live.py measures
# it); a console whose scopes did not change answers 204 (one small query).
FLOOR_CONSOLE_POLL_MS = int(os.environ.get("FLOOR_CONSOLE_POLL_MS", "750"))
# An amount typed into a console above the usual for its form is asked to be
# confirmed before it is sent (floor.console.commands; docs/console.md). These
# are the house's figures for "far above the usual", in whole euros, one
# setting each: a deployment knob that guards against typing errors, not a rule
# of play (the API, which programs use, books any amount the rules allow, and
# no event depends on it), hence a setting rather than a RuleProfile field.
FLOOR_CONFIRM_ABOVE_CENTS = {
    command: int(os.environ.get(variable, default)) * 100
    for command, variable, default in (
        # A fill or credit of a table's tray (the brief's 10,000 EUR).
        ("request_tray_move", "FLOOR_CONFIRM_TRAY_MOVE_ABOVE_EUR", "10000"),
        # A buy-in at a table or paid at the cage: CM-2's largest first buy-in.
        ("buy_in", "FLOOR_CONFIRM_BUY_IN_ABOVE_EUR", "1000"),
        ("buy_in_at_cage", "FLOOR_CONFIRM_BUY_IN_ABOVE_EUR", "1000"),
        # Chips sold or cashed out at the cage.
        ("sell_chips", "FLOOR_CONFIRM_CAGE_ABOVE_EUR", "5000"),
        ("cash_out", "FLOOR_CONFIRM_CAGE_ABOVE_EUR", "5000"),
    )
}

# The audit trail (docs/reporting.md, "Audit: verify_log"): the journal is chained
# with an HMAC whose key lives outside the database, in FLOOR_AUDIT_KEY or else in
# a key file made once (mode 0600; a rotation appends to it); FLOOR_AUDIT_KEYS
# holds retired keys verify_log still needs. The chain's head is appended to the
# anchor file every FLOOR_AUDIT_ANCHOR_SECONDS and at each gaming day's close.
FLOOR_AUDIT_KEY = os.environ.get("FLOOR_AUDIT_KEY", "")
FLOOR_AUDIT_KEYS = os.environ.get("FLOOR_AUDIT_KEYS", "")
FLOOR_AUDIT_KEY_FILE = os.environ.get("FLOOR_AUDIT_KEY_FILE", str(VAR_DIR / "audit_keys"))
FLOOR_AUDIT_ANCHOR_FILE = os.environ.get(
    "FLOOR_AUDIT_ANCHOR_FILE", str(VAR_DIR / "audit_anchors.jsonl")
)
FLOOR_AUDIT_ANCHOR_SECONDS = float(os.environ.get("FLOOR_AUDIT_ANCHOR_SECONDS", "300"))
# --- Notifications to players (issue 24, item 3; docs/operations.md,
# "Notifications"): a player who asked for it is told by e-mail or SMS when
# called, or when their remote entry expired. FLOOR_NOTIFY_CHANNELS names the
# channels this deployment sends through ("email", "sms", "email,sms"); the
# embedded default names none and sends nothing (each message is recorded as
# not sent). E-mail goes through Django's e-mail backend and its EMAIL_*
# settings; SMS through a provider's HTTP API (floor.notifications.sms): a JSON
# POST to FLOOR_SMS_URL with FLOOR_SMS_API_KEY as a bearer token.
FLOOR_NOTIFY_CHANNELS = tuple(
    sorted(
        {c.strip().lower() for c in os.environ.get("FLOOR_NOTIFY_CHANNELS", "").split(",")} - {""}
    )
)
if set(FLOOR_NOTIFY_CHANNELS) - {"email", "sms"}:
    raise ImproperlyConfigured(
        f"FLOOR_NOTIFY_CHANNELS={','.join(FLOOR_NOTIFY_CHANNELS)!r}: 'email', 'sms' or both"
    )
# A message that fails is tried again after FLOOR_NOTIFY_RETRY_SECONDS, then
# twice that, and so on (at most FLOOR_NOTIFY_RETRY_MAX_SECONDS apart), until
# FLOOR_NOTIFY_MAX_ATTEMPTS attempts: then it is marked failed. Beat's outbox
# sweep, every FLOOR_NOTIFY_SWEEP_SECONDS, sends what a lost task left behind.
FLOOR_NOTIFY_MAX_ATTEMPTS = int(os.environ.get("FLOOR_NOTIFY_MAX_ATTEMPTS", "5"))
FLOOR_NOTIFY_RETRY_SECONDS = float(os.environ.get("FLOOR_NOTIFY_RETRY_SECONDS", "30"))
FLOOR_NOTIFY_RETRY_MAX_SECONDS = float(os.environ.get("FLOOR_NOTIFY_RETRY_MAX_SECONDS", "900"))
FLOOR_NOTIFY_SWEEP_SECONDS = float(os.environ.get("FLOOR_NOTIFY_SWEEP_SECONDS", "30"))
# Django's e-mail settings, from the environment (an SMTP relay by default).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = flag("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = flag("EMAIL_USE_SSL", False)
# Bounded: a relay that does not answer must not hold a worker (Django's default waits forever).
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "floor@localhost")
# The SMS provider's adapter (floor.notifications.sms.JsonHttpSms, or another
# with the same shape), its base URL, key, sender name and time limit.
FLOOR_SMS_BACKEND = os.environ.get("FLOOR_SMS_BACKEND", "floor.notifications.sms.JsonHttpSms")
FLOOR_SMS_URL = os.environ.get("FLOOR_SMS_URL", "")
FLOOR_SMS_API_KEY = os.environ.get("FLOOR_SMS_API_KEY", "")
FLOOR_SMS_SENDER = os.environ.get("FLOOR_SMS_SENDER", "Floor")
FLOOR_SMS_TIMEOUT = float(os.environ.get("FLOOR_SMS_TIMEOUT", "10"))
if "sms" in FLOOR_NOTIFY_CHANNELS and not FLOOR_SMS_URL:
    raise ImproperlyConfigured("FLOOR_NOTIFY_CHANNELS names sms: set FLOOR_SMS_URL")
# How often beat runs the retention purge of personal data (seconds; a day).
FLOOR_PURGE_SECONDS = float(os.environ.get("FLOOR_PURGE_SECONDS", "86400"))
CELERY_BEAT_SCHEDULE = {
    "sweep": {
        "task": "floor.tasks.sweep",
        "schedule": FLOOR_SWEEP_SECONDS,
        # A sweep not started in time is dropped: the next one does its work.
        "options": {"expires": max(1.0, FLOOR_SWEEP_SECONDS * 2)},
    },
    "audit-anchor": {
        "task": "floor.tasks.anchor_audit_log",
        "schedule": FLOOR_AUDIT_ANCHOR_SECONDS,
        "options": {"expires": max(1.0, FLOOR_AUDIT_ANCHOR_SECONDS)},
    },
    "token-sweep": {
        "task": "floor.tasks.sweep_tokens",
        "schedule": FLOOR_TOKEN_SWEEP_SECONDS,
        "options": {"expires": max(1.0, FLOOR_TOKEN_SWEEP_SECONDS)},
    },
    "notification-sweep": {
        "task": "floor.tasks.sweep_notifications",
        "schedule": FLOOR_NOTIFY_SWEEP_SECONDS,
        "options": {"expires": max(1.0, FLOOR_NOTIFY_SWEEP_SECONDS)},
    },
    # The retention purge (issue 25, item 4; docs/compliance.md, "How long
    # data is kept"): a day between runs; a run missed is caught by the next.
    "personal-data-purge": {
        "task": "floor.tasks.purge_personal_data",
        "schedule": FLOOR_PURGE_SECONDS,
        "options": {"expires": max(1.0, FLOOR_PURGE_SECONDS)},
    },
}

# --- Logs (docs/operations.md, "Logs"): every line logged while a command runs
# names its command, command id, actor, role and profile (floor.logs).
# FLOOR_LOG_FORMAT=json writes one JSON object a line (python-json-logger), for a
# log collector; text (the default, what `make run` prints) the same fields in brackets.
FLOOR_LOG_FORMAT = os.environ.get("FLOOR_LOG_FORMAT", "text").strip().lower()
if FLOOR_LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"FLOOR_LOG_FORMAT={FLOOR_LOG_FORMAT!r}: json or text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"command": {"()": "floor.logs.CommandFilter"}},
    "formatters": {
        "json": {"()": "floor.logs.JsonLineFormatter"},
        "text": {"()": "floor.logs.TextFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["command"],
            "formatter": FLOOR_LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("FLOOR_LOG_LEVEL", "INFO")},
}

# --- Metrics (docs/operations.md, "Metrics"): GET /metrics in Prometheus's text
# format, for staff (an API token or session of a user with a floor role) or a
# scraper holding FLOOR_METRICS_TOKEN (sent as "Authorization: Bearer <token>";
# empty: no scraper token). The processes of one machine (gunicorn's workers,
# Celery's) count in files under PROMETHEUS_MULTIPROC_DIR (prometheus_client's
# multiprocess mode), set here before anything imports prometheus_client.
FLOOR_METRICS_TOKEN = os.environ.get("FLOOR_METRICS_TOKEN", "")
FLOOR_METRICS_DIR = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR", VAR_DIR / "metrics")).resolve()
FLOOR_METRICS_DIR.mkdir(parents=True, exist_ok=True)
os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(FLOOR_METRICS_DIR)
# Every line logged while a web request is served names its request id
# (X-Request-ID, from the proxy or made here; floor.logs): first, so all do.
MIDDLEWARE.insert(0, "floor.logs.RequestIdMiddleware")
# A timer not fired this many seconds after it was due counts as late
# (floor_timers_late): the bound for a timer after a worker restart.
FLOOR_TIMER_LATE_SECONDS = float(os.environ.get("FLOOR_TIMER_LATE_SECONDS", "5"))

# --- Exclusion lists (issue 25, item 2; docs/compliance.md, "Exclusion lists"):
# how the importer reads a list's CSV, as key=value pairs separated by ";":
# document, name (columns joined with "+", e.g. nombre+apellido1+apellido2),
# birth_date (the column) and date_format (strptime's, e.g. %d/%m/%Y), and
# delimiter (one character, or "tab"). A column left out is not read.
# manage.py import_exclusion_list --mapping overrides it for one file.
FLOOR_EXCLUSION_MAPPING = os.environ.get(
    "FLOOR_EXCLUSION_MAPPING",
    "document=document_number;name=full_name;birth_date=birth_date;date_format=%Y-%m-%d;delimiter=,",
)
