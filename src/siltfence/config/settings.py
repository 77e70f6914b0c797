"""The one module that reads the environment.

Local use needs nothing set: SQLite in ./var, a development secret, debug on. With
SILTFENCE_ENV=production it refuses to start unless SECRET_KEY, ALLOWED_HOSTS,
SILTFENCE_SECOND_FACTOR_KEY, SILTFENCE_AUDIT_KEY and a mail server are set, and turns on the
secure cookie and HTTPS settings that `check --deploy` asks for.

- DATABASE_URL: postgres://user@host:5432/name for PostgreSQL (default: SQLite file)
- SECRET_KEY, ALLOWED_HOSTS (comma-separated), SILTFENCE_ENV (local | production)
- SILTFENCE_DATA_DIR: where the SQLite file and uploads live (default ./var)
- SILTFENCE_SESSION_CACHE_DIR: the cache of sessions every worker shares (default
  $SILTFENCE_DATA_DIR/sessions; with several app servers, on storage they all mount)
- SILTFENCE_LOCAL_HTTP=true (production only): serve over plain http on this computer, as
  `make run` does; refused unless ALLOWED_HOSTS names only 127.0.0.1, localhost or [::1]
- SILTFENCE_AUDIT_KEY, SILTFENCE_AUDIT_CHECKPOINTS, SILTFENCE_AUDIT_CLERK_EMAIL: the key that
  signs the audit checkpoints (never in the database), their file, and who gets them by email
- SILTFENCE_SECOND_FACTOR_KEY, SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS: the key that encrypts the
  authenticator apps' keys in the database (never in the database; required in production),
  and the earlier keys still accepted while the key is being changed (comma-separated)
- SILTFENCE_TRUSTED_PROXIES: how many reverse proxies stand in front (login throttling)
- SILTFENCE_HEALTH_MIN_FREE_MB: /health fails below this much free space for uploads
- SILTFENCE_HEALTH_WORKER_LAG_MINUTES: /health says the worker is behind when a task ready
  to run has waited longer than this
- SILTFENCE_BENCH=1: the web benchmark's baseline page /bench/trivial (bench/web.py), on this
  computer only
- SILTFENCE_TILE_URL, SILTFENCE_TILE_ATTRIBUTION: a map tile URL template for the plan map
  (default empty: a plain vector view with no tiles, which needs no internet)
- SILTFENCE_DEFAULT_JURISDICTION: the village the home page opens on, an ordinance folder's
  id (default: the first folder; `make run` opens on spencer-wi)
- EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS,
  DEFAULT_FROM_EMAIL: the SMTP server for password resets, reminders and audit checkpoints;
  required in production unless SILTFENCE_EMAIL=console
- SILTFENCE_EMAIL (smtp | console): console prints emails instead of sending them; the
  default locally without EMAIL_HOST, said on purpose in production (`make run`) and then
  logged as a warning at every start

SILTFENCE_ENV must be one of its two names; in production a missing SILTFENCE_AUDIT_KEY or
mail server stops start-up too, with one line naming the variable.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

# SILTFENCE_ENV names one of two set-ups, exactly. Any other value (a capital, "prod", an
# empty value set on purpose) is a slip for one of them; taking it for local would serve
# with debug on and the published development key, so it is refused.
ENVIRONMENTS = ("local", "production")
ENV = os.environ.get("SILTFENCE_ENV", "local")
if ENV not in ENVIRONMENTS:
    raise ImproperlyConfigured(
        f"SILTFENCE_ENV must be {' or '.join(ENVIRONMENTS)} (in lower case, nothing around it), "
        f"not {ENV[:40]!r}; leave it unset for local; refusing to start"
    )
PRODUCTION = ENV == "production"
DATA_DIR = Path(os.environ.get("SILTFENCE_DATA_DIR", Path.cwd() / "var"))

# Every file this program creates (the SQLite database, uploads, backups, checkpoints,
# keys) is its owner's alone: not readable by other users of the machine. The static files
# are served by the app itself (WhiteNoise), so nothing else needs to read them either.
os.umask(0o077)
BASE_DIR = Path(__file__).resolve().parent.parent

if PRODUCTION:
    for required in ("SECRET_KEY", "ALLOWED_HOSTS"):
        if not os.environ.get(required):
            raise ImproperlyConfigured(
                f"{required} must be set when SILTFENCE_ENV=production; refusing to start"
            )
    SECRET_KEY = os.environ["SECRET_KEY"]
    ALLOWED_HOSTS = [h.strip() for h in os.environ["ALLOWED_HOSTS"].split(",") if h.strip()]
    DEBUG = False
    # `make run`: the production set-up over plain http, reachable from this computer only,
    # so cookies cannot be marked https-only and nothing may redirect to https.
    LOCAL_HTTP = os.environ.get("SILTFENCE_LOCAL_HTTP", "false") == "true"
    if LOCAL_HTTP and set(ALLOWED_HOSTS) - {"127.0.0.1", "localhost", "[::1]"}:
        raise ImproperlyConfigured(
            "SILTFENCE_LOCAL_HTTP=true serves plain http for this computer only: ALLOWED_HOSTS "
            "may name only 127.0.0.1, localhost and [::1]; refusing to start"
        )
    SECURE_SSL_REDIRECT = not LOCAL_HTTP and os.environ.get("SECURE_SSL_REDIRECT", "true") == "true"
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 0 if LOCAL_HTTP else 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = not LOCAL_HTTP
    SECURE_HSTS_PRELOAD = not LOCAL_HTTP
    SESSION_COOKIE_SECURE = not LOCAL_HTTP
    CSRF_COOKIE_SECURE = not LOCAL_HTTP
else:
    SECRET_KEY = os.environ.get(
        "SECRET_KEY", "local-development-only-key-not-for-production-use-0123456789abcdef"
    )
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
    DEBUG = os.environ.get("DEBUG", "true") == "true"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",
    "rules",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "siltfence.apps.accounts",
    "siltfence.apps.people",
    "siltfence.apps.audit",
    "siltfence.apps.permits",
    "siltfence.apps.documents",
    "siltfence.apps.plans",
    "siltfence.apps.enforcement",
    "siltfence.apps.appeals",
    "siltfence.apps.web",
    "siltfence.apps.rain",
    "django_tasks_db",
    "siltfence.apps.duties",
    "siltfence.apps.reminders",
    "siltfence.apps.sitelog",
    "siltfence.apps.inspections",
    "siltfence.apps.outbox",
    "siltfence.apps.notices",
    "siltfence.apps.yearreport",
    "siltfence.apps.payments",
]

# Background work (the daily rain sweep, duties, reminders): Django's tasks framework on
# the database-backed worker of django-tasks-db (`manage.py db_worker`).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# The address links in emails point to (reminders); `make run` sets it.
SILTFENCE_URL = os.environ.get("SILTFENCE_URL", "")

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # login throttling first
    # then the wait of an account many addresses guessed at (accounts.guessing)
    "siltfence.apps.accounts.guessing.AccountGuessingBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:permit-check"
# Two-step sign-in (decision 20): the name authenticator apps list the account under, and
# the django-otp admin pages never show a key.
OTP_TOTP_ISSUER = "siltfence"
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
# django-axes: five failed logins for one username from one address lock it for an hour.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = os.environ.get("AXES_ENABLED", "true") == "true"
# A wrong code at the second sign-in step counts as a failed login too (decision 20); what
# was typed into the code field is never kept in axes's records.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "code"]
# Behind a reverse proxy every request comes from the proxy's address: the client's address
# is then the one the nearest trusted proxy put in X-Forwarded-For. SILTFENCE_TRUSTED_PROXIES
# is how many proxies stand in front (0, the default: use the connection's own address and
# ignore the header, which a client can write).
SILTFENCE_TRUSTED_PROXIES = int(os.environ.get("SILTFENCE_TRUSTED_PROXIES", "0"))
AXES_CLIENT_IP_CALLABLE = "siltfence.apps.accounts.client_ip.client_ip"
# And per account, from every address together (accounts.guessing): from the 10th wrong
# password or code within an hour on, each try for that username waits 2, 4, 8 ... seconds
# after the last failure, at most five minutes.
SILTFENCE_ACCOUNT_GUESS_LIMIT = 10
SILTFENCE_ACCOUNT_GUESS_WINDOW_SECONDS = 60 * 60
SILTFENCE_ACCOUNT_GUESS_MAX_WAIT_SECONDS = 5 * 60
# The key that encrypts the authenticator apps' keys in the database (decision 33): like the
# audit key, only ever from the environment. At least 32 characters; `make run` keeps it in
# var/second-factor-key. While it is being changed, the earlier keys are listed (comma-
# separated) in the fallbacks until `manage.py second_factor_rekey` has run.
_LOCAL_SECOND_FACTOR_KEY = "local-development-only-second-factor-key-not-for-production"
SILTFENCE_SECOND_FACTOR_KEY = os.environ.get("SILTFENCE_SECOND_FACTOR_KEY", "").strip() or (
    "" if PRODUCTION else _LOCAL_SECOND_FACTOR_KEY
)
SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS = [
    k.strip()
    for k in os.environ.get("SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS", "").split(",")
    if k.strip()
]
if PRODUCTION and not SILTFENCE_SECOND_FACTOR_KEY:
    raise ImproperlyConfigured(
        "SILTFENCE_SECOND_FACTOR_KEY must be set when SILTFENCE_ENV=production (it encrypts the "
        "authenticator apps' keys; `make run` keeps it in var/second-factor-key); refusing to start"
    )
for _name, _key in [
    ("SILTFENCE_SECOND_FACTOR_KEY", SILTFENCE_SECOND_FACTOR_KEY),
    *(("SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS", k) for k in SILTFENCE_SECOND_FACTOR_KEY_FALLBACKS),
]:
    if len(_key) < 32:
        raise ImproperlyConfigured(
            f"{_name} is too short: use at least 32 characters "
            "(python3 -c 'import secrets; print(secrets.token_urlsafe(48))'); refusing to start"
        )

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's AuthenticationMiddleware, the person's row kept in the shared cache (decision 45)
    "siltfence.apps.accounts.middleware.SignedInMiddleware",
    # request.user.is_verified(): the code step passed (django-otp's OTPMiddleware, its
    # device checked once, not on every request: decision 45)
    "siltfence.apps.accounts.middleware.VerifiedDeviceMiddleware",
    "siltfence.apps.web.middleware.RequestSizeLimitMiddleware",  # 413 before a body is read
    "django.contrib.messages.middleware.MessageMiddleware",
    # Village staff, inspectors and appeals board members reach nothing but the sign-in steps
    # until the session has passed the code step, however the session was made.
    "siltfence.apps.accounts.middleware.SecondFactorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "siltfence.config.urls"
WSGI_APPLICATION = "siltfence.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    }
]

_sqlite_path = DATA_DIR / "siltfence.sqlite3"
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{_sqlite_path}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    # WAL lets readers go on while a write commits; IMMEDIATE takes the write lock when a
    # transaction starts, so two conflicting transitions cannot both proceed.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"
USE_I18N = False
USE_TZ = True

MEDIA_ROOT = DATA_DIR / "media"
MEDIA_URL = "/media-not-served/"  # uploads are served only through checked views
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700
DATA_UPLOAD_MAX_MEMORY_SIZE = 25 * 1024 * 1024
SILTFENCE_UPLOAD_MAX_BYTES = int(os.environ.get("SILTFENCE_UPLOAD_MAX_BYTES", 20 * 1024 * 1024))
# A larger request body is refused with 413 before it is read: an upload at the limit with
# room for the form around it.
SILTFENCE_REQUEST_MAX_BYTES = max(DATA_UPLOAD_MAX_MEMORY_SIZE, SILTFENCE_UPLOAD_MAX_BYTES + 1024**2)
SILTFENCE_TILE_URL = os.environ.get("SILTFENCE_TILE_URL", "")
# The village the home page opens on; empty: the first of the ordinance folders.
SILTFENCE_DEFAULT_JURISDICTION = os.environ.get("SILTFENCE_DEFAULT_JURISDICTION", "")
SILTFENCE_TILE_ATTRIBUTION = os.environ.get("SILTFENCE_TILE_ATTRIBUTION", "")
SESSION_COOKIE_AGE = 60 * 60 * 8
# Sessions (decision 45): kept in the database and in a cache every worker shares, so that a
# signed-in request reads neither its session nor its second factor's device from the
# database (accounts.sessions, accounts.signed_in). The cache is files in the data folder
# (SILTFENCE_SESSION_CACHE_DIR; with several app servers, on storage they all mount, like
# the uploads). Signing out, or a device revoked, is seen by the next request on any worker.
# The default cache stays each process's own memory (the register's kept pages).
SESSION_ENGINE = "siltfence.apps.accounts.sessions"
SESSION_CACHE_ALIAS = "sessions"
SESSION_SAVE_EVERY_REQUEST = False  # a page that changes nothing in the session writes nothing
SESSION_CACHE_DIR = Path(
    os.environ.get("SILTFENCE_SESSION_CACHE_DIR", "").strip() or DATA_DIR / "sessions"
)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    SESSION_CACHE_ALIAS: {
        # Django's file cache, in JSON: reading an entry runs no code (decision 37)
        "BACKEND": "siltfence.apps.accounts.cache.JSONFileCache",
        "LOCATION": str(SESSION_CACHE_DIR),
        "TIMEOUT": SESSION_COOKIE_AGE,
        # Past this many entries, a quarter are dropped at random: a dropped session is
        # read from the database again, a dropped answer is asked again.
        "OPTIONS": {"MAX_ENTRIES": 20_000, "CULL_FREQUENCY": 4},
    },
}

# The audit record's anchor (docs/deploy.md): checkpoints of the chain head, signed with a key
# that is not in the database, appended to a file and emailed to the clerk.
# In production it is required: without it a rewritten audit history goes unnoticed.
SILTFENCE_AUDIT_KEY = os.environ.get("SILTFENCE_AUDIT_KEY", "")
if PRODUCTION and not SILTFENCE_AUDIT_KEY.strip():
    raise ImproperlyConfigured(
        "SILTFENCE_AUDIT_KEY must be set when SILTFENCE_ENV=production (it signs the audit "
        "checkpoints and is never in the database; make one with python3 -c 'import secrets; "
        "print(secrets.token_urlsafe(48))'; `make run` keeps it in var/audit-key); "
        "refusing to start"
    )
if PRODUCTION and len(SILTFENCE_AUDIT_KEY) < 32:  # audit.anchor.KEY_MIN_LENGTH
    raise ImproperlyConfigured(
        "SILTFENCE_AUDIT_KEY is too short: use at least 32 characters "
        "(python3 -c 'import secrets; print(secrets.token_urlsafe(48))'); refusing to start"
    )
SILTFENCE_AUDIT_CHECKPOINTS = Path(
    os.environ.get("SILTFENCE_AUDIT_CHECKPOINTS", DATA_DIR / "audit-checkpoints.jsonl")
)
SILTFENCE_AUDIT_CLERK_EMAIL = [
    a.strip() for a in os.environ.get("SILTFENCE_AUDIT_CLERK_EMAIL", "").split(",") if a.strip()
]
# /health answers 503 when the uploads' disk has less free space than this (in MB).
SILTFENCE_HEALTH_MIN_FREE_MB = int(os.environ.get("SILTFENCE_HEALTH_MIN_FREE_MB", "500"))
SILTFENCE_HEALTH_WORKER_LAG_MINUTES = int(
    os.environ.get("SILTFENCE_HEALTH_WORKER_LAG_MINUTES", "10")
)
# SILTFENCE_BENCH=1 routes /bench/trivial, the web benchmark's baseline page (bench/web.py).
# A production server serves it only over plain http on this computer (SILTFENCE_LOCAL_HTTP).
SILTFENCE_BENCH = os.environ.get("SILTFENCE_BENCH", "") == "1"
if SILTFENCE_BENCH and PRODUCTION and not LOCAL_HTTP:
    raise ImproperlyConfigured(
        "SILTFENCE_BENCH=1 is for benchmarks on this computer (SILTFENCE_LOCAL_HTTP=true); "
        "refusing to start"
    )

# Email (password resets, reminders, audit checkpoints). SILTFENCE_EMAIL says how they go:
# "smtp", through the server EMAIL_HOST (with EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, DEFAULT_FROM_EMAIL), or "console", printed on standard
# output and never sent. Unset, it is smtp when EMAIL_HOST is set; otherwise console locally,
# and in production a refusal to start: a server that prints its emails must say so on
# purpose (SILTFENCE_EMAIL=console, as `make run`'s demo does), and it is then logged as a
# warning at every start (apps.outbox).
EMAIL_CHOICES = ("smtp", "console")
_email_host = os.environ.get("EMAIL_HOST", "").strip()
SILTFENCE_EMAIL = os.environ.get("SILTFENCE_EMAIL")
if SILTFENCE_EMAIL is None:
    SILTFENCE_EMAIL = "smtp" if _email_host or PRODUCTION else "console"
if SILTFENCE_EMAIL not in EMAIL_CHOICES:
    raise ImproperlyConfigured(
        f"SILTFENCE_EMAIL must be {' or '.join(EMAIL_CHOICES)}, not {SILTFENCE_EMAIL[:40]!r}; "
        "refusing to start"
    )
if SILTFENCE_EMAIL == "smtp" and not _email_host:
    raise ImproperlyConfigured(
        "EMAIL_HOST must be set when SILTFENCE_ENV=production (the mail server for password "
        "resets, reminders and audit checkpoints); to print emails on the console instead, "
        "on purpose, set SILTFENCE_EMAIL=console; refusing to start"
        if PRODUCTION
        else "EMAIL_HOST must be set when SILTFENCE_EMAIL=smtp; refusing to start"
    )
if SILTFENCE_EMAIL == "console" and _email_host:
    raise ImproperlyConfigured(
        "SILTFENCE_EMAIL=console prints emails, but EMAIL_HOST is set too and would never be "
        "used; unset one of them; refusing to start"
    )
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": _email_host,
            "port": int(os.environ.get("EMAIL_PORT", "587")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": os.environ.get("EMAIL_USE_TLS", "true") == "true",
            # A mail server that does not answer fails the send after 20 s, rather than
            # holding the request (and, with sync workers, its whole process) until
            # gunicorn's timeout.
            "timeout": 20,
        },
    }
    if SILTFENCE_EMAIL == "smtp"
    else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "siltfence <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for one day
SESSION_EXPIRE_AT_BROWSER_CLOSE = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
STORAGES = {
    # Uploads and generated documents: a file written in a transaction is moved into
    # MEDIA_ROOT when the transaction commits (decision 22).
    "default": {"BACKEND": "siltfence.apps.documents.storage.StagedFileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise looks here even when local

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "siltfence.apps.web.error_views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
# A load balancer asks each app server for /health directly, over plain http.
SECURE_REDIRECT_EXEMPT = [r"^health$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CSP: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
