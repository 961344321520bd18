"""Sending, a task a delivery: never twice, even with two workers and a channel that fails
midway; retried with backoff (each next attempt a task of its own), given up after a limit
(and shown on the person's page); a worker stopped while sending leaves nothing sent twice;
quiet hours keep messages and send them together."""

import datetime
import threading
import time

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from notify import kinds, services
from notify.channels import CHANNELS, GiveUp, TryLater
from notify.models import Delivery, Settings
from notify.services import deliveries as delivery
from tests.factories import at_once, run_tasks, tasks_worker


class FlakyChannel:
    """E-mail that fails its first `failures` sends (TryLater), slowly, and keeps the rest."""

    name = "email"
    panel_template = None

    def __init__(self, failures: int = 1, error=TryLater) -> None:
        self.failures = failures
        self.error = error
        self.calls = 0
        self.sent: list[tuple[int, str]] = []
        self.texts: list[tuple[str, str, str]] = []
        self.lock = threading.Lock()

    def linked(self, user) -> bool:
        return bool(user.email)

    def send(self, notification, *, title, text, url) -> None:
        self.texts.append((title, text, url))
        with self.lock:
            self.calls += 1
            failing = self.calls <= self.failures
        time.sleep(0.05)  # the other worker looks meanwhile
        if failing:
            raise self.error("the server is away")
        with self.lock:
            self.sent.append((notification.user_id, title))


@pytest.fixture
def flaky(monkeypatch):
    channel = FlakyChannel()
    monkeypatch.setitem(CHANNELS, "email", channel)
    return channel


def tell(user, name: str, path: str = ""):
    """`user` told their move waits at the table called `name` (one event a name)."""
    table_id = TABLES.setdefault(name, len(TABLES) + 1)
    return services.tell(user=user, told=kinds.YourMove(table_id=table_id, name=name, path=path))


TABLES: dict[str, int] = {}


def a_worker(worker_id: str):
    """A tasks' worker of its own (`manage.py db_worker --batch`), for a thread."""
    return tasks_worker(worker_id).run


def deliveries_task_rows():
    return DBTaskResult.objects.filter(task_path="notify.services.deliveries.deliver")


@pytest.mark.django_db(transaction=True)
def test_two_workers_and_a_channel_that_fails_midway_send_each_message_once(
    alice, bob, carol, flaky
):
    for user in (alice, bob, carol):
        for number in range(3):
            tell(user, f"table {number}")
    assert Delivery.objects.count() == 9
    # Each delivery's task written with it.
    assert deliveries_task_rows().filter(status="READY").count() == 9
    at_once(a_worker("one"), a_worker("two"))
    # One message a person (their three together); one failed and waits for its retry; the
    # others went, each once.
    assert len(flaky.sent) == 2
    waiting = Delivery.objects.filter(status=Delivery.Status.PENDING)
    assert waiting.count() == 3
    assert {d.attempts for d in waiting} == {1}
    # The retries' time comes (each the same for alice's three: still one message).
    retries = deliveries_task_rows().filter(status="READY")
    assert retries.count() == 3
    assert len({d.due_at for d in waiting}) == 1
    retries.update(run_after=timezone.now())
    waiting.update(due_at=timezone.now())
    at_once(a_worker("one"), a_worker("two"))
    told = [user for user, _title in flaky.sent]
    assert sorted(told) == sorted([alice.pk, bob.pk, carol.pk])
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == 9
    assert not deliveries_task_rows().filter(status__in=["READY", "RUNNING"]).exists()


@pytest.mark.django_db
def test_a_failed_send_is_retried_later_and_later_then_given_up_and_shown(alice, client, flaky):
    flaky.failures = 100
    tell(alice, "Friday table")
    now = timezone.now()
    run_tasks(now)
    first = Delivery.objects.get()
    assert first.status == Delivery.Status.PENDING
    assert first.due_at == now + datetime.timedelta(seconds=30)
    # Not before its time...
    run_tasks(now + datetime.timedelta(seconds=29))
    assert flaky.calls == 1
    # ...then again, twice as late the next time.
    later = now + datetime.timedelta(seconds=30)
    run_tasks(later)
    assert Delivery.objects.get().due_at == later + datetime.timedelta(seconds=60)
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "2 attempts failed" in page
    # Each next attempt fails too, until the last: given up, and the page says why.
    for hours in range(1, delivery.MOST_ATTEMPTS + 2):
        run_tasks(now + datetime.timedelta(hours=hours))
    assert flaky.calls == delivery.MOST_ATTEMPTS
    given_up = Delivery.objects.get()
    assert given_up.status == Delivery.Status.FAILED
    assert not deliveries_task_rows().filter(status="READY").exists()
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "given up" in page
    assert "the server is away" in page


def test_the_backoff_doubles_up_to_an_hour_and_honours_the_channels_hint():
    assert delivery.backoff(1) == datetime.timedelta(seconds=30)
    assert delivery.backoff(3) == datetime.timedelta(minutes=2)
    assert delivery.backoff(20) == datetime.timedelta(hours=1)
    assert delivery.backoff(1, after=90) == datetime.timedelta(seconds=90)


@pytest.mark.django_db
def test_a_channel_that_gives_up_fails_at_once(alice, flaky):
    flaky.error = GiveUp
    tell(alice, "Friday table")
    run_tasks()
    assert Delivery.objects.get().status == Delivery.Status.FAILED
    assert flaky.calls == 1


@pytest.mark.django_db
def test_a_worker_stopped_while_sending_leaves_it_given_up_not_sent_again(alice, flaky):
    flaky.failures = 0
    told = tell(alice, "Friday table")
    [sending] = told.deliveries.all()
    # The worker "tests" took its task and marked it sending, and was killed before it could
    # say it was sent.
    row = deliveries_task_rows().get()
    row.claim("tests")
    assert delivery._take(sending.pk, 1).group == [sending]
    # Started again, it finds the task it left running: run again, it gives the delivery up
    # rather than send it a second time.
    run_tasks()
    assert flaky.sent == []
    given_up = Delivery.objects.get()
    assert given_up.status == Delivery.Status.FAILED
    assert "interrupted" in given_up.error
    row.refresh_from_db()
    assert row.status == "SUCCESSFUL"


@pytest.mark.django_db
def test_another_workers_running_task_is_left_to_it(alice, flaky):
    flaky.failures = 0
    told = tell(alice, "Friday table")
    [sending] = told.deliveries.all()
    deliveries_task_rows().get().claim("another machine")
    delivery._take(sending.pk, 1)
    run_tasks()
    assert Delivery.objects.get().status == Delivery.Status.SENDING
    assert deliveries_task_rows().get().status == "RUNNING"


@pytest.mark.django_db
def test_quiet_hours_keep_messages_until_they_end_and_send_them_together(alice, flaky, settings):
    settings.SITE_URL = "https://101.example"
    flaky.failures = 0
    Settings.objects.create(
        user=alice,
        quiet_from=datetime.time(22, 0),
        quiet_until=datetime.time(8, 0),
        time_zone="Europe/Moscow",
        language="en",
    )
    night = datetime.datetime(
        2026, 11, 28, 23, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=3))
    )
    with time_is(night):
        tell(alice, "Friday table", "/play/7/")
        tell(alice, "Saturday table", "/play/8/")
    morning = datetime.datetime(2026, 11, 29, 5, 0, tzinfo=datetime.UTC)  # 08:00 in Moscow
    assert set(Delivery.objects.values_list("due_at", flat=True)) == {morning}
    run_tasks(morning - datetime.timedelta(seconds=1))
    assert flaky.sent == []
    run_tasks(morning)
    [(_pk, title)] = flaky.sent
    assert title == "2 notifications"
    # Each kept message with its own link: the digest is not a dead end.
    [(_title, text, url)] = flaky.texts
    assert text == (
        "• Your move: Friday table\n  https://101.example/play/7/\n"
        "• Your move: Saturday table\n  https://101.example/play/8/"
    )
    assert url == "https://101.example/notifications/"
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == 2


@pytest.mark.django_db
def test_the_same_event_is_told_once(alice, flaky):
    assert tell(alice, "Friday table") is not None
    assert tell(alice, "Friday table") is None
    assert Delivery.objects.count() == 1


class time_is:
    """timezone.now() is `moment` inside (for what tell() stamps)."""

    def __init__(self, moment: datetime.datetime) -> None:
        self.moment = moment

    def __enter__(self):
        from unittest import mock

        self.patch = mock.patch("django.utils.timezone.now", return_value=self.moment)
        self.patch.start()

    def __exit__(self, *exc):
        self.patch.stop()


@pytest.mark.django_db
def test_a_delivery_queued_before_the_task_moved_is_sent_after_the_upgrade(alice, flaky):
    """Tasks written while the task was notify.delivery.deliver name that path, which no
    longer imports; migration notify 0008 renames them, and they run."""
    from importlib import import_module
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    moved = import_module("notify.migrations.0008_deliveries_task_path")
    flaky.failures = 0
    tell(alice, "Before the move")
    deliveries_task_rows().update(task_path=moved.OLD)
    moved.rename(apps, SimpleNamespace(connection=connection))  # what RunPython is given
    assert run_tasks() >= 1
    assert flaky.sent == [(alice.pk, flaky.texts[0][0])]
    assert Delivery.objects.get().status == Delivery.Status.SENT
