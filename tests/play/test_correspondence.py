"""Correspondence tables: hours or days a move, the deadline, vacations that stop the clock
(within a yearly allowance), the stand-in when time runs out, the reminder before it, and the
moves due listed on the lobby and the home page."""

import datetime
import re
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import strip_tags

from play import correspondence, vacations
from play import services as play
from play.management.commands import play_worker
from play.models import PlayMove, PlayTable, Vacation
from play.signals import move_time_running_out
from tests.factories import run_tasks
from tests.play.test_play import game_of, table_form_data
from tests.play.test_table_choices import two_people

pytestmark = pytest.mark.django_db

RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HOUR, DAY = datetime.timedelta(hours=1), datetime.timedelta(days=1)


class FakeClock:
    """timezone.now as a test sets it: the services, the worker and the pages read it."""

    def __init__(self, monkeypatch) -> None:
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def move_on(self, by: datetime.timedelta) -> None:
        self.now += by


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    return FakeClock(monkeypatch)


def by_post(alice, bob, days: int = 2, seed: int = 3) -> PlayTable:
    """alice and bob at a table with `days` a move."""
    return two_people(alice, bob, move_seconds=days * 86400, seed=seed)


def mover(table, alice, bob):
    """Whose move it is, and the other one."""
    return (alice, bob) if game_of(table).to_move == 0 else (bob, alice)


def move(table, user) -> None:
    """`user` moves until it is the other's move (a draw may leave it theirs)."""
    seat = table.seats.get(user=user).position
    game = game_of(table)
    while game.to_move == seat and not game.round_over:
        play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
        game = game_of(table)
    assert not game.round_over


def text_of(html: str) -> str:
    """A page's words as read, without its tags, each run of spaces one space."""
    return " ".join(strip_tags(html).split())


def page(client, url, user, **headers) -> str:
    client.force_login(user)
    with translation.override("en"):
        return client.get(url, **headers).content.decode()


def run_worker() -> int:
    """The play worker's passes until no move is due (it closes its connection before each:
    the tests that run it use transactions of their own), then the tasks due (reminders,
    notifications). Returns the moves made."""
    made = play_worker.run(threading.Event(), until_idle=True)
    run_tasks()
    return made


# --- the deadline, worked out ----------------------------------------------------------------

T0 = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)


def test_a_deadline_is_the_move_time_after_the_move_began_without_vacations():
    assert correspondence.deadline(T0, 2 * 86400, []) == T0 + 2 * DAY


def test_a_vacation_within_the_move_moves_the_deadline_on_by_its_length():
    vacation = (T0 + DAY, T0 + 4 * DAY)
    assert correspondence.deadline(T0, 2 * 86400, [vacation]) == T0 + 5 * DAY


def test_only_the_part_of_a_vacation_after_the_move_began_counts():
    running = (T0 - 3 * DAY, T0 + DAY)
    assert correspondence.deadline(T0, 2 * 86400, [running]) == T0 + 3 * DAY


def test_a_vacation_after_the_deadline_or_over_before_the_move_changes_nothing():
    later, over = (T0 + 3 * DAY, T0 + 5 * DAY), (T0 - 5 * DAY, T0 - DAY)
    assert correspondence.deadline(T0, 2 * 86400, [later, over]) == T0 + 2 * DAY


def test_a_vacation_reached_only_because_an_earlier_one_moved_the_deadline_counts_too():
    first, second = (T0 + DAY, T0 + 2 * DAY), (T0 + 2 * DAY + HOUR * 12, T0 + 4 * DAY)
    # 2 days of clock: 1 day, the first vacation, 12 hours, the second, the last 12 hours.
    assert correspondence.deadline(T0, 2 * 86400, [second, first]) == T0 + 4 * DAY + 12 * HOUR


def test_the_reminder_comes_a_quarter_of_the_move_time_before_and_at_most_twelve_hours():
    assert correspondence.remind_at(T0, 3600) == T0 - datetime.timedelta(minutes=15)
    assert correspondence.remind_at(T0, 86400) == T0 - 6 * HOUR
    assert correspondence.remind_at(T0, 7 * 86400) == T0 - 12 * HOUR


@pytest.mark.parametrize(
    ("left", "english", "russian"),
    [
        (2 * DAY + 5 * HOUR, "2 days 5 hours", "2 дня 5 часов"),
        (DAY + HOUR, "1 day 1 hour", "1 день 1 час"),
        (5 * DAY, "5 days", "5 дней"),
        (21 * DAY + 2 * HOUR, "21 days 2 hours", "21 день 2 часа"),
        (datetime.timedelta(minutes=44, seconds=10), "45 minutes", "45 минут"),
        (HOUR + datetime.timedelta(minutes=1), "1 hour 1 minute", "1 час 1 минута"),
    ],
)
def test_the_time_left_is_said_in_words_with_plural_forms(left, english, russian):
    with translation.override("en"):
        assert correspondence.time_left(left) == english
    with translation.override("ru"):
        assert correspondence.time_left(left) == russian


# --- tables with days a move -----------------------------------------------------------------


def test_a_table_with_days_a_move_is_opened_from_the_form_and_says_so(client, alice):
    client.force_login(alice)
    form = client.get(reverse("play:new"), **RU).content.decode()
    assert "По переписке" in form and '<option value="259200">3 дня</option>' in form
    client.post(reverse("play:new"), table_form_data(move_seconds=str(3 * 86400)))
    table = PlayTable.objects.get()
    assert table.move_seconds == 3 * 86400 and table.by_correspondence
    assert "3 days a move, by correspondence" in page(client, table.get_absolute_url(), alice)
    assert "3 дня на ход, по переписке" in page(client, table.get_absolute_url(), alice, **RU)


def test_the_person_to_move_has_the_days_of_the_table_and_everyone_sees_how_long(
    client, alice, bob, carol, clock
):
    table = by_post(alice, bob, days=2)
    to_move, other = mover(table, alice, bob)
    assert table.server_moves_at == clock.now + 2 * DAY
    assert table.remind_at == clock.now + 2 * DAY - 12 * HOUR
    clock.move_on(19 * HOUR)
    mine = page(client, table.get_absolute_url(), to_move)
    assert "1 day 5 hours left" in mine  # beside her name, as others read it
    # Her own line says "left" once: «На ход осталось: 1 день 5 часов (до …)».
    assert re.search(r"Time left for your move: 1 day 5 hours \(until ", text_of(mine))
    ru = text_of(page(client, table.get_absolute_url(), to_move, **RU))
    assert re.search(r"На ход осталось: 1 день 5 часов \(до ", ru)
    assert "data-deadline" not in mine  # nothing counts days down second by second
    for viewer in (other, carol):
        assert "1 day 5 hours left" in page(client, table.get_absolute_url(), viewer)
    assert "ещё 1 день 5 часов" in page(client, table.get_absolute_url(), to_move, **RU)
    # Once the move is made, the other has the whole two days.
    move(table, to_move)
    assert table.server_moves_at == clock.now + 2 * DAY and table.clock_seat is not None


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_when_the_time_runs_out_the_worker_has_the_stand_in_play_as_at_a_live_table(
    alice, bob, clock
):
    table = by_post(alice, bob, days=1)
    to_move, _ = mover(table, alice, bob)
    seat = table.seats.get(user=to_move)
    clock.move_on(DAY - datetime.timedelta(seconds=1))
    assert run_worker() == 0  # the reminder's task ran, and no move was made
    assert not PlayMove.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.remind_at is None
    clock.move_on(datetime.timedelta(seconds=2))
    assert run_worker() == 1
    made = PlayMove.objects.get(table=table)
    assert made.seat == seat.position and made.by == "timer"
    seat.refresh_from_db()
    assert seat.timeouts == 1


# --- reminders -------------------------------------------------------------------------------


@pytest.fixture
def reminders():
    heard = []

    def hear(sender, **kwargs):
        heard.append(kwargs)

    move_time_running_out.connect(hear)
    yield heard
    move_time_running_out.disconnect(hear)


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_the_reminder_is_sent_once_a_move_when_the_time_runs_low(alice, bob, clock, reminders):
    table = by_post(alice, bob, days=2)
    to_move, other = mover(table, alice, bob)
    clock.move_on(36 * HOUR - datetime.timedelta(seconds=1))
    run_worker()
    assert reminders == []
    clock.move_on(datetime.timedelta(seconds=1))  # 12 hours left
    run_worker()
    run_worker()
    assert len(reminders) == 1
    heard = reminders[0]
    assert heard["table"].pk == table.pk and heard["user"] == to_move
    assert heard["seat"].user_id == to_move.pk and heard["deadline"] == clock.now + 12 * HOUR
    # The next move is reminded again, to the other.
    move(table, to_move)
    clock.move_on(36 * HOUR)
    run_worker()
    assert [heard["user"] for heard in reminders] == [to_move, other]


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_a_live_table_never_reminds(alice, bob, clock, reminders):
    table = two_people(alice, bob, move_seconds=120)
    assert table.remind_at is None
    clock.move_on(119 * datetime.timedelta(seconds=1))
    run_worker()
    assert reminders == []


# --- vacations -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_a_vacation_stops_the_clock_and_the_deadline_moves_on_by_its_length(
    client, alice, bob, clock
):
    table = by_post(alice, bob, days=2)
    to_move, other = mover(table, alice, bob)
    deadline = table.server_moves_at
    clock.move_on(HOUR)
    vacations.take_vacation(user=to_move, starts_at=clock.now, ends_at=clock.now + 3 * DAY)
    table.refresh_from_db()
    assert table.server_moves_at == deadline + 3 * DAY
    # The old deadline passes: the worker makes no move.
    clock.move_on(2 * DAY)
    assert run_worker() == 0
    assert not PlayMove.objects.filter(table=table).exists()
    # The others at the table see it; the page in Russian too.
    body = page(client, table.get_absolute_url(), other)
    assert "on vacation until" in body
    assert "в отпуске до" in page(client, table.get_absolute_url(), other, **RU)


def test_a_vacation_ended_early_gives_back_the_days_not_taken(alice, bob, clock):
    table = by_post(alice, bob, days=2)
    to_move, _ = mover(table, alice, bob)
    deadline = table.server_moves_at
    vacations.take_vacation(user=to_move, starts_at=clock.now, ends_at=clock.now + 10 * DAY)
    clock.move_on(DAY)
    vacations.end_vacation(user=to_move)
    table.refresh_from_db()
    assert table.server_moves_at == deadline + DAY
    assert (
        vacations.days_taken(to_move, clock.now.astimezone(timezone.get_current_timezone()).year)
        == 1
    )


def test_a_vacation_ended_within_its_first_hour_is_undone(alice, bob, clock):
    table = by_post(alice, bob, days=2)
    to_move, _ = mover(table, alice, bob)
    deadline = table.server_moves_at
    vacations.take_vacation(user=to_move, starts_at=clock.now, ends_at=clock.now + 7 * DAY)
    clock.move_on(datetime.timedelta(minutes=1))
    vacations.end_vacation(user=to_move)
    table.refresh_from_db()
    # Neither a day of the year's allowance nor a change of the deadline: as if never taken.
    assert table.server_moves_at == deadline
    year = clock.now.astimezone(timezone.get_current_timezone()).year
    assert vacations.days_taken(to_move, year) == 0


def test_short_vacations_together_take_the_days_they_add_up_to(alice, clock):
    for start in (0, 2):
        vacations.take_vacation(
            user=alice,
            starts_at=clock.now + start * DAY,
            ends_at=clock.now + start * DAY + 10 * HOUR,
        )
    year = clock.now.astimezone(timezone.get_current_timezone()).year
    # Twenty hours: one day, not two.
    assert vacations.days_taken(alice, year) == 1


def test_a_vacation_planned_ahead_counts_for_a_move_begun_before_it(alice, bob, clock):
    table = by_post(alice, bob, days=2)
    to_move, other = mover(table, alice, bob)
    vacations.take_vacation(user=other, starts_at=clock.now + DAY, ends_at=clock.now + 4 * DAY)
    move(table, to_move)  # other's move begins: their vacation starts within it
    assert table.server_moves_at == clock.now + 5 * DAY


def test_a_vacation_leaves_live_tables_alone(alice, bob, clock):
    table = two_people(alice, bob, move_seconds=60)
    to_move, _ = mover(table, alice, bob)
    deadline = table.server_moves_at
    vacations.take_vacation(user=to_move, starts_at=clock.now, ends_at=clock.now + 3 * DAY)
    table.refresh_from_db()
    assert table.server_moves_at == deadline


def test_the_yearly_allowance_refuses_too_many_days_with_a_clear_message(alice, clock, settings):
    settings.PLAY_VACATION_DAYS = 30
    clock.now = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)
    vacations.take_vacation(user=alice, starts_at=clock.now, ends_at=clock.now + 20 * DAY)
    start = clock.now + 60 * DAY
    with pytest.raises(
        vacations.VacationError,
        match=r"You have 10 vacation days left in 2026; this vacation takes 15\.",
    ):
        vacations.take_vacation(user=alice, starts_at=start, ends_at=start + 15 * DAY)
    in_russian = pytest.raises(vacations.VacationError, match="у вас осталось 10 дней отпуска")
    with translation.override("ru"), in_russian:
        vacations.take_vacation(user=alice, starts_at=start, ends_at=start + 15 * DAY)
    # The ten left are given; the next year has its own thirty.
    vacations.take_vacation(user=alice, starts_at=start, ends_at=start + 10 * DAY)
    next_year = datetime.datetime(2027, 1, 5, tzinfo=datetime.UTC)
    vacations.take_vacation(user=alice, starts_at=next_year, ends_at=next_year + 30 * DAY)
    assert Vacation.objects.filter(user=alice).count() == 3


def test_two_vacations_at_once_are_refused(alice, clock):
    vacations.take_vacation(user=alice, starts_at=clock.now, ends_at=clock.now + 5 * DAY)
    with pytest.raises(vacations.VacationError, match="already have a vacation"):
        vacations.take_vacation(user=alice, starts_at=clock.now + DAY, ends_at=clock.now + 7 * DAY)


def test_the_vacation_page_starts_one_now_for_some_days_and_ends_it(client, alice, clock):
    client.force_login(alice)
    url = reverse("play:vacation")
    body = client.get(url, **RU).content.decode()
    assert "Отпуск" in body and "30 дней отпуска в календарный год" in body
    response = client.post(url, {"action": "days", "days-days": "5"})
    assert response.status_code == 302
    vacation = Vacation.objects.get(user=alice)
    assert vacation.ends_at - vacation.starts_at == 5 * DAY
    body = client.get(url, **EN).content.decode()
    assert "You are on vacation" in body and "25 days are left" in body
    clock.move_on(DAY)
    client.post(url, {"action": "end"})
    vacation.refresh_from_db()
    assert vacation.ends_at == clock.now
    assert "You are on vacation" not in client.get(url, **EN).content.decode()


def test_the_vacation_page_plans_one_from_a_day_to_another_or_says_why_not(
    client, alice, clock, settings
):
    settings.PLAY_VACATION_DAYS = 30
    clock.now = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)  # in one year
    client.force_login(alice)
    url = reverse("play:vacation")
    today = timezone.localdate()
    first = today + datetime.timedelta(days=10)
    response = client.post(
        url,
        {
            "action": "dates",
            "dates-starts": first.isoformat(),
            "dates-ends": (first + datetime.timedelta(days=40)).isoformat(),
        },
        **RU,
    )
    assert "осталось 30 дней отпуска" in response.content.decode()
    assert not Vacation.objects.exists()
    client.post(
        url,
        {
            "action": "dates",
            "dates-starts": first.isoformat(),
            "dates-ends": (first + datetime.timedelta(days=6)).isoformat(),
        },
    )
    vacation = Vacation.objects.get()
    assert vacation.ends_at - vacation.starts_at == 7 * DAY
    body = client.get(url, **EN).content.decode()
    assert "Your vacation is planned" in body and "Cancel the vacation" in body
    client.post(url, {"action": "end"})
    assert not Vacation.objects.exists()


# --- the moves due, on the lobby and the home page -------------------------------------------


def tables_where_it_is_alices_move(alice, bob, carol, count: int) -> list[PlayTable]:
    tables = []
    for seed in range(200):
        if len(tables) == count:
            break
        days = len(tables) % 3 + 1
        table = by_post(alice, bob if seed % 2 else carol, days=days, seed=seed)
        if game_of(table).to_move == 0:
            tables.append(table)
        else:
            table.delete()
    return tables


@pytest.mark.parametrize(
    ("url", "headers", "title", "left"),
    [
        ("home", EN, "Your move by correspondence", "1 day left"),
        ("home", RU, "Ваш ход по переписке", "ещё 1 день"),
        ("play:lobby", EN, "Your move by correspondence", "1 day left"),
        ("play:lobby", RU, "Ваш ход по переписке", "ещё 1 день"),
    ],
)
def test_the_moves_due_are_listed_the_most_urgent_first(
    client, alice, bob, carol, clock, url, headers, title, left
):
    tables = tables_where_it_is_alices_move(alice, bob, carol, 3)  # 1, 2 and 3 days
    client.force_login(alice)
    body = client.get(reverse(url), **headers).content.decode()
    assert title in body
    listed = body[
        body.index('id="moves-due-title"') : body.index("</section>", body.index("moves-due-title"))
    ]
    order = [listed.index(table.get_absolute_url() + '"') for table in tables]
    assert order == sorted(order)
    assert left in listed
    # bob, whose move it is nowhere, sees no such list.
    client.force_login(bob)
    assert title not in client.get(reverse(url), **headers).content.decode()


def test_the_moves_due_are_read_in_two_queries_however_many(alice, bob, carol, clock):
    from play.queries import moves_due

    tables_where_it_is_alices_move(alice, bob, carol, 1)
    with CaptureQueriesContext(connection) as one:
        assert len(moves_due(alice)) == 1
    tables_where_it_is_alices_move(alice, bob, carol, 3)
    with CaptureQueriesContext(connection) as four:
        assert len(moves_due(alice)) == 4
    assert len(one) == len(four) == 2


@pytest.mark.parametrize(
    ("starts", "ends"), [("9999-12-31", "9999-12-31"), ("2026-03-10", "9999-12-31")]
)
def test_a_vacation_that_ends_in_the_year_9999_is_refused_with_a_reason(
    client, alice, clock, starts, ends
):
    """The day after the last (where the vacation's end is kept) was past any date there is:
    an OverflowError, a 500."""
    clock.now = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)
    client.force_login(alice)
    data = {"action": "dates", "dates-starts": starts, "dates-ends": ends}
    response = client.post(reverse("play:vacation"), data, **RU)
    assert response.status_code == 200
    assert "Возьмите отпуск, который закончится в ближайшие два года." in response.content.decode()
    assert not Vacation.objects.exists()
