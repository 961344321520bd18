"""Telegram's limits kept by every process that sends (telegram.pace): the moments are taken in
the database, so two senders (two workers, here two Pace objects with nothing in memory in
common) share one budget of 25 messages a second and one a second to a chat."""

import pytest

from telegram.bot import Unavailable
from telegram.models import Pace as Moment
from telegram.pace import Pace, forget
from tests.fake_telegram import PaceClock

pytestmark = pytest.mark.django_db


def test_one_message_a_second_to_a_chat_and_25_a_second_in_all():
    clock = PaceClock()
    pace = Pace(clock=clock.time, sleep=clock.sleep)
    started = clock.now
    for chat in range(1, 51):
        pace.wait(chat)
    assert clock.now - started == pytest.approx(49 / 25)
    pace.wait(7)
    started = clock.now
    pace.wait(7)
    assert clock.now - started == pytest.approx(1.0)
    assert clock.slept[-1] == pytest.approx(1.0)


def test_two_senders_share_the_budget_and_each_chats_second():
    clock = PaceClock()
    one = Pace(clock=clock.time, sleep=lambda seconds: None)
    two = Pace(clock=clock.time, sleep=lambda seconds: None)
    # The clock stands still: each takes the next free moment, whoever took the last one.
    waits = [
        sender.reserve(chat) for chat, sender in zip(range(1, 11), [one, two] * 5, strict=True)
    ]
    assert waits == pytest.approx([n / 25 for n in range(10)])
    assert one.reserve(77) == pytest.approx(10 / 25)
    assert two.reserve(77) == pytest.approx(10 / 25 + 1.0)  # the chat's second, taken by one


def test_a_long_wait_is_handed_back_and_takes_no_moment():
    clock = PaceClock()
    pace = Pace(clock=clock.time, sleep=lambda seconds: None, patience=3)
    for _ in range(4):
        pace.wait(7)
    with pytest.raises(Unavailable) as raised:
        pace.wait(7)
    assert raised.value.after == pytest.approx(4)
    with pytest.raises(Unavailable) as again:
        pace.wait(7)
    assert again.value.after == pytest.approx(4)  # the refused one took no moment


def test_chats_whose_moment_is_over_are_forgotten_and_the_budget_kept():
    clock = PaceClock()
    pace = Pace(clock=clock.time, sleep=clock.sleep)
    pace.wait(1)
    pace.wait(2)
    assert forget(before=clock.now + 10) == 2
    assert list(Moment.objects.values_list("key", flat=True)) == [0]
