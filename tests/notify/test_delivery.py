"""Sending: never twice, even with two workers and a channel that fails midway; retried with
backoff, given up after a limit (and shown on the person's page); a worker stopped while
sending leaves nothing sent twice; quiet hours keep messages and send them together."""

import datetime
import threading
import time

import pytest
from django.utils import timezone

from notify import delivery, services
from notify.channels import CHANNELS, GiveUp, TryLater
from notify.models import Delivery, Settings
from tests.factories import at_once


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


def tell(user, key: str, path: str = ""):
    payload = {"name": key} | ({"path": path} if path else {})
    return services.tell(user=user, kind="your_move", key=key, payload=payload)


@pytest.mark.django_db(transaction=True)
def test_two_workers_and_a_channel_that_fails_midway_send_each_message_once(
    alice, bob, carol, flaky
):
    for user in (alice, bob, carol):
        for number in range(3):
            tell(user, f"table {number}")
    assert Delivery.objects.count() == 9
    at_once(delivery.send_due, delivery.send_due)
    # One message a person (their three together); one failed and waits for its retry; the
    # others went, each once.
    assert len(flaky.sent) == 2
    waiting = Delivery.objects.filter(status=Delivery.Status.PENDING)
    assert waiting.count() == 3
    assert {d.attempts for d in waiting} == {1}
    waiting.update(due_at=timezone.now())
    at_once(delivery.send_due, delivery.send_due)
    told = [user for user, _title in flaky.sent]
    assert sorted(told) == sorted([alice.pk, bob.pk, carol.pk])
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == 9


@pytest.mark.django_db
def test_a_failed_send_is_retried_later_and_later_then_given_up_and_shown(alice, client, flaky):
    flaky.failures = 100
    tell(alice, "Friday table")
    now = timezone.now()
    delivery.send_due(now)
    first = Delivery.objects.get()
    assert first.status == Delivery.Status.PENDING
    assert first.due_at == now + datetime.timedelta(seconds=30)
    Delivery.objects.update(due_at=now)
    delivery.send_due(now)
    assert Delivery.objects.get().due_at == now + datetime.timedelta(seconds=60)
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "2 attempts failed" in page
    # The last attempt fails too: given up, and the page says why.
    Delivery.objects.update(attempts=delivery.MOST_ATTEMPTS - 1, due_at=now)
    delivery.send_due(now)
    given_up = Delivery.objects.get()
    assert given_up.status == Delivery.Status.FAILED
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
    delivery.send_due()
    assert Delivery.objects.get().status == Delivery.Status.FAILED
    assert flaky.calls == 1


@pytest.mark.django_db
def test_a_worker_stopped_while_sending_leaves_it_given_up_not_sent_again(alice, flaky):
    flaky.failures = 0
    tell(alice, "Friday table")
    now = timezone.now()
    # The worker took it and stopped before it could say it was sent.
    assert len(delivery.claim(now)) == 1
    delivery.send_due(now + datetime.timedelta(minutes=1))
    assert flaky.sent == []  # still its worker's (the lease runs)
    delivery.send_due(now + delivery.LEASE + datetime.timedelta(seconds=1))
    assert flaky.sent == []
    given_up = Delivery.objects.get()
    assert given_up.status == Delivery.Status.FAILED
    assert "interrupted" in given_up.error


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
    delivery.send_due(morning - datetime.timedelta(seconds=1))
    assert flaky.sent == []
    delivery.send_due(morning)
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

        self.patch = mock.patch("notify.services.timezone.now", return_value=self.moment)
        self.patch.start()

    def __exit__(self, *exc):
        self.patch.stop()
