"""The play worker outlives outages of the database: a pass that fails waits a little longer
each time it fails again (and says so once), and the worker goes on as soon as the database
answers; a move that fails for a moment is tried again within seconds, one that fails for good
after half a minute; putting a table aside never makes the server owe a move it does not."""

import datetime
import logging
import os
import signal
import subprocess
import sys
import threading
import time

import psycopg_pool
import pytest
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from core.models import LiveEvent
from play import services as play
from play.management.commands import play_worker
from play.models import PlayMove, PlayTable
from tests.play.test_play import new_table
from tests.servers import ROOT


class Stopping(threading.Event):
    """The worker's stop signal, which notes each wait instead of sleeping it, and is set
    after `waits` of them."""

    def __init__(self, waits: int) -> None:
        super().__init__()
        self.waits: list[float] = []
        self.most = waits

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        if len(self.waits) >= self.most:
            self.set()
        return self.is_set()


def failing(times: int, error: Exception, then):
    """A stand-in that raises `error` its first `times` calls, then does what `then` does."""
    calls = []

    def call(*args, **kwargs):
        calls.append(args)
        if len(calls) <= times:
            raise error
        return then(*args, **kwargs)

    call.calls = calls
    return call


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("step_due", OperationalError("terminating connection due to administrator command")),
        ("next_due", InterfaceError("connection already closed")),
        ("forget_old", psycopg_pool.PoolTimeout("couldn't get a connection after 3.00 sec")),
        ("close_old_connections", OperationalError("server closed the connection")),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_pass_that_fails_on_the_database_waits_longer_each_time_and_the_worker_goes_on(
    where, error, monkeypatch, caplog
):
    monkeypatch.setattr(play_worker, "FORGET_EVERY", datetime.timedelta(0))  # every pass
    owner = {
        "step_due": (play, play.step_due),
        "next_due": (play, play.next_due),
        "forget_old": (LiveEvent, LiveEvent.forget_old),
        "close_old_connections": (play_worker, play_worker.close_old_connections),
    }
    module, real = owner[where]
    monkeypatch.setattr(module, where, failing(6, error, real))
    stopping = Stopping(waits=9)
    with caplog.at_level(logging.WARNING, logger=play_worker.__name__):
        assert play_worker.run(stopping) == 0
    # 0.5 s, 1 s, then 2 s at most, each a quarter more or less at random...
    for wait, base in zip(stopping.waits, [0.5, 1, 2, 2, 2, 2], strict=False):
        assert base * 0.75 <= wait <= base * 1.25, stopping.waits
    # ...and the looks of a worker at work once the database answers again.
    assert all(wait <= play_worker.LOOK_EVERY for wait in stopping.waits[6:]), stopping.waits
    # The outage is told once, when it starts and when it ends: not at every pass.
    told = [record.message for record in caplog.records]
    assert told[0] == "play worker: the database failed; trying again"
    assert told[1].startswith("play worker: the database answers again after")
    assert len(told) == 2


def due_table(alice) -> PlayTable:
    """A table whose server owes a move now (a person's timer has run out)."""
    table = new_table(alice, seats=("me", "greedy"), move_seconds=30)
    past = timezone.now() - datetime.timedelta(seconds=1)
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=past)
    table.refresh_from_db()
    return table


def seconds_until_tried(table: PlayTable) -> float:
    table.refresh_from_db()
    return (table.server_moves_at - timezone.now()).total_seconds()


@pytest.mark.django_db(transaction=True)
def test_a_move_that_fails_because_the_database_was_away_is_tried_again_within_seconds(
    alice, monkeypatch, caplog
):
    table = due_table(alice)
    away = OperationalError("terminating connection due to administrator command")
    monkeypatch.setattr(play, "step", failing(1, away, play.step))
    with caplog.at_level(logging.WARNING):
        assert play_worker.run(threading.Event(), until_idle=True) == 0
    assert 1 < seconds_until_tried(table) <= 2
    assert not PlayMove.objects.filter(table=table).exists()
    assert caplog.records == []  # no bug to report
    # Two seconds later, it is made.
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
    assert play_worker.run(threading.Event(), until_idle=True) == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_that_fails_for_another_reason_is_put_aside_for_half_a_minute_and_reported(
    alice, monkeypatch, caplog
):
    table = due_table(alice)
    monkeypatch.setattr(play, "step", failing(1, ValueError("a bug"), play.step))
    assert play_worker.run(threading.Event(), until_idle=True) == 0
    assert 29 < seconds_until_tried(table) <= 30
    assert "the owed move at table" in caplog.text
    assert "ValueError: a bug" in caplog.text


@pytest.mark.django_db
def test_a_table_put_aside_after_another_worker_made_its_move_waits_for_its_person(alice):
    table = new_table(alice, seats=("me", "greedy"))
    # Another worker made the bot's move meanwhile: now it is alice's turn, with no clock.
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=None)
    play.put_aside(table.pk, play_worker.RETRY_SOON_AFTER)
    table.refresh_from_db()
    assert table.server_moves_at is None  # the server makes no move for alice


def test_a_worker_started_while_the_database_is_down_keeps_trying_and_stops_at_sigterm():
    with socket_nobody_listens_on() as port:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "play_worker"],
            cwd=ROOT,
            env={
                "PATH": os.environ["PATH"],
                "DJANGO_DEBUG": "1",
                "DATABASE_URL": f"postgres://nobody@127.0.0.1:{port}/nothing",
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        time.sleep(7)  # two passes: each waits 3 s for a pooled connection, then fails
        assert worker.poll() is None
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=10)
    assert worker.returncode == 0, output
    assert output.count("play worker: the database failed; trying again") == 1, output
    assert "The play worker stopped after 0 moves." in output


class socket_nobody_listens_on:
    """A port of this machine that refuses connections, held so that nobody else takes it."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused
        return self.sock.getsockname()[1]

    def __exit__(self, *exc) -> None:
        self.sock.close()
