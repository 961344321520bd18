"""The isolation scenario (issue 35), shared by its test (tests/test_isolation.py) and its
benchmark (bench/isolation.py): a live table of bots and a table whose person lets the move
timer run out, played by a real play worker (`manage.py play_worker`); first alone (the
baseline), then with a real tasks' worker (`manage.py db_worker`) sending the notifications
caused meanwhile to a mail server that accepts connections and never answers and to a Telegram
Bot API that never answers; then the servers answer again. Measured: the longest gap between
two bot moves in each phase, how late each timer's move was, and what was delivered.

Django is set up by the caller (pytest's test database, or the benchmark's throw-away one);
the workers are processes of their own on that database."""

from __future__ import annotations

import contextlib
import datetime
import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from cards101.rules import PRESETS
from notify import kinds
from notify import services as notify
from notify.models import Delivery
from play import services as play
from play.models import PlayMove, PlaySeat, PlayTable
from tests.factories import linked_telegram
from tests.fake_telegram import BOT, TOKEN, FakeBotApi
from tests.mail_sink import Sink

ROOT = Path(__file__).resolve().parents[1]
BOT_DELAY = 0.2  # seconds: the bots' pace in the scenario (PLAY_BOT_DELAY)
TIMER = 2  # seconds: the move time at the timer's table
CALL_TIMEOUT = 1  # seconds: the mail's and Telegram's timeout in the tasks' worker
FIRST_CHAT = 7_770_000


class Hanging:
    """A server on 127.0.0.1 that accepts every connection and never says a word."""

    def __init__(self, port: int = 0) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(client)

    def close(self) -> None:
        # shutdown wakes the thread blocked in accept(), which holds the port until it returns.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.thread.join(timeout=5)
        for client in self.held:
            client.close()


@dataclass
class Phase:
    """What the play worker did in one phase."""

    bot_gaps: list[float] = field(default_factory=list)
    timer_lateness: list[float] = field(default_factory=list)

    @property
    def longest_gap(self) -> float:
        return max(self.bot_gaps, default=0.0)


@dataclass
class Outcome:
    baseline: Phase
    loaded: Phase
    notifications: int
    deliveries: int
    sent: int
    messages: dict[str, int]  # channel: messages the servers received
    groups: dict[str, int]  # channel: distinct sends the site recorded
    first_attempts_failed: int
    settle_seconds: float


def _people(count: int) -> list:
    people = []
    for number in range(count):
        user = get_user_model().objects.create_user(
            f"iso{number}", f"iso{number}@example.com", "iso-pass-101"
        )
        linked_telegram(user, FIRST_CHAT + number)
        people.append(user)
    return people


def _tables():
    host = get_user_model().objects.create_user("iso-host", "", "iso-pass-101")
    sleeper = get_user_model().objects.create_user("iso-sleeper", "", "iso-pass-101")
    bots = play.create_table(
        by=host,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy", "greedy", "greedy"],
        seed=11,
    )
    # Its person is away: the server plays their seat at the bots' pace too.
    PlaySeat.objects.filter(table=bots, user=host).update(timeouts=2)
    PlayTable.objects.filter(pk=bots.pk).update(server_moves_at=timezone.now())
    timed = play.create_table(
        by=sleeper,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy"],
        seed=12,
        move_seconds=TIMER,
    )
    return bots, timed


def _environment(database_url: str, smtp_port: int, api_port: int) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": database_url,
        "PLAY_BOT_DELAY": str(BOT_DELAY),
        "PLAY_ROUND_PAUSE": "1",
        "DJANGO_EMAIL_HOST": "127.0.0.1",
        "DJANGO_EMAIL_PORT": str(smtp_port),
        "DJANGO_EMAIL_USE_TLS": "0",
        "DJANGO_EMAIL_TIMEOUT": str(CALL_TIMEOUT),
        "DJANGO_TELEGRAM_BOT_TOKEN": TOKEN,
        "DJANGO_TELEGRAM_BOT_USERNAME": BOT,
        "DJANGO_TELEGRAM_API_URL": f"http://127.0.0.1:{api_port}",
        "DJANGO_TELEGRAM_TIMEOUT": str(CALL_TIMEOUT),
        "DJANGO_SITE_URL": "https://101.example",
    }


def _start(command: list[str], environment: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def _phase(bots: PlayTable, timed: PlayTable, since: datetime.datetime) -> Phase:
    """The gaps between the bot table's moves since `since`, and how late each timer's move
    at the other table was (after the move it followed, plus TIMER; the bots' replies there
    come at their pace)."""
    phase = Phase()
    made = list(
        PlayMove.objects.filter(table=bots, at__gte=since)
        .order_by("number")
        .values_list("round", "at")
    )
    for (round_a, at_a), (round_b, at_b) in itertools.pairwise(made):
        if round_a == round_b:  # not the pause between two rounds
            phase.bot_gaps.append((at_b - at_a).total_seconds())
    timed_moves = list(
        PlayMove.objects.filter(table=timed, at__gte=since)
        .order_by("number")
        .values_list("by", "at")
    )
    for (_by, before), (by, at) in itertools.pairwise(timed_moves):
        waited = (at - before).total_seconds()
        # The stand-in's moves for her once she is away come at the bots' pace: not timers.
        if by == "timer" and waited > TIMER / 2:
            phase.timer_lateness.append(waited - TIMER)
    return phase


def run(database_url: str, *, seconds: float = 6.0, people: int = 3, tells: int = 2) -> Outcome:
    """The scenario (each phase `seconds` long; `people`, each told `tells` times, by e-mail
    and Telegram, during the loaded phase)."""
    bots, timed = _tables()
    persons = _people(people)
    smtp, api = Hanging(), Hanging()
    environment = _environment(database_url, smtp.port, api.port)
    worker = _start(["play_worker"], environment)
    tasks = None
    try:
        started = timezone.now()
        time.sleep(seconds)
        loaded_from = timezone.now()
        baseline = _phase(bots, timed, started)
        # The timer's person runs out of time again (twice, and the server plays for her).
        PlaySeat.objects.filter(table=timed, bot="").update(timeouts=0)
        tasks = _start(["db_worker", "--no-reload", "--interval", "0.1"], environment)
        for number in range(tells):
            time.sleep(seconds / tells)
            for user in persons:
                with override_settings(TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_BOT_USERNAME=BOT):
                    told = notify.tell(
                        user=user,
                        told=kinds.YourMove(
                            table_id=1_000_000 + number, name=f"Table {number}", path="/play/"
                        ),
                    )
                assert told.deliveries.count() == 2  # by e-mail and Telegram
        loaded = _phase(bots, timed, loaded_from)
        _stop(worker)
        worker = None
        failed_first = Delivery.objects.filter(attempts__gte=1).exclude(error="").count()
        # The servers answer again, where the hanging ones were.
        smtp.close()
        api.close()
        sink = Sink()
        controller = Controller(sink, hostname="127.0.0.1", port=smtp.port)
        controller.start()
        fake = FakeBotApi(port=api.port)
        serving = threading.Thread(target=fake.serve_forever, daemon=True)
        serving.start()
        try:
            answered = time.monotonic()
            # The retries' time comes (their backoff is 30 s and more).
            ends = time.monotonic() + 120
            while Delivery.objects.exclude(status=Delivery.Status.SENT).exists():
                DBTaskResult.objects.filter(
                    status="READY", task_path="notify.services.deliveries.deliver"
                ).update(run_after=timezone.now())
                if time.monotonic() > ends:
                    break
                time.sleep(0.2)
            settle_seconds = time.monotonic() - answered
        finally:
            controller.stop()
            fake.shutdown()
            fake.server_close()
    finally:
        if worker is not None:
            _stop(worker)
        if tasks is not None:
            _stop(tasks)
        smtp.close()
        api.close()
    deliveries = Delivery.objects.filter(notification__user__in=persons)
    groups = {
        channel: deliveries.filter(channel=channel).values("sent_with").distinct().count()
        for channel in ("email", "telegram")
    }
    return Outcome(
        baseline=baseline,
        loaded=loaded,
        notifications=people * tells,
        deliveries=deliveries.count(),
        sent=deliveries.filter(status=Delivery.Status.SENT).count(),
        messages={"email": len(sink.messages), "telegram": len(fake.sent())},
        groups=groups,
        first_attempts_failed=failed_first,
        settle_seconds=settle_seconds,
    )
