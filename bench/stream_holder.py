"""Many browsers holding a table's event stream open, for bench/streams.py, in a process of
their own (so that their CPU and memory are not the server's).

    python -m bench.stream_holder PORT PATH COUNT PER_ADDRESS

Opens COUNT streams of PATH (`/play/<pk>/events/?v=0`) on the app server at PORT, PER_ADDRESS
from each loopback address (127.0.0.2 and on: the site lets one address hold only its share),
and prints one JSON line: how many opened, how the others were answered, how long it took.
Then it reads commands on stdin, each answered by one JSON line:

    expect VERSION    when the streams heard VERSION or a newer one: the median, 95th
                      percentile and last of their wall-clock times (time.time(): one
                      machine, one clock), and how many heard it within a minute
    count             how many streams are still open

and ends when stdin closes, closing every stream.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections import Counter

from bench.live_watchers import HOST, _chunks, _read_head

OPENING_AT_ONCE = 200
EXPECT_SECONDS = 60


class Stream:
    def __init__(self) -> None:
        self.heard = 0
        self.changed = asyncio.Event()
        self.open = True

    async def listen(self, reader: asyncio.StreamReader) -> None:
        pending = b""
        try:
            async for chunk in _chunks(reader):
                pending += chunk
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    for line in event.split(b"\n"):
                        if line.startswith(b"data: "):
                            self.heard = max(self.heard, int(line[6:]))
                            self.changed.set()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        self.open = False
        self.changed.set()

    async def until(self, version: int) -> float | None:
        """When (time.time()) this stream heard `version` or newer; None if it closed first."""
        while self.heard < version:
            if not self.open:
                return None
            self.changed.clear()
            await self.changed.wait()
        return time.time()


def source(number: int, per_address: int) -> str:
    host = 2 + number // per_address
    return f"127.0.{host // 256}.{host % 256}"


async def main(port: int, path: str, count: int, per_address: int) -> None:
    streams: list[Stream] = []
    writers: list[asyncio.StreamWriter] = []
    tasks: list[asyncio.Task] = []
    answers: Counter[str] = Counter()
    opening = asyncio.Semaphore(OPENING_AT_ONCE)

    async def open_one(number: int) -> None:
        async with opening:
            try:
                reader, writer = await asyncio.open_connection(
                    HOST, port, local_addr=(source(number, per_address), 0)
                )
                writer.write(
                    f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                    "Accept: text/event-stream\r\n\r\n".encode()
                )
                await writer.drain()
                status, _head = await _read_head(reader)
            except (OSError, ConnectionError, asyncio.IncompleteReadError) as error:
                answers[type(error).__name__] += 1
                return
            answers[str(status)] += 1
            if status != 200:
                writer.close()
                return
            stream = Stream()
            streams.append(stream)
            writers.append(writer)
            tasks.append(asyncio.create_task(stream.listen(reader)))

    began = time.monotonic()
    await asyncio.gather(*(open_one(number) for number in range(count)))
    print(
        json.dumps(
            {
                "opened": len(streams),
                "answers": dict(answers),
                "seconds": time.monotonic() - began,
            }
        ),
        flush=True,
    )

    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command, *arguments = line.split()
        if command == "expect":
            version = int(arguments[0])
            waits = [asyncio.create_task(stream.until(version)) for stream in streams]
            await asyncio.wait(waits, timeout=EXPECT_SECONDS)
            heard = sorted(w.result() for w in waits if w.done() and w.result() is not None)
            for waiting in waits:
                waiting.cancel()
            print(
                json.dumps(
                    {
                        "heard": len(heard),
                        "median_at": statistics.median(heard) if heard else None,
                        "p95_at": heard[int(len(heard) * 0.95)] if heard else None,
                        "last_at": heard[-1] if heard else None,
                    }
                ),
                flush=True,
            )
        elif command == "count":
            print(json.dumps({"open": sum(stream.open for stream in streams)}), flush=True)
    for writer in writers:
        writer.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    port_arg, path_arg, count_arg, per_address_arg = sys.argv[1:5]
    asyncio.run(main(int(port_arg), path_arg, int(count_arg), int(per_address_arg)))
