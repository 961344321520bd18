"""Watchers of played tables for bench/live.py, in a process of their own (so that their CPU is
counted apart from the servers' and the browser's): each does what a browser watching a table
does, with asyncio streams instead of a browser.

    python -m bench.live_watchers PORTS TABLES PER_TABLE SECONDS

PORTS is a comma-separated list of app servers (the watchers of a table take them in turn, as
a load balancer would hand them out); TABLES a comma-separated list of table ids. Each watcher
loads the table's page (its board and version), opens the table's event stream
(`/play/<pk>/events/?v=<version>`, `text/event-stream`) and holds it; on every version newer
than the board it shows, it fetches the board as htmx does (`GET /play/<pk>/?v=<shown>` with
`HX-Request`) on a connection of its own: uvicorn closes a keep-alive connection idle for 5 s,
and a table moves less often than that, so a browser's next fetch opens one too.

It prints `open N` once every stream is open (or has failed), then runs for SECONDS and prints
one JSON line of what it saw; SIGTERM ends it early with the same line.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

HOST = "127.0.0.1"
VERSION = re.compile(rb'data-live-version="(\d+)"')
# Streams opened at once: the servers accept 800 in a few seconds without a storm of refusals.
OPENING_AT_ONCE = 50
# Each watcher is a person of their own, at an address of their own in 127.0.0.0/8 (loopback
# whole): the site lets one address hold only its share of streams.
ADDRESSES = 250


def address(number: int) -> str:
    """The loopback address of the `number`-th client (127.0.0.2 and on)."""
    host = 2 + number % ADDRESSES
    return f"127.0.{host // 256}.{host % 256}"


@dataclass
class Seen:
    opened: int = 0
    failed_to_open: int = 0
    events: int = 0
    fetches: int = 0
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    fetch_seconds: list[float] = field(default_factory=list)
    streams_closed: int = 0
    seconds: float = 0.0


async def request(
    port: int, path: str, headers: dict[str, str], source: str = HOST
) -> tuple[int, bytes]:
    """One GET on a new connection, read whole (Content-Length or chunked)."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    try:
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        status, head = await _read_head(reader)
        if head.get("transfer-encoding") == "chunked":
            body = b"".join([chunk async for chunk in _chunks(reader)])
        elif "content-length" in head:
            body = await reader.readexactly(int(head["content-length"]))
        else:
            body = await reader.read()
        return status, body
    finally:
        writer.close()


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed before answering")
    status = int(status_line.split()[1])
    head = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        head[name.strip().lower()] = value.strip()
    return status, head


async def _chunks(reader: asyncio.StreamReader):
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        if size == 0:
            await reader.readline()
            return
        chunk = await reader.readexactly(size)
        await reader.readexactly(2)
        yield chunk


class Watcher:
    def __init__(self, port: int, pk: int, seen: Seen, source: str) -> None:
        self.port, self.pk, self.seen, self.source = port, pk, seen, source
        self.shown = 0
        self.heard = 0
        self.fetching: asyncio.Task | None = None

    async def load_page(self) -> None:
        status, body = await request(self.port, f"/play/{self.pk}/", {}, self.source)
        self.seen.statuses[status] += 1
        if status != 200 or not (found := VERSION.search(body)):
            raise RuntimeError(f"GET /play/{self.pk}/ answered {status}")
        self.shown = int(found[1])

    async def open_stream(self) -> asyncio.StreamReader:
        reader, self.writer = await asyncio.open_connection(
            HOST, self.port, local_addr=(self.source, 0)
        )
        path = f"/play/{self.pk}/events/?v={self.shown}"
        self.writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
            "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".encode()
        )
        await self.writer.drain()
        status, head = await _read_head(reader)
        if status != 200 or head.get("transfer-encoding") != "chunked":
            raise RuntimeError(f"GET {path} answered {status} {head}")
        return reader

    async def listen(self, reader: asyncio.StreamReader) -> None:
        """Read the stream's events until it closes; each version newer than the board's
        fetches the board (one fetch at a time; the comparison is made again after it)."""
        pending = b""
        try:
            async for chunk in _chunks(reader):
                pending += chunk
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    fields = dict(
                        line.split(b": ", 1) for line in event.split(b"\n") if b": " in line
                    )
                    if fields.get(b"event") == b"version":
                        self.seen.events += 1
                        self.heard = max(self.heard, int(fields[b"data"]))
                        self.check()
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.seen.errors[f"stream: {type(error).__name__}"] += 1
        self.seen.streams_closed += 1

    def check(self) -> None:
        if self.heard > self.shown and (self.fetching is None or self.fetching.done()):
            self.fetching = asyncio.create_task(self.fetch())

    async def fetch(self) -> None:
        began = time.perf_counter()
        try:
            status, body = await request(
                self.port, f"/play/{self.pk}/?v={self.shown}", {"HX-Request": "true"}, self.source
            )
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.seen.errors[f"fetch: {type(error).__name__}"] += 1
            return
        self.seen.fetch_seconds.append(time.perf_counter() - began)
        self.seen.fetches += 1
        self.seen.statuses[status] += 1
        if status == 200 and (found := VERSION.search(body)):
            self.shown = int(found[1])
        self.check()


async def main(ports: list[int], tables: list[int], per_table: int, seconds: float) -> Seen:
    seen = Seen()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    watchers = [
        Watcher(
            ports[(number * per_table + n) % len(ports)],
            pk,
            seen,
            address(number * per_table + n),
        )
        for number, pk in enumerate(tables)
        for n in range(per_table)
    ]
    opening = asyncio.Semaphore(OPENING_AT_ONCE)
    listening = []

    async def start(watcher: Watcher) -> None:
        async with opening:
            try:
                async with asyncio.timeout(30):
                    await watcher.load_page()
                    reader = await watcher.open_stream()
            except (
                OSError,
                RuntimeError,
                TimeoutError,
                asyncio.IncompleteReadError,
                ValueError,
            ) as error:
                seen.failed_to_open += 1
                seen.errors[f"open: {error}"[:120]] += 1
                return
            seen.opened += 1
            listening.append(asyncio.create_task(watcher.listen(reader)))

    await asyncio.gather(*(start(watcher) for watcher in watchers))
    print(f"open {seen.opened}", flush=True)
    began = time.monotonic()
    try:
        async with asyncio.timeout(seconds):
            await stop.wait()
    except TimeoutError:
        pass
    seen.seconds = time.monotonic() - began
    for task in listening:
        task.cancel()
    await asyncio.gather(*listening, return_exceptions=True)
    for watcher in watchers:
        if hasattr(watcher, "writer"):
            watcher.writer.close()
    return seen


def summary(seen: Seen) -> dict:
    times = sorted(seen.fetch_seconds)
    return {
        "opened": seen.opened,
        "failed_to_open": seen.failed_to_open,
        "events": seen.events,
        "fetches": seen.fetches,
        "statuses": {str(k): v for k, v in seen.statuses.items()},
        "errors": dict(seen.errors),
        "fetch_median": statistics.median(times) if times else None,
        "fetch_p95": times[int(len(times) * 0.95)] if times else None,
        "streams_closed_early": seen.streams_closed,
        "seconds": seen.seconds,
    }


if __name__ == "__main__":
    ports_arg, tables_arg, per_table_arg, seconds_arg = sys.argv[1:5]
    result = asyncio.run(
        main(
            [int(port) for port in ports_arg.split(",")],
            [int(pk) for pk in tables_arg.split(",")],
            int(per_table_arg),
            float(seconds_arg),
        )
    )
    print(json.dumps(summary(result)), flush=True)
