"""Deployment fails safe: DEBUG off unless turned on, no development key in production, and
`check --deploy` clean with the production environment of docs/deployment.md and failing
without it."""

import os
import runpy
import secrets
import shlex
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured

ROOT = Path(__file__).resolve().parents[1]
CHECK_DEPLOY = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]


def settings_from(environment: dict[str, str]) -> dict[str, object]:
    """config.settings as a process with exactly this environment would read them."""
    with mock.patch.dict(os.environ, environment, clear=True):
        return runpy.run_path(str(ROOT / "config" / "settings.py"))


def strong_key() -> str:
    return secrets.token_urlsafe(50)


def production_environment() -> dict[str, str]:
    """The variables of docs/deployment.md ("Running in production"), with a freshly made key."""
    page = (ROOT / "docs" / "deployment.md").read_text()
    lines = page[page.index("export ") :].splitlines()
    command = ""
    for line in lines:
        command += line.rstrip("\\")
        if not line.endswith("\\"):
            break
    environment = dict(word.split("=", 1) for word in shlex.split(command)[1:])
    assert environment["DJANGO_SECRET_KEY"] == "..."  # the page leaves it to be made
    return environment | {"DJANGO_SECRET_KEY": strong_key()}


def check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *CHECK_DEPLOY],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )


# --- DEBUG --------------------------------------------------------------------------------


def test_debug_is_off_when_nothing_turns_it_on():
    assert settings_from({"DJANGO_SECRET_KEY": strong_key()})["DEBUG"] is False


@pytest.mark.parametrize(
    ("value", "debug"), [("1", True), ("true", True), ("0", False), ("off", False)]
)
def test_django_debug_is_honoured(value, debug):
    settings = settings_from({"DJANGO_DEBUG": value, "DJANGO_SECRET_KEY": strong_key()})
    assert settings["DEBUG"] is debug


def test_a_django_debug_that_is_not_a_boolean_stops_the_site():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG must be a boolean"):
        settings_from({"DJANGO_DEBUG": "maybe", "DJANGO_SECRET_KEY": strong_key()})


@pytest.mark.parametrize("value", ["0", "1"])
def test_the_old_debug_variable_is_refused_naming_the_new_one(value):
    with pytest.raises(ImproperlyConfigured, match="DEBUG is not read: set DJANGO_DEBUG"):
        settings_from({"DEBUG": value, "DJANGO_SECRET_KEY": strong_key()})


def test_an_old_name_is_refused_even_with_debug_set_the_new_way():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not read: set DJANGO_SECRET"):
        settings_from({"DJANGO_DEBUG": "0", "SECRET_KEY": strong_key()})


# --- the secret key -----------------------------------------------------------------------


def test_without_a_secret_key_the_site_does_not_start_with_debug_off():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY must be set"):
        settings_from({})


def test_development_runs_on_a_key_that_check_deploy_flags():
    key = settings_from({"DJANGO_DEBUG": "1"})["SECRET_KEY"]
    # Django's mark of a key not for production (security.W009).
    assert key.startswith("django-insecure-")


def test_the_development_key_is_refused_when_debug_is_off():
    development_key = settings_from({"DJANGO_DEBUG": "1"})["SECRET_KEY"]
    with pytest.raises(ImproperlyConfigured, match="development key"):
        settings_from({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": development_key})


# --- the client's address ------------------------------------------------------------------


def test_the_trusted_proxy_count_is_read_from_the_environment():
    settings = settings_from(
        {"DJANGO_SECRET_KEY": strong_key(), "ALLAUTH_TRUSTED_PROXY_COUNT": "2"}
    )
    assert settings["ALLAUTH_TRUSTED_PROXY_COUNT"] == 2


def test_the_trusted_client_ip_header_is_read_from_the_environment():
    settings = settings_from(
        {"DJANGO_SECRET_KEY": strong_key(), "ALLAUTH_TRUSTED_CLIENT_IP_HEADER": "X-Real-IP"}
    )
    assert settings["ALLAUTH_TRUSTED_CLIENT_IP_HEADER"] == "X-Real-IP"


@pytest.mark.parametrize("value", ["-1", "one"])
def test_a_bad_trusted_proxy_count_stops_the_site(value):
    with pytest.raises(ImproperlyConfigured, match="ALLAUTH_TRUSTED_PROXY_COUNT must be"):
        settings_from({"DJANGO_SECRET_KEY": strong_key(), "ALLAUTH_TRUSTED_PROXY_COUNT": value})


# --- rate limits on creating things ---------------------------------------------------------


def test_rate_limits_are_changed_from_the_environment_one_by_one():
    environment = {
        "DJANGO_SECRET_KEY": strong_key(),
        "DJANGO_RATE_LIMITS": "round=900/h, match=5/10m",
    }
    changed = settings_from(environment)["RATE_LIMITS"]
    default = settings_from({"DJANGO_SECRET_KEY": strong_key()})["RATE_LIMITS"]
    assert changed == default | {"round": "900/h", "match": "5/10m"}


@pytest.mark.parametrize("value", ["rounds=900/h", "round=900", "round=0/h", "round=many/h"])
def test_a_bad_rate_limit_stops_the_site_and_names_the_choices(value):
    with pytest.raises(ImproperlyConfigured, match=r"is not NAME=COUNT/PERIOD .*names: match"):
        settings_from({"DJANGO_SECRET_KEY": strong_key(), "DJANGO_RATE_LIMITS": value})


def test_the_system_checks_pass_in_development_on_the_local_memory_cache():
    # `make check` (CI): django-ratelimit refuses a cache of one process, which development
    # uses and check --deploy refuses in production (below).
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "DJANGO_DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- check --deploy -----------------------------------------------------------------------


def test_sessions_are_cached_only_in_a_cache_every_worker_shares():
    production = settings_from(production_environment())
    assert production["SESSION_ENGINE"] == "django.contrib.sessions.backends.cached_db"
    development = settings_from({"DJANGO_DEBUG": "1"})
    assert "SESSION_ENGINE" not in development  # Django's default: the database alone


def test_check_deploy_is_clean_with_the_production_environment_of_the_readme():
    result = check_deploy(production_environment())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"REDIS_URL": None}, "Set REDIS_URL"),
        ({"ALLAUTH_TRUSTED_PROXY_COUNT": None}, "Set ALLAUTH_TRUSTED_PROXY_COUNT"),
        ({"DJANGO_SECRET_KEY": "not-a-secret"}, "security.W009"),
        ({"DJANGO_DEBUG": "1"}, "security.W018"),
    ],
    ids=["without Redis", "without the proxy count", "with a weak key", "with DEBUG on"],
)
def test_check_deploy_fails_on_what_is_missing_and_says_what(change, message):
    environment = production_environment() | change
    environment = {name: value for name, value in environment.items() if value is not None}
    result = check_deploy(environment)
    assert result.returncode != 0
    assert message in result.stderr
