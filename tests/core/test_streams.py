"""The event streams as browsers meet them, over real connections to the site served as
production serves it (ASGI, core/streams.py ahead of Django): an open stream holds no thread,
and no client holds more than its share (per address, per session, per process); past it the
answer says when to try again, and the page polls slowly meanwhile."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.db import OperationalError
from django.urls import reverse

from core import live, streams
from play.models import PlayTable
from tests.asgi_server import HOST, AsgiLiveServer
from tests.play.test_play import new_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(django_db_setup) -> Iterator[AsgiLiveServer]:
    server = AsgiLiveServer()
    yield server
    server.stop()


class Stream:
    """A browser's connection to an events URL: the status and headers of the answer, then
    what it sends, read as it comes."""

    def __init__(
        self, server: AsgiLiveServer, path: str, *, source: str = HOST, cookie: str = ""
    ) -> None:
        self.sock = socket.create_connection(
            (HOST, server.port), timeout=5, source_address=(source, 0)
        )
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "Accept: text/event-stream"]
        if cookie:
            lines.append(f"Cookie: sessionid={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.received = b""
        while b"\r\n\r\n" not in self.received:
            self.received += self._recv()
        head, _sep, self.received = self.received.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode().split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {
            name.lower(): value.strip()
            for name, _sep, value in (line.partition(":") for line in header_lines)
        }

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the stream")
        return chunk

    def read_until(self, text: str, timeout: float = 5) -> str:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.received:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not received: {self.received!r}")
            self.received += self._recv()
        return self.received.decode(errors="replace")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


@pytest.fixture
def opened() -> Iterator[list[Stream]]:
    streams: list[Stream] = []
    yield streams
    for stream in streams:
        stream.close()


@pytest.fixture
def open_stream(server, opened):
    """Open a stream of the table's events (closed after the test)."""

    def open_(table: PlayTable, **browser) -> Stream:
        stream = Stream(server, events_url(table), **browser)
        opened.append(stream)
        return stream

    return open_


def events_url(table: PlayTable) -> str:
    return reverse("play:events", args=[table.pk])


def wait_until(condition, timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("never came true")
        time.sleep(0.02)


def test_two_hundred_open_streams_hold_no_thread_each(server, alice, opened):
    table = new_table(alice, seats=("me", "greedy"))
    url = f"{events_url(table)}?v=0"
    Stream(server, url).close()  # the listener's thread and the pool's first one, started
    wait_until(lambda: live.streams.total == 0)
    threads = threading.active_count()
    for n in range(200):
        # From four addresses: one holds at most its share (100).
        stream = Stream(server, url, source=f"127.0.0.{2 + n % 4}")
        opened.append(stream)
        assert stream.status == 200
        assert stream.headers["content-type"] == "text/event-stream"
        stream.read_until(f"data: {table.version}\n")
    # At most the few threads of the shared pool that read the versions: none per stream.
    assert threading.active_count() - threads <= 6
    assert live.streams.total == 200
    # Every one of them hears the next version.
    live.hub.deliver(live.channel_of(PlayTable, table.pk), table.version + 1)
    for stream in opened:
        stream.read_until(f"data: {table.version + 1}\n")


def test_a_stream_whose_browser_goes_is_given_back_at_once(server, alice):
    table = new_table(alice, seats=("me", "greedy"))
    stream = Stream(server, events_url(table))
    stream.read_until("event: version")
    assert live.streams.total == 1 and live.hub.count() == 1
    stream.close()
    wait_until(lambda: live.streams.total == 0 and live.hub.count() == 0)


def test_one_address_holds_its_share_of_streams_and_no_more(settings, alice, open_stream):
    settings.LIVE_STREAMS_PER_ADDRESS = 3
    table = new_table(alice, seats=("me", "greedy"))
    first = [open_stream(table, source="127.0.0.2") for _ in range(3)]
    assert [stream.status for stream in first] == [200, 200, 200]
    refused = open_stream(table, source="127.0.0.2")
    assert refused.status == 429
    assert refused.headers["retry-after"] == str(live.REFUSED_RETRY_SECONDS)
    assert f"retry: {live.REFUSED_RETRY_SECONDS * 1000}" in refused.read_until("retry:")
    # Another address is not held back by it...
    assert open_stream(table, source="127.0.0.3").status == 200
    # ...and once one of the first address's streams ends, it may open another.
    first[0].close()
    wait_until(lambda: live.streams.by_address["127.0.0.2"] == 2)
    assert open_stream(table, source="127.0.0.2").status == 200


def test_one_session_holds_a_persons_tabs_and_no_more(settings, alice, open_stream):
    settings.LIVE_STREAMS_PER_SESSION = 2
    table = new_table(alice, seats=("me", "greedy"))
    assert [open_stream(table, cookie="tabs").status for _ in range(3)] == [200, 200, 429]
    # Someone else at the same address (a club's Wi-Fi) is let in.
    assert open_stream(table, cookie="someone-else").status == 200


def test_a_process_holding_all_it_can_says_when_to_come_back(settings, alice, open_stream):
    settings.LIVE_STREAMS_PER_PROCESS = 2
    table = new_table(alice, seats=("me", "greedy"))
    statuses = [open_stream(table, source=f"127.0.0.{n}").status for n in range(2, 5)]
    assert statuses == [200, 200, 503]
    refused = open_stream(table, source="127.0.0.9")
    assert refused.status == 503
    assert refused.headers["retry-after"] == str(live.BUSY_RETRY_SECONDS)


def test_what_is_not_a_stream_is_refused_before_any_is_held(server, alice):
    table = new_table(alice, seats=("me", "greedy"))
    missing = Stream(server, reverse("play:events", args=[table.pk + 1000]))
    assert missing.status == 404
    for pk in (10**30, 2**63):
        assert Stream(server, f"/play/{pk}/events/").status == 404
    posted = socket.create_connection((HOST, server.port), timeout=5)
    posted.sendall(
        f"POST {events_url(table)} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 0\r\n\r\n".encode()
    )
    assert posted.recv(100).startswith(b"HTTP/1.1 405")
    posted.close()
    wait_until(lambda: live.streams.total == 0 and live.hub.count() == 0)


def test_a_stream_for_a_host_the_site_does_not_serve_is_refused(server, alice):
    table = new_table(alice, seats=("me", "greedy"))
    sock = socket.create_connection((HOST, server.port), timeout=5)
    sock.sendall(f"GET {events_url(table)} HTTP/1.1\r\nHost: evil.example\r\n\r\n".encode())
    assert sock.recv(100).startswith(b"HTTP/1.1 400")
    sock.close()


def test_a_stream_that_cannot_read_the_database_says_when_to_come_back(server, alice, monkeypatch):
    table = new_table(alice, seats=("me", "greedy"))

    def unreachable(model, pk):
        raise OperationalError("the database is away")

    monkeypatch.setattr(live, "_current", unreachable)
    stream = Stream(server, events_url(table))
    assert stream.status == 503
    assert stream.headers["retry-after"] == str(streams.UNREACHABLE.retry)
    wait_until(lambda: live.streams.total == 0 and live.hub.count() == 0)
