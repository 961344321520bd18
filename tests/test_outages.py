"""When the database or Redis is away for a moment. A page that cannot reach the database says
to try again in a few seconds (503, Retry-After), in the visitor's language, as a page, as a
notice for htmx or as JSON for a phone's outbox, never a 500; the pool never hands out a
connection the database has ended. Without Redis the site goes on as with an empty cache, and
nothing written meanwhile comes back stale once Redis answers."""

import contextlib
import time

import psycopg
import psycopg_pool
import pytest
import redis
from django.contrib.auth.models import User
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.urls import reverse

from config.middleware import SessionMiddleware
from core import outages
from tests.play.test_play import new_table
from tests.play.test_production_stack import wait_until
from tests.servers import REDIS_URL, RedisProxy, other_client
from tests.test_deployment import settings_from

pytestmark = pytest.mark.django_db

AWAY = "The site cannot reach its database for a moment: try again in a few seconds."
AWAY_RU = (
    "Сайт ненадолго потерял связь со своей базой данных: попробуйте ещё раз через несколько секунд."
)


@contextlib.contextmanager
def database_away(error: Exception | None = None, only: str = ""):
    """Every query (or those naming `only`) of this thread fails as with the database away."""
    error = error or OperationalError("terminating connection due to administrator command")

    def fail(execute, sql, params, many, context):
        if only in sql:
            raise error
        return execute(sql, params, many, context)

    with connection.execute_wrapper(fail):
        yield


@pytest.mark.parametrize(("language", "text"), [("en", AWAY), ("ru", AWAY_RU)])
def test_a_page_that_cannot_reach_the_database_says_to_try_again_in_a_few_seconds(
    client, language, text
):
    with database_away():
        response = client.get(reverse("home"), headers={"Accept-Language": language})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert text in page
    assert f'<html lang="{language}">' in page
    assert page.count("<h1>") == 1
    assert 'href="/"' in page  # and a way home once it is back


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
        # No pooled connection came free in time (Django wraps it; raw, should one pass).
        OperationalError("couldn't get a connection after 3.00 sec"),
        psycopg_pool.PoolTimeout("couldn't get a connection after 3.00 sec"),
        psycopg.OperationalError("connection failed: Connection refused"),
    ],
)
def test_a_signed_in_person_whose_session_cannot_be_read_is_told_the_same(client, alice, error):
    client.force_login(alice)
    with database_away(error):
        response = client.get(reverse("play:lobby"))
    assert response.status_code == 503
    assert AWAY in response.content.decode()


def test_a_bug_is_still_a_500(client, alice):
    client.raise_request_exception = False
    with database_away(ProgrammingError('relation "games_match" does not exist')):
        response = client.get(reverse("home"))
    assert response.status_code == 500


def test_the_phones_outbox_is_told_in_json_when_to_send_its_round_again(client, alice, match):
    client.force_login(alice)
    with database_away():
        response = client.post(
            reverse("games:round_send", args=[match.pk]),
            {"version": match.version, "seats": "0,1,2"},
            headers={"Accept": "application/json"},
        )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {"error": AWAY, "retry_after": 5}


def test_a_board_fetched_by_htmx_gets_a_notice_for_the_top_of_the_page(client, alice):
    table = new_table(alice)
    client.force_login(alice)
    with database_away():
        response = client.get(
            reverse("play:table", args=[table.pk]) + f"?v={table.version - 1}",
            headers={"HX-Request": "true", "Accept-Language": "ru"},
        )
    assert response.status_code == 503
    assert response["HX-Retarget"] == "#main"
    assert response["HX-Reswap"] == "afterbegin show:top"
    notice = response.content.decode()
    assert notice.startswith('<div class="messages" role="alert" data-database-away>')
    assert AWAY_RU in notice


def test_a_session_the_database_cannot_take_after_the_view_is_a_503_too(alice):
    def view(request):
        request.session["seen"] = True  # saved after the view, by the middleware
        return HttpResponse("done")

    request = RequestFactory().get("/")
    with database_away(only="django_session"):
        response = SessionMiddleware(view)(request)
    assert response.status_code == 503
    assert AWAY in response.content.decode()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_the_database_ended_is_never_handed_out(alice):
    connection.close()  # back to the pool, where it waits for the next request
    assert end_every_connection_but_one_of_its_own() > 0
    assert User.objects.get(pk=alice.pk) == alice


def end_every_connection_but_one_of_its_own() -> int:
    """The database restarts, as far as this process's pool can tell: every connection to the
    test database is ended, but that of a client of its own, which does it."""
    with other_client() as other:
        return other.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_after_an_outage_the_next_request_meets_one_dead_connection_at_most(alice):
    """A pool holding many idle connections when the database restarts: handed out one after
    another, each dead one would cost a wait (1 s, then 2 s...), and the next request would
    give up after 3 s with the database back. The first dead one found has the pool's others
    checked at once (core.outages.check_pooled): the request is answered."""
    pool = connection.pool
    held = [pool.getconn() for _ in range(6)]  # six requests at once, then idle
    for conn in held:
        pool.putconn(conn)
    connection.close()
    assert end_every_connection_but_one_of_its_own() >= 6
    began = time.monotonic()
    assert User.objects.get(pk=alice.pk) == alice
    assert time.monotonic() - began < pool.timeout


# --- Redis -----------------------------------------------------------------------------------


@pytest.fixture
def redis_cache(redis_proxy: RedisProxy, redis_prefix: str, monkeypatch):
    """The cache as production configures it, on the test Redis through the test's proxy, with
    this process's memory of Redis's outages fresh."""
    monkeypatch.setattr(outages, "_outage", outages._RedisOutage())
    environment = {"DJANGO_DEBUG": "1", "REDIS_URL": redis_proxy.url}
    caches = settings_from(environment | {"DJANGO_CACHE_KEY_PREFIX": redis_prefix})["CACHES"]
    with override_settings(CACHES=caches):
        yield cache


@pytest.mark.parametrize("silently", [False, True], ids=["refused", "silent"])
def test_with_redis_away_the_cache_holds_nothing_and_nothing_fails_or_waits(
    redis_cache, redis_proxy, silently
):
    redis_cache.set("kept", "before")
    assert redis_cache.get("kept") == "before"
    redis_proxy.cut(silently=silently)
    assert redis_cache.get("kept") is None  # a miss: the page is made afresh
    time.sleep(outages.REDIS_PAUSE)  # then Redis is asked again, on a new connection
    started = time.monotonic()
    assert redis_cache.get("kept", "default") == "default"
    redis_cache.set("kept", "during")  # dropped
    assert redis_cache.get_or_set("made", lambda: "afresh") == "afresh"
    # A rate limit counts from nothing: the request goes through.
    assert redis_cache.add("count", 0) is True
    assert redis_cache.incr("count") == 1
    assert redis_cache.get_many(["kept", "made"]) == {}
    assert redis_cache.has_key("kept") is False
    assert redis_cache.delete("made") is False
    # A silent Redis is waited for once (a second), then left alone for a while.
    assert time.monotonic() - started < 1.5


def test_a_session_logged_out_while_redis_was_away_stays_logged_out(
    redis_cache, redis_proxy, alice
):
    session = SessionStore()
    session["_auth_user_id"] = str(alice.pk)
    session.create()
    key = session.session_key
    assert SessionStore(key).load()["_auth_user_id"] == str(alice.pk)  # now in the cache too
    redis_proxy.cut()
    SessionStore(key).flush()  # alice logs out: gone from the database, not from Redis
    assert SessionStore(key).load() == {}
    redis_proxy.restore()
    # Once Redis answers, what it kept of the session is deleted too: the cookie signs nobody
    # in again.
    behind_the_proxy = redis.Redis.from_url(REDIS_URL)
    kept = redis_cache.make_key(session.cache_key)
    wait_until(lambda: not behind_the_proxy.exists(kept), 5, "the session gone from Redis")
    time.sleep(outages.REDIS_PAUSE)  # this process asks Redis again
    assert SessionStore(key).load() == {}


@pytest.mark.parametrize("path", ["/no-such-page/", "/matches/999999/"])
def test_a_page_not_found_while_the_database_is_away_is_a_503_not_a_500(client, alice, path):
    """The 404 page reads the database too (the person's top bar): it failed inside Django's
    own error handler, beyond the middleware that answers 503."""
    client.raise_request_exception = False
    client.force_login(alice)
    with database_away():
        response = client.get(path)
    assert response.status_code == 503
    assert AWAY in response.content.decode()
