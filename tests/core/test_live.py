"""Live pages: a committed change is published on its row's channel with the new version, and
every stream watching that channel passes it on at once; a browser that comes back names the
last version it had and is told at once if it missed one. Nothing else travels in an event."""

import asyncio
import contextlib
import time

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from django.urls import reverse

from core import live
from core.models import LiveEvent
from games.models import Match
from play import services as play
from play.models import PlayTable
from tests.factories import make_match, record
from tests.play.test_play import new_table, until_my_turn
from tests.play.test_play_worker import failing


@pytest.fixture(autouse=True)
def _listener_stopped():
    """Each test starts with this process not listening (the listener starts with the first
    stream) and ends with it stopped, its connection closed."""
    yield
    live.hub.stop()


def events_of(model, pk) -> list[int]:
    return list(
        LiveEvent.objects.filter(channel=live.channel_of(model, pk))
        .order_by("pk")
        .values_list("version", flat=True)
    )


def test_a_saved_round_is_published_with_the_matchs_new_version_once_committed(
    alice, django_capture_on_commit_callbacks
):
    match = make_match(alice, ["alice", "Boris"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record(match, alice, {"alice": {"out": "7C"}, "Boris": {"points": 10}})
    # Nothing is published before the commit...
    assert events_of(Match, match.pk) == []
    for callback in callbacks:
        callback()
    # ...then the version the sheet now has.
    match.refresh_from_db()
    assert events_of(Match, match.pk) == [match.version]


def test_every_move_at_a_table_is_published_with_its_version(
    alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = new_table(alice, seats=("me", "greedy"))
        game = until_my_turn(table)
        table.refresh_from_db()
        play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
    table.refresh_from_db()
    published = events_of(PlayTable, table.pk)
    assert published[-1] == table.version
    assert published == sorted(set(published))


def test_a_refused_move_publishes_nothing(alice, django_capture_on_commit_callbacks):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(play.TableMovedOn),
    ):
        play.play(table=table, user=alice, move=game.legal_moves()[0], version=0)
    assert callbacks == []


async def hang_up(chunks) -> None:
    """The browser goes: the server cancels the stream's wait (as Django's ASGI handler does
    on a disconnect)."""
    waiting = asyncio.ensure_future(anext(chunks))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting


async def read(chunks, count: int) -> list[str]:
    return [await asyncio.wait_for(anext(chunks), timeout=5) for _ in range(count)]


async def open_stream(pk: int, **headers):
    """A stream of the table's events, as core/streams.py opens one for a browser."""
    request = RequestFactory().get(f"/play/{pk}/events/", headers=headers)
    watcher = await live.watch(PlayTable, pk)
    assert watcher is not None
    return live.events(watcher, PlayTable, pk, live.known_version(request))


@pytest.mark.django_db(transaction=True)
def test_a_stream_sends_the_version_the_browser_lacks_then_each_one_published(alice):
    table = new_table(alice, seats=("me", "greedy"))
    channel = live.channel_of(PlayTable, table.pk)

    async def scenario():
        # A browser that last had version 1 is told the current one at once...
        chunks = await open_stream(table.pk, **{"Last-Event-ID": "1"})
        first = await read(chunks, 2)
        assert first == [
            f"retry: {live.RETRY_MS}\n\n",
            f"id: {table.version}\nevent: version\ndata: {table.version}\n\n",
        ]
        # ...and then every version published, as it comes.
        live.hub.deliver(channel, table.version + 1)
        assert await read(chunks, 1) == [
            f"id: {table.version + 1}\nevent: version\ndata: {table.version + 1}\n\n"
        ]
        await hang_up(chunks)
        assert live.hub.count() == 0  # a stream whose browser went stops watching

    asyncio.run(scenario())


@pytest.mark.django_db(transaction=True)
def test_a_browser_that_is_up_to_date_hears_nothing_until_the_table_changes(alice):
    table = new_table(alice, seats=("me", "greedy"))

    async def scenario():
        chunks = await open_stream(table.pk, **{"Last-Event-ID": str(table.version)})
        assert await read(chunks, 1) == [f"retry: {live.RETRY_MS}\n\n"]
        waiting = asyncio.ensure_future(anext(chunks))
        await asyncio.sleep(0.2)
        assert not waiting.done()
        # A lost connection to the broker: every stream reads the version again; unchanged,
        # it still says nothing.
        live.hub.resync()
        await asyncio.sleep(0.2)
        assert not waiting.done()
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting

    asyncio.run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_database_broker_carries_a_version_from_another_process_to_the_stream(alice):
    """Without Redis: the worker (another process) writes the event; the stream hears it."""
    table = new_table(alice, seats=("me", "greedy"))

    async def scenario():
        chunks = await open_stream(table.pk, **{"Last-Event-ID": str(table.version)})
        await read(chunks, 1)
        assert await asyncio.to_thread(live.hub.listening.wait, 5)
        await asyncio.to_thread(
            live.DatabaseBroker().publish, live.channel_of(PlayTable, table.pk), 99
        )
        assert await read(chunks, 1) == ["id: 99\nevent: version\ndata: 99\n\n"]
        await hang_up(chunks)

    asyncio.run(scenario())


def test_the_events_of_a_row_that_does_not_exist_are_not_found(client, match):
    assert client.get(reverse("play:events", args=[987654])).status_code == 404
    assert client.get(reverse("games:match_events", args=[match.pk + 1000])).status_code == 404
    assert client.get(reverse("tournaments:events", args=[10**30])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_stream_that_cannot_read_its_version_while_the_database_is_away_stays_open(
    alice, monkeypatch
):
    """Its version read again (the broker came back after an outage) while the database is
    away: the stream stays open and reads it again in a moment. (A stream that cannot read it
    at its start is answered 503: tests/core/test_streams.py.)"""
    table = new_table(alice, seats=("me", "greedy"))
    away = OperationalError("terminating connection due to administrator command")
    reads = failing(1, away, live._current)
    monkeypatch.setattr(live, "READ_AGAIN_SECONDS", 0.05)

    async def scenario():
        chunks = await open_stream(table.pk, **{"Last-Event-ID": str(table.version)})
        assert await read(chunks, 1) == [f"retry: {live.RETRY_MS}\n\n"]
        await asyncio.to_thread(
            lambda: PlayTable.objects.filter(pk=table.pk).update(version=table.version + 1)
        )
        monkeypatch.setattr(live, "_current", reads)
        live.hub.resync()
        sent = await read(chunks, 1)
        while sent[-1] == ": still here\n\n":
            sent += await read(chunks, 1)
        await hang_up(chunks)
        return sent

    sent = asyncio.run(scenario())
    # It reads again in a moment (saying meanwhile that it is still there), and sends the
    # version the browser lacks.
    assert len(reads.calls) == 2
    assert set(sent[:-1]) <= {": still here\n\n"}
    new = table.version + 1
    assert sent[-1] == f"id: {new}\nevent: version\ndata: {new}\n\n"


@pytest.mark.parametrize("silently", [False, True], ids=["refused", "silent"])
def test_a_version_published_while_redis_is_away_is_given_up_within_a_second_and_said_once(
    redis_proxy, redis_prefix, settings, caplog, silently
):
    settings.LIVE_CHANNEL_PREFIX = redis_prefix
    broker = live.RedisBroker(redis_proxy.url)
    broker.publish("play.playtable:1", 1)
    redis_proxy.cut(silently=silently)
    started = time.monotonic()
    for version in (2, 3, 4):
        broker.publish("play.playtable:1", version)  # the listeners read again once it is back
    # A second at most: a Redis that does not answer is not asked again at once.
    assert time.monotonic() - started < 1.5
    assert [record.message.split(" (")[0] for record in caplog.records] == [
        "live events: cannot publish on Redis"
    ]
