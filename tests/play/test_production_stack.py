"""Production as docs/deployment.md runs it: two app servers and two play workers on one
database and one Redis. Tables with nobody looking are carried to their end by the workers,
never a move made twice; a person's move sent to both servers at once counts once; and a
browser's event stream on one server hears the moves made through the other server and by the
workers."""

import http.client
import re
import threading
import time
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from cards101.engine import Game, Move
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayMove, PlayTable
from tests.play.test_play_servers import form_of, log_in, send
from tests.servers import HOST, stop_clock

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = 4


def replayed(table: PlayTable) -> Game:
    """The game rebuilt from its seed and its kept moves, each applied once, in order (and the
    rounds dealt since the last of them, at a table still playing)."""
    game = Game.new(table.variant, players=table.seat_count, seed=table.seed)
    for kept in table.moves.order_by("number"):
        while game.view(kept.seat)["round"] < kept.round:
            game.next_round()
        game.play(Move.from_json(kept.move))
    while game.view(0)["round"] < Game.from_json(table.state).view(0)["round"]:
        game.next_round()
    return game


def wait_until(done, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


def test_tables_nobody_watches_are_played_to_the_end_and_no_move_is_made_twice(
    production_stack, alice
):
    # Alice opens tables against three bots and leaves: her timer runs out (1 s), twice, and
    # from then on her seat is played for her. No page is open anywhere. Matches to 50 points
    # (the least the rules allow) take a few rounds, each dealt by the clock too.
    tables = [
        play.create_table(
            by=alice,
            preset=preset,
            variant=PRESETS[preset].replace(lose_over=50),
            seats=["me", "random", "greedy", "random"],
            move_seconds=1,
            seed=seed,
        )
        for seed, preset in zip(range(TABLES), ["classic", "aaow", "classic", "aaow"], strict=True)
    ]
    wait_until(
        lambda: not PlayTable.objects.exclude(status=PlayTable.Status.FINISHED).exists(),
        240,
        "every table finished",
    )
    made = [stop_clock(clock) for clock in production_stack.clocks]
    for table in tables:
        table.refresh_from_db()
        numbers = list(table.moves.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))  # none twice, none lost
        # Every kept move, applied once from the seed, gives exactly the state the table has:
        # a move made twice, or one left out, would not.
        assert replayed(table).to_json() == table.state
        assert table.match.rounds.count() == Game.from_json(table.state).view(0)["round"] + 1
        assert table.match.status == "finished"
    # Both workers took tables: the skip-locked row locks shared the work out, not a queue.
    counts = [int(log.rsplit("after ", 1)[1].split()[0]) for log in made]
    assert all(count > 0 for count in counts), made
    # What they made is every move of the bots and stand-ins and every next deal, once.
    deals = sum(table.match.rounds.count() - 1 for table in tables)
    assert deals > 0  # the clock dealt next rounds too
    assert sum(counts) == PlayMove.objects.exclude(by="").count() + deals


def test_a_move_sent_to_both_servers_at_once_counts_once_and_both_streams_hear_it(
    production_stack, alice, bob
):
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "open"], seed=5
    )
    play.join(table=table, user=bob, invite=table.invite)
    first, second = production_stack.servers
    heard = {first.port: [], second.port: []}
    streams = [
        threading.Thread(
            target=listen, args=(server.port, table.pk, heard[server.port]), daemon=True
        )
        for server in (first, second)
    ]
    for stream in streams:
        stream.start()
    table.refresh_from_db()
    wait_until(lambda: all(heard.values()), 10, "both streams opened")
    game = Game.from_json(table.state)
    mover = alice if game.to_move == 0 else bob
    cookies = [
        log_in(server, mover.username, f"{mover.username}-password") for server in (first, second)
    ]
    move, version = game.legal_moves()[0], table.version
    answers = [None, None]

    def post(index: int) -> None:
        server = (first, second)[index]
        answers[index] = send(
            server,
            "POST",
            reverse("play:move", args=[table.pk]),
            cookies[index],
            form_of(move, version),
        )

    senders = [threading.Thread(target=post, args=(index,)) for index in (0, 1)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    assert PlayMove.objects.filter(table=table).count() == 1
    bodies = [body for _response, body in answers]
    assert sum("The table has moved on" in body for body in bodies) == 1
    # Each server's stream hears the new version, wherever the move was made.
    table.refresh_from_db()
    wait_until(
        lambda: all(table.version in versions for versions in heard.values()),
        5,
        f"both streams heard version {table.version}: {heard}",
    )


def listen(port: int, pk: int, heard: list[int]) -> None:
    """An EventSource, as plainly as it can be written: the versions one server sends."""
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    connection.request(
        "GET",
        reverse("play:events", args=[pk]) + "?v=0",
        headers={"X-Forwarded-Proto": "https", "Accept": "text/event-stream"},
    )
    response = connection.getresponse()
    assert response.status == 200
    for line in response:
        if line.startswith(b"data: "):
            heard.append(int(line[6:]))


def threads_of(pid: int) -> int:
    """The threads of a process and of the processes it started (gunicorn's workers)."""
    status = Path(f"/proc/{pid}/status").read_text()
    threads = int(re.search(r"^Threads:\s+(\d+)", status, re.MULTILINE)[1])
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return threads + sum(threads_of(int(child)) for child in children)


def test_open_event_streams_hold_no_thread_and_no_database_connection(production_stack, alice):
    """A stream waits for Redis, not for a thread or the database: a hundred browsers watching
    a table add no thread to the app servers (a few at most, for the shared pool that reads
    versions) and take no more connections than a quiet site (the pools' own)."""
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "open"]
    )
    postgresql = connection.vendor == "postgresql"

    def connections_now() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    before = connections_now() if postgresql else 0
    threads = [threads_of(server.process.pid) for server in production_stack.servers]
    streams = []
    for index in range(100):
        server = production_stack.servers[index % 2]
        stream = http.client.HTTPConnection(HOST, server.port, timeout=30)
        stream.request(
            "GET",
            reverse("play:events", args=[table.pk]),
            headers={"X-Forwarded-Proto": "https", "Accept": "text/event-stream"},
        )
        response = stream.getresponse()
        assert response.status == 200
        assert response.readline().startswith(b"retry:")
        streams.append(stream)
    now = [threads_of(server.process.pid) for server in production_stack.servers]
    assert all(after - earlier <= 8 for earlier, after in zip(threads, now, strict=True)), (
        threads,
        now,
    )
    if postgresql:  # an SQLite file has no connections to count
        # Each of the four processes keeps a small pool; the streams add none.
        assert connections_now() <= before + 4 * 2
    for stream in streams:
        stream.close()
