"""The cast of the tests: alice creates matches, bob keeps score, carol only watches."""

import django_ratelimit.core
import pytest
from django.core.cache import cache
from django.utils import translation

from tests import examples  # noqa: F401  (Hypothesis's profile for the whole suite)
from tests.clock import Clock
from tests.factories import make_match

# Real app servers (gunicorn on the test database) for the tests that need two of them.
pytest_plugins = ["tests.servers"]


# What a test that touches the database asks for (directly or through its fixtures: the cast,
# the client's pages, the live servers).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--database-only",
        action="store_true",
        help="run only the tests whose outcome may depend on the database (CI's second pass, "
        "on PostgreSQL): not those without one, nor the browser's (over-the-page tests of the "
        "same pages and scripts) nor the rate limits' (counted in the cache); they ran in the "
        "first pass and would run the same",
    )


def pytest_collection_modifyitems(config, items) -> None:
    # What only PostgreSQL does (ending its clients' connections, counting them) is tested
    # there: CI runs the suite on SQLite and again on PostgreSQL (DATABASE_URL).
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        skip = pytest.mark.skip(reason="needs PostgreSQL (DATABASE_URL=postgres://...)")
        for item in items:
            if "postgresql" in item.keywords:
                item.add_marker(skip)
    if config.getoption("--database-only"):
        without = [item for item in items if not depends_on_database(item)]
        if without:
            config.hook.pytest_deselected(items=without)
            items[:] = [item for item in items if depends_on_database(item)]


# Tests that use the database but would run the same on any: the browser's drive the pages
# whose database work the other tests check on both databases; the rate limits count in the
# cache.
SAME_ON_ANY_DATABASE = {"browser", "real_rate_limits"}


def depends_on_database(item) -> bool:
    return uses_database(item) and not SAME_ON_ANY_DATABASE & set(item.keywords)


def uses_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _generous_rate_limits(request, settings):
    # Tests start far more matches, tables and rounds than a person could in an hour; the
    # tests of the limits themselves (marked real_rate_limits) run with the site's own.
    if request.node.get_closest_marker("real_rate_limits") is None:
        settings.RATE_LIMITS = {group: "1000000/h" for group in settings.RATE_LIMITS}


@pytest.fixture
def limits_clock(monkeypatch) -> Clock:
    """django-ratelimit's clock, stopped and moved by the test: a window never ends during a
    test by chance, nor needs an hour of waiting."""
    clock = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    return clock


@pytest.fixture(autouse=True)
def _default_language():
    # A request in Russian leaves Russian active in its thread (LocaleMiddleware activates
    # it and nothing deactivates it): each test starts in the site's default language.
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache():
    # Pages cache rendered sheets; a test must not see another test's match.
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "alice-password")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "bob-password")


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", "carol@example.com", "carol-password")


@pytest.fixture
def match(alice):
    """A classic match of alice and two guests, created by alice."""
    return make_match(alice, ["alice", "Dan", "Eve"])
