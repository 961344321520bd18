"""The cast of the tests: alice creates matches, bob keeps score, carol only watches."""

import threading

import django_ratelimit.core
import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import translation

from cards101.rules import PRESETS
from games import services
from tests import examples  # noqa: F401  (Hypothesis's profile for the whole suite)
from tests.clock import Clock

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


def counts_tables_of(user, keeper):
    """`user` confirms, as on the claims page, that a guest `keeper` named after them is them:
    from then on `keeper`'s tables count for `user` at once (tests/claims/test_consent.py)."""
    from claims import services as claims
    from claims.models import Claim

    services.players_for_names([user.get_username()], added_by=keeper)
    claim = Claim.objects.get(user=user, asked_by=keeper, status=Claim.Status.PENDING)
    claims.decide(claim=claim, approve=True, by=user)


def make_match(creator, names, preset="classic", **options):
    """A match seated with these players: account usernames or guest names."""
    variant = PRESETS[preset].replace(**options)
    return services.start_match(created_by=creator, names=names, preset=preset, variant=variant)


@pytest.fixture
def match(alice):
    """A classic match of alice and two guests, created by alice."""
    return make_match(alice, ["alice", "Dan", "Eve"])


def rules_form_data(preset: str = "classic") -> dict[str, str]:
    """The rules fields of a form as a browser posts them: the preset's values, ticked boxes."""
    data = {"preset": preset}
    for name, value in PRESETS[preset].as_dict().items():
        if value is True:
            data[name] = "on"
        elif value is not False:
            data[name] = str(value)
    return data


def by_seat(match, outcomes_by_name: dict) -> dict[int, dict]:
    """Outcomes written by player name (names unique at the table) keyed by seat position."""
    position = dict(match.seats.values_list("player__name", "position"))
    return {position[name]: outcome for name, outcome in outcomes_by_name.items()}


def record(match, user, *rounds) -> None:
    """Enter rounds written by player name, each on the version the sheet then showed."""
    for outcomes in rounds:
        match.refresh_from_db()
        services.record_round(
            match=match, outcomes=by_seat(match, outcomes), version=match.version, by=user
        )
    match.refresh_from_db()


def round_at(match, number: int):
    """The match's round that now has this number."""
    return match.rounds.get(number=number)


def change(match, user, number: int, outcomes_by_name: dict):
    """Change round `number` as the edit form would, made on the round as it is now."""
    round_ = round_at(match, number)
    return services.change_round(
        match=match,
        round_id=round_.pk,
        version=round_.version,
        outcomes=by_seat(match, outcomes_by_name),
        by=user,
    )


def delete(match, user, number: int) -> int:
    """Delete round `number` as the confirmation page would, made on the round as it is now."""
    round_ = round_at(match, number)
    return services.delete_round(match=match, round_id=round_.pk, version=round_.version, by=user)


def play_out(match, by, winner_index: int = 0) -> None:
    """Deals that end a classic match: one seat goes out, the others go over 101 (a table of
    four in two deals: three hands cannot hold that much at once)."""
    seats = list(match.seats.order_by("position"))
    for points in [102] if len(seats) < 4 else [60, 42]:
        match.refresh_from_db()
        outcomes = {
            seat.position: {"out": "7C"} if index == winner_index else {"points": points + index}
            for index, seat in enumerate(seats)
        }
        services.record_round(match=match, outcomes=outcomes, version=match.version, by=by)
    match.refresh_from_db()


def at_once(*calls):
    """Run the calls in threads released together; each returns what its call returned or
    the exception it raised."""
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the test looks at what each one met
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results
