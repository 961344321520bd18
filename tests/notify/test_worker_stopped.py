"""What the probe of the production stack found, on a real tasks' worker (`manage.py
db_worker`, a process of its own) and a slow mail server: a worker killed while it sends loses
nothing but the message in flight, which is given up in doubt, not sent twice; a database
whose connections are ended again and again while it sends loses nothing and doubles nothing;
a SIGTERM while the mail server hangs waits for the send in hand only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from django.contrib.auth import get_user_model

from notify import kinds, services
from notify.models import Delivery
from notify.services.deliveries import INTERRUPTED
from tests.servers import ROOT, database_url, other_client

pytestmark = pytest.mark.django_db(transaction=True)

PEOPLE = 10
APP = "db-worker-under-test"  # libpq's application name (PGAPPNAME): its connections alone


def told_ten() -> list[str]:
    addresses = []
    for number in range(PEOPLE):
        address = f"player{number}@example.com"
        user = get_user_model().objects.create_user(f"player{number}", address, "pw-101-long")
        services.tell(
            user=user,
            told=kinds.YourMove(
                table_id=number, moves_made=1, name=f"Table {number}", path=f"/play/{number}/"
            ),
        )
        addresses.append(address)
    assert Delivery.objects.filter(status=Delivery.Status.PENDING).count() == PEOPLE
    return addresses


def start_worker(
    smtp_port: int, worker_id: str = "machine-a", timeout: int = 10
) -> subprocess.Popen:
    environment = {
        "PATH": os.environ["PATH"],
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": database_url(),
        "DJANGO_EMAIL_HOST": "127.0.0.1",
        "DJANGO_EMAIL_PORT": str(smtp_port),
        "DJANGO_EMAIL_USE_TLS": "0",
        "DJANGO_EMAIL_TIMEOUT": str(timeout),
        "DJANGO_SITE_URL": "https://101.example",
        "PGAPPNAME": APP,
    }
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.1",
            "--worker-id",
            worker_id,
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def until(condition, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.05)


def settled() -> bool:
    return not Delivery.objects.filter(
        status__in=[Delivery.Status.PENDING, Delivery.Status.SENDING]
    ).exists()


def stop(worker: subprocess.Popen) -> str:
    worker.send_signal(signal.SIGTERM)
    try:
        output, _ = worker.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        output, _ = worker.communicate(timeout=10)
    return output


def test_a_worker_killed_while_sending_loses_only_the_message_in_flight(smtp_sink):
    addresses = told_ten()
    port = smtp_sink_port(smtp_sink)
    smtp_sink.slow = 3  # it has the message, and takes its time to say so
    worker = start_worker(port)
    try:
        until(lambda: len(smtp_sink.messages) == 1)
        os.killpg(worker.pid, signal.SIGKILL)  # kill -9, mid-send
        worker.wait(timeout=10)
        [in_flight] = Delivery.objects.filter(status=Delivery.Status.SENDING)
        assert Delivery.objects.filter(status=Delivery.Status.PENDING).count() == PEOPLE - 1
        smtp_sink.slow = 0
        # Started again on the same machine (the same id), it finds the task it left running.
        worker = start_worker(port)
        until(settled)
    finally:
        output = stop(worker)
    in_flight.refresh_from_db()
    assert in_flight.status == Delivery.Status.FAILED and in_flight.error == INTERRUPTED, output
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == PEOPLE - 1
    # Every person's message arrived once; the one in flight was not sent a second time.
    received = sorted(address for message in smtp_sink.messages for address in [message["To"]])
    assert received == sorted(addresses)


@pytest.mark.postgresql  # it ends PostgreSQL's connections
def test_connections_ended_again_and_again_while_sending_lose_and_double_nothing(smtp_sink):
    addresses = told_ten()
    smtp_sink.slow = 0.3
    ending = threading.Event()
    ended: list[int] = []

    def end_connections() -> None:
        with other_client() as client:
            while not ending.wait(0.5):
                ended.append(
                    client.execute(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = %s",
                        [APP],
                    ).fetchone()[0]
                )

    cutter = threading.Thread(target=end_connections)
    worker = start_worker(smtp_sink_port(smtp_sink))
    cutter.start()
    try:
        until(lambda: len(smtp_sink.messages) >= PEOPLE or settled(), timeout=90)
        until(settled, timeout=90)
    finally:
        ending.set()
        cutter.join(timeout=10)
        output = stop(worker)
    assert sum(ended) > 0, "no connection was ended: the test proves nothing"
    statuses = list(Delivery.objects.values_list("status", flat=True))
    assert statuses == [Delivery.Status.SENT] * PEOPLE, output
    received = sorted(message["To"] for message in smtp_sink.messages)
    assert received == sorted(addresses)


def smtp_sink_port(smtp_sink) -> int:
    from django.conf import settings

    return settings.MAILERS["default"]["OPTIONS"]["port"]


def test_sigterm_while_the_mail_server_hangs_waits_only_for_the_send_in_hand():
    from tests.isolation import Hanging

    told_ten()
    hanging = Hanging()
    worker = start_worker(hanging.port, timeout=3)
    try:
        until(lambda: hanging.held, timeout=30)  # the first send is connected, and waits
        stopped_at = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=30)
        took = time.monotonic() - stopped_at
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
        hanging.close()
    # It waited for that send's timeout (3 s), not for the ten.
    assert took < 3 + 3, (took, output)
    assert worker.returncode == 0, output
    # The send in hand ended in a retry; the others were not touched.
    assert Delivery.objects.filter(status=Delivery.Status.SENDING).count() == 0
    tried = Delivery.objects.filter(attempts=1)
    assert tried.count() == 1 and tried.get().status == Delivery.Status.PENDING
    assert Delivery.objects.filter(attempts=0).count() == PEOPLE - 1
