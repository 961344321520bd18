"""Settings for the 101 site: one module, every deployment difference read from the environment."""

import os
import re
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: str) -> bool:
    value = os.environ.get(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_int(name: str, default: str) -> int:
    value = os.environ.get(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_rates(name: str, rates: dict[str, str]) -> dict[str, str]:
    """`rates` with those the variable names changed: NAME=COUNT/PERIOD, comma-separated."""
    rates = dict(rates)
    for item in env_list(name, ""):
        group, _sep, rate = (part.strip() for part in item.partition("="))
        if group not in rates or not re.fullmatch(r"[1-9]\d*/\d*[smhd]", rate):
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not NAME=COUNT/PERIOD (e.g. round=600/h; names: "
                f"{', '.join(rates)}; periods: s, m, h, d, or e.g. 10m)"
            )
        rates[group] = rate
    return rates


# Each variable is the setting's name after DJANGO_ (allauth's keep their ALLAUTH_ prefix;
# DATABASE_URL and REDIS_URL are named as hosting platforms name them). The names read before
# are refused rather than ignored, so that an old deployment fails loudly instead of running
# on defaults.
_RENAMED = [
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "CONN_MAX_AGE",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "DEFAULT_FROM_EMAIL",
    "TIME_ZONE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_PRELOAD",
    "LOG_LEVEL",
]
for _old in _RENAMED:
    if _old in os.environ and f"DJANGO_{_old}" not in os.environ:
        raise ImproperlyConfigured(f"{_old} is not read: set DJANGO_{_old} instead")

# Off unless explicitly turned on (`make run` does), so a deployment that forgets is safe.
DEBUG = env_bool("DJANGO_DEBUG", "false")

# Django's own mark of a key not for production: check --deploy flags it too (W009).
_INSECURE_KEY_PREFIX = "django-insecure-"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if DEBUG and not SECRET_KEY:
    SECRET_KEY = _INSECURE_KEY_PREFIX + "development-key-of-the-101-site-never-for-production"
if not DEBUG and not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
        "(for development, set DJANGO_DEBUG=1)"
    )
if not DEBUG and SECRET_KEY.startswith(_INSECURE_KEY_PREFIX):
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY starts with {_INSECURE_KEY_PREFIX!r}, a development key, and "
        "DJANGO_DEBUG is off: generate a secret one, e.g. with "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_ratelimit",
    "allauth",
    "allauth.account",
    # "Sign in with Telegram" (the Login Widget), leading to the account the Mini App signs in
    # (config/accounts.py); its app is the site's bot, when there is one (no button otherwise).
    "allauth.socialaccount",
    "config.apps.TelegramLoginConfig",
    # Before django_tasks_db: its `db_worker` command is config's (outliving outages).
    "config",
    "django_tasks_db",
    "core",
    "games",
    "claims",
    "play",
    "tournaments",
    "stats",
    "clubs",
    "telegram",
    "notify",
    "coach",
    "chats",
]

MIDDLEWARE = [
    # Each request's database connection back to the pool, even when its client went away.
    "config.middleware.ConnectionsBackMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "config.middleware.StorableInputMiddleware",
    # Django's, answering 503 when the database cannot take the session.
    "config.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # `?large=1` on any page: large print for this browser (kept in its session).
    "games.large_print.LargePrintMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.visibility.AudienceMiddleware",
    # Times in the reader's zone: the account's, else the browser's (notify.time_zones).
    "notify.time_zones.ReaderTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # No X-Frame-Options: it cannot name Telegram Web, which frames the Mini App; the CSP's
    # frame-ancestors says who may frame the site (every browser that matters obeys it, and
    # ignores X-Frame-Options beside it).
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Keeps the language a signed-in person uses: their notifications are written in it.
    # Answers a view over its rate limit (core/limits.py) with RATELIMIT_VIEW.
    "django_ratelimit.middleware.RatelimitMiddleware",
    # Answers a view that cannot reach the database with 503, not 500.
    "config.middleware.DatabaseUnreachableMiddleware",
    # A button's address opened as a page: a page saying so, not a blank 405.
    "config.middleware.ButtonAddressMiddleware",
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
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.audience.context",
                "claims.notices.context",
                "games.large_print.context",
            ],
        },
    },
]

# SQLite by default so the site runs with no set-up; PostgreSQL through DATABASE_URL.
# The site is served over ASGI, where each request's database work runs in a thread of its own:
# a persistent connection (CONN_MAX_AGE) would stay with that thread, never reused, and an
# event stream's thread lives as long as the stream. So connections are not kept by requests:
# with PostgreSQL they come from a pool per process (psycopg's), and go back to it.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DJANGO_CONN_MAX_AGE", "0"),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    from core.outages import check_pooled

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("DJANGO_DB_POOL_SIZE", "10"),
        # A connection the database ended while it waited in the pool (a restart, a cut) is
        # never handed out: each is checked first, and a dead one replaced; finding one, the
        # pool's other idle ones are checked at once (core/outages.py).
        "check": check_pooled,
        # A request waits this long for a connection at most, then answers 503 (the database
        # is away for a moment: config.middleware), not a page that hangs and then fails.
        "timeout": 3,
        # A connection that cannot be made is tried again after 1 s, 2 s... for this long, then
        # given up, and the next request asks afresh. By default the pool goes on for five
        # minutes at waits that double, so an outage of a minute could leave it waiting another
        # minute after the database is back.
        "reconnect_timeout": 5,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts, so two requests changing the
    # same match or tournament queue up instead of failing with "database is locked".
    # Write-ahead logging: readers (the pages, the live events' listener) never wait for a
    # writer (the worker playing for bots), nor a writer for them.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    # A file, not shared memory, so that tests of concurrent requests queue as in production;
    # one per test process, so that two test runs on one machine do not meet.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"sto-odno-test-{os.getpid()}.sqlite3")
    }
else:
    # One test database per test process here too, so two runs on one server do not meet.
    DATABASES["default"]["TEST"] = {"NAME": f"test_sto_odno_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Several app servers share rate limits only through a shared cache (Redis); the local-memory
# cache is for development, and check --deploy refuses it (config/checks.py).
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            # Django's RedisCache, for which Redis being away is a cache holding nothing, not
            # an error on every page (core/outages.py).
            "BACKEND": "core.outages.DegradingRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            # So that several sites (or test runs) can share one Redis.
            "KEY_PREFIX": os.environ.get("DJANGO_CACHE_KEY_PREFIX", ""),
            # Redis answers in a millisecond; one that does not answer within a second is
            # taken as away, rather than holding every page up.
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
    # Sessions are read from the shared cache and written to the database as well: a
    # signed-in request costs one query less, and no session is lost with the cache. (Not
    # with the local-memory cache: another worker would keep a logged-out session cached.)
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tables played on the site: seconds a bot waits before its move (so that people see each
# one), and the pause after a round before the next is dealt (any seated person may deal
# sooner). From the environment for the tests that run the production stack.
PLAY_BOT_DELAY = float(os.environ.get("PLAY_BOT_DELAY", "0.7"))
PLAY_ROUND_PAUSE = float(os.environ.get("PLAY_ROUND_PAUSE", "20"))
# Vacation days a person has a calendar year, during which their correspondence tables' clocks
# stand still (play/vacations.py).
PLAY_VACATION_DAYS = env_int("DJANGO_PLAY_VACATION_DAYS", "30")
# The coach's review of a played round, a task (coach/tasks.py): seconds of work a
# decision; None: cards101.analysis's default (0.1 s a decision, an equal share of 7 s in a
# long round). The tests' runs take less.
COACH_REVIEW_BUDGET = (
    float(os.environ["DJANGO_COACH_REVIEW_BUDGET"])
    if os.environ.get("DJANGO_COACH_REVIEW_BUDGET")
    else None
)

# Live pages (core/live.py): versions are published on Redis pub/sub when there is a Redis,
# so that every app server hears every change; else through the database (one machine).
LIVE_REDIS_URL = os.environ.get("REDIS_URL", "")
LIVE_CHANNEL_PREFIX = os.environ.get("DJANGO_CACHE_KEY_PREFIX", "")
# The event streams one app server process holds open (core/streams.py: no thread each, a
# socket each): at most so many from one client address (a club's Wi-Fi: everyone at the
# night, a few tabs each), from one session (a person's tabs), and in all (0: what the
# process's open files limit leaves). Past one, the page polls slowly until it is let in.
LIVE_STREAMS_PER_ADDRESS = env_int("DJANGO_LIVE_STREAMS_PER_ADDRESS", "100")
LIVE_STREAMS_PER_SESSION = env_int("DJANGO_LIVE_STREAMS_PER_SESSION", "30")
LIVE_STREAMS_PER_PROCESS = env_int("DJANGO_LIVE_STREAMS_PER_PROCESS", "0")

# django-ratelimit's own check of the cache knows django-redis's backend, not Django's, which
# counts just as atomically (Redis INCR): its warning is silenced for Django's. The local-memory
# cache is right for one development process; check --deploy refuses it (config.E001).
if CACHES["default"]["BACKEND"] == "core.outages.DegradingRedisCache":
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
# No X-Frame-Options, on purpose: Telegram Web frames the Mini App, and the CSP's
# frame-ancestors says who may frame the site (SECURE_CSP; docs/telegram.md).
SILENCED_SYSTEM_CHECKS.append("security.W002")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# django-allauth: log in with a username or an e-mail; e-mail optional but needed for resets.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_USERNAME_VALIDATORS = "core.validators.USERNAME_VALIDATORS"
# Usernames are kept as names are, and failed logins counted per address and account
# (config/accounts.py).
ACCOUNT_ADAPTER = "config.accounts.AccountAdapter"
# Telegram's Login Widget: its app is the site's bot (config.accounts.SocialAccountAdapter), a
# person signed in by it is the Telegram identity's account, made without a form.
SOCIALACCOUNT_ADAPTER = "config.accounts.SocialAccountAdapter"
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_PROVIDERS = {
    # Telegram's answer is accepted for a day after the person confirmed (allauth: 30 s).
    "telegram": {"AUTH_PARAMS": {"auth_date_validity": 86400}}
}
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

# Logins (docs/rate-limits.md). allauth counts failed logins per "key", which our adapter
# makes the client's address and the login together (config/accounts.py): a stranger guessing
# bob's password stops himself and not bob, and nobody's failures refuse another account's
# right password, however many people share the address (a club's Wi-Fi):
# - login: 300 attempts in 10 minutes from one address, right or wrong (allauth's default is 30
#   a minute): a club of a hundred, typos and all, logging in at the start of a night, but not a
#   flood of password checks (each costs the server a password hash);
# - login_failed: 5 failures in 5 minutes from one address on one account (allauth's default per
#   account, now per address too; allauth's other default, 10 a minute per address whatever the
#   account, is dropped: it refused a club's right passwords after ten typos): at most 60 an hour
#   from one address on one account;
# - login_failed_account: 1000 failures an hour on one account from all addresses together, a cap
#   on guessing from many addresses at once. A stranger at one address adds at most 60 an hour
#   to it, so locking bob out takes 17 addresses failing flat out for an hour. A successful
#   login never counts as a failure.
ACCOUNT_RATE_LIMITS = {
    "login": "300/10m/ip",
    "login_failed": "5/5m/key",
    "login_failed_account": "1000/h/key",
}

# Login rate limits count per client address. Behind proxies of ours every request comes from
# the proxy, so allauth must take the client's address from what the proxies add: the n-th
# address from the right of X-Forwarded-For, or a header one proxy sets (X-Real-IP). Set only
# from the environment, so that check --deploy can ask for an explicit choice (config/checks.py).
if "ALLAUTH_TRUSTED_PROXY_COUNT" in os.environ:
    ALLAUTH_TRUSTED_PROXY_COUNT = env_int("ALLAUTH_TRUSTED_PROXY_COUNT", "0")
    if ALLAUTH_TRUSTED_PROXY_COUNT < 0:
        raise ImproperlyConfigured("ALLAUTH_TRUSTED_PROXY_COUNT must be 0 or more")
if os.environ.get("ALLAUTH_TRUSTED_CLIENT_IP_HEADER"):
    ALLAUTH_TRUSTED_CLIENT_IP_HEADER = os.environ["ALLAUTH_TRUSTED_CLIENT_IP_HEADER"]

# Rate limits on every post that changes something (core/limits.py, django-ratelimit): posts per
# account (per client address, found as allauth finds it, for someone not signed in) in fixed
# windows, counted in the shared cache so that every app server counts together. Refused posts
# count too: a flood is as costly refused as accepted. Each rate is above what a person does at
# the pace of play and below a flood, a script posting as fast as the server answers
# (docs/rate-limits.md); DJANGO_RATE_LIMITS changes any of them, e.g.
# DJANGO_RATE_LIMITS="round=900/h".
RATE_LIMITS = env_rates(
    "DJANGO_RATE_LIMITS",
    {
        # Creating things: a real evening needs a fraction of these.
        "match": "30/h",  # score sheets started (new match, rematch)
        "table": "30/h",  # played tables opened (new table, rematch)
        "join": "60/h",  # seats taken at played tables
        "claim": "20/h",  # claims of guest profiles (asked, or linked to an account)
        # Rounds saved from the form or a phone's outbox: three tables kept at once, a round a
        # minute each, plus an outbox of 30 rounds sent at once.
        "round": "600/h",
        "tournament": "10/h",  # tournaments created
        "club": "10/h",  # clubs created
        # Playing: cards, draws and passes at played tables. A bot answers a move after 0.7 s,
        # so one person makes at most ~40 a minute at one table, flat out; 90 is one and a half
        # a second for a whole minute, and stops a script before its hundredth.
        "move": "90/m",
        # The next deal and the rest of a round fast-forwarded among bots: once each a round,
        # and a round takes longer than the ten seconds 30 a minute would leave it.
        "deal": "30/m",
        # Leaving a played table or a score sheet, or coming back to a table from a stand-in:
        # a person does each a few times an evening.
        "leave": "30/h",
        # Live previews of a round on the form: one each time typing pauses (350 ms) or a field
        # is left; a person typing flat out sends about one a second, 90 a minute is more than
        # anyone keeps up for a whole minute while also saving rounds.
        "preview": "90/m",
        # Rounds changed or deleted (each a correction row, the match scored again): a
        # correction a minute for an hour, ten times what a director's evening of 40 tables
        # needs.
        "correction": "60/h",
        "scorekeeper": "60/h",  # scorekeepers added or removed (a few per sheet)
        "rated": "30/h",  # a sheet counted in the ratings or not (rates its pool again)
        "delete": "30/h",  # score sheets deleted: as many as may be started (rates again)
        # Hiding one's name or showing it again: each moves the cached pages that show it.
        "privacy": "20/h",
        # Claims decided: a keeper whose hundred guests all claim their names on one night
        # decides them within the hour.
        "decide": "120/h",
        "withdraw": "40/h",  # claims withdrawn: twice as many as may be sent
        "register": "30/h",  # registering for tournaments or leaving them
        # A director's clicks on their tournament (players, check-ins, tables closed, swaps,
        # clocks, settings, co-directors): one a second for a whole minute is beyond anyone,
        # and a round's 40 tables closed at its end fit in one.
        "director": "60/m",
        # Rounds seated or seated again (each makes every table's match anew): a tournament
        # has a few rounds; also counted as a director's click.
        "seating": "30/h",
        # The language switched: a club of a hundred behind one address (per address for
        # someone not signed in) does not switch it together more than once a minute.
        "language": "60/m",
        # Large print switched on or off for one's account: a few times an evening.
        "display": "30/h",
        # A club's seasons created, edited, closed or reopened: a few a year.
        "season": "60/h",
        # Telegram linked or unlinked from the account page: a few times, ever.
        "telegram": "30/h",
        # Sign-ins from the Mini App (per address: a club's Wi-Fi): each opening of the Mini
        # App is one, a club of a hundred opening it at once fits in a minute.
        "telegram_app": "300/10m",
        # "Sign in with Telegram" on the site (two posts each: the button, Telegram's answer)
        # and the pages of accounts from other sites: as many.
        "telegram_login": "300/10m",
        # Updates Telegram posts to the webhook (per address: Telegram's servers): each is a
        # person writing to the bot (/start, /stop), a handful a minute even on a club night.
        "telegram_update": "600/m",
        # Browsers subscribed to web push or unsubscribed: a few a year per person; a
        # browser's own renewal of its subscription counts here too.
        "push": "30/h",
        # Vacations from correspondence tables taken, ended or cancelled: a few a year.
        "vacation": "20/h",
        # Notification settings saved and test messages sent: a person tries a few of each.
        "notify": "30/h",
        # One-click unsubscribes (no account: per address; a mail provider posts them for
        # many people from few addresses).
        "unsubscribe": "300/h",
        # Moves tried at practice positions (and best moves asked for): a person looks at a
        # position a few seconds before each; one every two seconds for a whole minute is
        # beyond anyone, and stops a script at its 31st.
        "practice": "30/m",
    },
)
RATELIMIT_VIEW = "config.views.rate_limited"
RATELIMIT_IP_META_KEY = "core.limits.client_address"

# E-mail goes to the console unless an SMTP server is configured (Django 6.1 MAILERS).
if os.environ.get("DJANGO_EMAIL_HOST"):
    MAILERS = {
        "default": {
            # Django's, which tells a message in doubt from one to try again (notify/smtp.py).
            "BACKEND": "notify.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["DJANGO_EMAIL_HOST"],
                "port": env_int("DJANGO_EMAIL_PORT", "587"),
                "username": os.environ.get("DJANGO_EMAIL_HOST_USER", ""),
                "password": os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("DJANGO_EMAIL_USE_TLS", "true"),
                # A server that stops answering must not hold the worker that sends (notify).
                "timeout": env_int("DJANGO_EMAIL_TIMEOUT", "20"),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# Web push (notify/channels/push.py): the site's VAPID key pair, base64url as
# `manage.py vapid_keys` prints it, and a mailto: (or https:) address the push services may
# write to about it. Without the keys the channel is off and its panel says so.
VAPID_PUBLIC_KEY = os.environ.get("DJANGO_VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("DJANGO_VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("DJANGO_VAPID_SUBJECT", "")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "Set both DJANGO_VAPID_PUBLIC_KEY and DJANGO_VAPID_PRIVATE_KEY, or neither"
    )
if VAPID_PUBLIC_KEY and not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("DJANGO_VAPID_SUBJECT must be a mailto: or https:// address")
# A subscription's endpoint is where the site posts: a push service, always over HTTPS (the
# tests' fake push service alone is plain HTTP on 127.0.0.1).
PUSH_ENDPOINT_SCHEMES = ["https"]
# ...and on a push service's host (a leading dot: that host's subdomains), so that a signed-in
# person cannot have the site post to an address of their choosing (another server of the
# network the site runs in). The browsers' services: Chrome's, Firefox's, Edge's, Safari's.
PUSH_SERVICE_HOSTS = env_list(
    "DJANGO_PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,.notify.windows.com,web.push.apple.com",
)
# ...on its scheme's own port (443), or one of these (the tests' fake push service's).
PUSH_ENDPOINT_PORTS: list[int] = []
# The site's address, for the links in messages sent off the site (notify).
# Background work as tasks of Django's framework, stored in the database (django-tasks-db): a
# task's row is written in the transaction of its cause and run by `manage.py db_worker`
# (`make run` starts it): notifications, the accounts' mail, the coach's reviews, reminders
# (core.tasks, docs/architecture.md). docs/deployment.md says how they run on Redis instead.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

SITE_URL = os.environ.get("DJANGO_SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "101 <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Telegram (the telegram app, docs/telegram.md): without a token and a username the bot is off.
# The API's address is a setting so that the tests talk to a fake Bot API on 127.0.0.1.
TELEGRAM_BOT_TOKEN = os.environ.get("DJANGO_TELEGRAM_BOT_TOKEN", "")
TELEGRAM_BOT_USERNAME = os.environ.get("DJANGO_TELEGRAM_BOT_USERNAME", "").lstrip("@")
TELEGRAM_API_URL = os.environ.get("DJANGO_TELEGRAM_API_URL", "https://api.telegram.org").rstrip("/")
# Seconds a call to the Bot API may take (connecting, then answering), so that a task never
# hangs on an unreachable Telegram.
TELEGRAM_TIMEOUT = env_int("DJANGO_TELEGRAM_TIMEOUT", "10")
# The Mini App's short name, as in its links t.me/<bot>/<app> (BotFather's /newapp); empty:
# the bot has no Mini App to link to (its page, /telegram/app/, still opens).
TELEGRAM_APP_NAME = os.environ.get("DJANGO_TELEGRAM_APP_NAME", "").strip("/")
# The webhook's path part and the secret Telegram sends back in a header; empty: no webhook
# (updates are polled with `manage.py telegram_poll`).
TELEGRAM_WEBHOOK_SECRET = os.environ.get("DJANGO_TELEGRAM_WEBHOOK_SECRET", "")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them in running text where Django's differ (config/formats/).
# A template writes a month in words with "j E" (genitive: "27 ноября"), never "M" or "N",
# which Russian capitalises ("27 Ноя").
FORMAT_MODULE_PATH = "config.formats"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Content Security Policy: scripts only from our own origin or with the per-request nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    # Telegram Web opens the Mini App (any page of the site) in a frame of its own; no other
    # site may frame it (docs/telegram.md).
    "frame-ancestors": ["https://web.telegram.org"],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# Permissions-Policy: the browser features a page (or anything a page embeds) may ask for. The
# site uses one of them: writing to the clipboard, for the button that copies a played table's
# invitation link, from the site's own pages alone (no frame). None of the others: no camera
# (QR codes are drawn on the server and scanned by the phone's own camera app), no reading the
# clipboard, no fullscreen API (the projector page is made full screen by the browser's own
# key), no wake lock, no sharing, no payment. Each is denied, so that an injected script or
# frame cannot ask for it either. Only features Chromium knows on every platform are named:
# an unknown one ("bluetooth", "web-share" on a desktop) is an error in every page's console,
# and Web Bluetooth and Web Share ask the person through the browser's own dialog anyway.
PERMISSIONS_POLICY = {"clipboard-write": ["self"]} | {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "browsing-topics",
        "camera",
        "clipboard-read",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "gamepad",
        "geolocation",
        "gyroscope",
        "hid",
        "identity-credentials-get",
        "idle-detection",
        "interest-cohort",
        "local-fonts",
        "magnetometer",
        "microphone",
        "midi",
        "otp-credentials",
        "payment",
        "picture-in-picture",
        "publickey-credentials-create",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "speaker-selection",
        "usb",
        "window-management",
        "xr-spatial-tracking",
    )
}

# The CSRF cookie is for the server alone: pages send the token from their forms, or from
# hx-headers on <body> (htmx, and static/js/outbox.js reads it there), never from the cookie.
CSRF_COOKIE_HTTPONLY = True

# Production hardening; each can be turned off when a proxy already does it.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", "true")
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", "true")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
