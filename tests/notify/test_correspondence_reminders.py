"""A correspondence move's time running low reaches the person: the worker's reminder is
written to notify's outbox once a move, in their language's words at sending."""

import datetime

import pytest

from notify.models import Kind, Notification
from tests.play.test_correspondence import HOUR, by_post, clock, mover, run_worker  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_person_to_move_is_reminded_once_before_their_time_runs_out(alice, bob, clock):  # noqa: F811
    table = by_post(alice, bob, days=2)
    to_move, other = mover(table, alice, bob)
    clock.move_on(36 * HOUR)  # 12 hours left
    run_worker()
    run_worker()
    reminders = Notification.objects.filter(kind=Kind.REMINDER)
    [reminder] = reminders
    assert reminder.user == to_move
    assert reminder.payload["table"] == table.pk and reminder.payload["what"] == "deadline"
    deadline = datetime.datetime.fromisoformat(reminder.payload["deadline"])
    assert deadline == clock.now + 12 * HOUR
    assert not reminders.filter(user=other).exists()
