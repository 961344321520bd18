"""What tests build and do with the site's own services (a match seated, rounds recorded,
played out, changed; calls run at once): helpers to import, where conftest.py holds only
fixtures and the suite's hooks."""

import contextlib
import datetime
import threading
from unittest import mock

from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_tasks_db.management.commands import db_worker as library_worker
from django_tasks_db.models import DBTaskResult

from cards101.rules import PRESETS
from core import tasks
from games import services


def counts_tables_of(user, keeper):
    """`user` confirms, as on the claims page, that a guest `keeper` named after them is them:
    from then on `keeper`'s tables count for `user` at once (tests/claims/test_consent.py)."""
    from claims import services as claims
    from claims.models import Claim

    services.players_for_names([user.get_username()], added_by=keeper)
    claim = Claim.objects.get(user=user, asked_by=keeper, status=Claim.Status.PENDING)
    claims.decide(claim=claim, approve=True, by=user)


def make_match(creator, names, preset="classic", **options):
    """A match seated with these players: account usernames or guest names."""
    variant = PRESETS[preset].replace(**options)
    return services.start_match(created_by=creator, names=names, preset=preset, variant=variant)


def rules_form_data(preset: str = "classic") -> dict[str, str]:
    """The rules fields of a form as a browser posts them: the preset's values, ticked boxes."""
    data = {"preset": preset}
    for name, value in PRESETS[preset].as_dict().items():
        if value is True:
            data[name] = "on"
        elif value is not False:
            data[name] = str(value)
    return data


def by_seat(match, outcomes_by_name: dict) -> dict[int, dict]:
    """Outcomes written by player name (names unique at the table) keyed by seat position."""
    position = dict(match.seats.values_list("player__name", "position"))
    return {position[name]: outcome for name, outcome in outcomes_by_name.items()}


def record(match, user, *rounds) -> None:
    """Enter rounds written by player name, each on the version the sheet then showed."""
    for outcomes in rounds:
        match.refresh_from_db()
        services.record_round(
            match=match, outcomes=by_seat(match, outcomes), version=match.version, by=user
        )
    match.refresh_from_db()


def round_at(match, number: int):
    """The match's round that now has this number."""
    return match.rounds.get(number=number)


def change(match, user, number: int, outcomes_by_name: dict):
    """Change round `number` as the edit form would, made on the round as it is now."""
    round_ = round_at(match, number)
    return services.change_round(
        match=match,
        round_id=round_.pk,
        version=round_.version,
        outcomes=by_seat(match, outcomes_by_name),
        by=user,
    )


def delete(match, user, number: int) -> int:
    """Delete round `number` as the confirmation page would, made on the round as it is now."""
    round_ = round_at(match, number)
    return services.delete_round(match=match, round_id=round_.pk, version=round_.version, by=user)


def play_out(match, by, winner_index: int = 0) -> None:
    """Deals that end a classic match: one seat goes out, the others go over 101 (a table of
    four in two deals: three hands cannot hold that much at once)."""
    seats = list(match.seats.order_by("position"))
    for points in [102] if len(seats) < 4 else [60, 42]:
        match.refresh_from_db()
        outcomes = {
            seat.position: {"out": "7C"} if index == winner_index else {"points": points + index}
            for index, seat in enumerate(seats)
        }
        services.record_round(match=match, outcomes=outcomes, version=match.version, by=by)
    match.refresh_from_db()


def at_once(*calls):
    """Run the calls in threads released together; each returns what its call returned or
    the exception it raised."""
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the test looks at what each one met
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def run_tasks(now: datetime.datetime | None = None) -> int:
    """What `manage.py db_worker` does, in this process, until no task is ready (by `now`, the
    clock held there if given): the periodic looks (each made once a call, as if its time had
    come), then every task due. Returns how many ran.
    In the test's transaction: the worker's closing of old connections would close the
    test's, and is left out."""
    ran: list[int] = []
    original = library_worker.Worker.run_task
    # The periodic looks are made at each call, as if their time had come.
    DBTaskResult.objects.filter(
        status="READY", task_path__in=[the_task.module_path for the_task, _ in tasks.PERIODIC]
    ).update(run_after=now or timezone.now())

    def counted(worker, row):
        ran.append(1)
        return original(worker, row)

    with contextlib.ExitStack() as stack:
        for module in (
            "django_tasks_db.management.commands.db_worker",
            "config.management.commands.db_worker",
            "core.tasks",
        ):
            stack.enter_context(mock.patch(f"{module}.close_old_connections"))
        stack.enter_context(
            mock.patch("django_tasks_db.management.commands.db_worker.Worker.run_task", counted)
        )
        if now is not None:
            stack.enter_context(mock.patch("django.utils.timezone.now", return_value=now))
        call_command(
            "db_worker",
            "--batch",
            "--no-reload",
            "--no-startup-delay",
            "--worker-id",
            "tests",
            verbosity=0,
        )
    return len(ran)


def tasks_worker(worker_id: str, *, batch: bool = True, interval: float = 0):
    """A tasks' worker of its own (what `manage.py db_worker` runs), for a thread: `batch`, it
    stops once no task is ready; else when its `running` is cleared."""
    return library_worker.Worker(
        queue_names=["*"],
        interval=interval,
        batch=batch,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )


def linked_telegram(user, chat_id: int) -> None:
    """`user` has linked their private Telegram chat `chat_id` for notifications."""
    from notify.models import TelegramLink
    from telegram.models import Chat

    chat, _created = Chat.objects.get_or_create(chat_id=chat_id, defaults={"kind": "private"})
    TelegramLink.objects.create(user=user, chat=chat)


def confirmed_email(user) -> None:
    """`user` confirmed their address (allauth's link in the e-mail it sent)."""
    from allauth.account.models import EmailAddress

    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )


def words_on_page(client, url: str, language: str = "en") -> str:
    """The words of the page at `url` as `client` reads it in `language`: tags dropped (a
    block's edge a space, an inline tag nothing), entities read, spaces collapsed (what a
    reader sees)."""
    import html
    import re

    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.status_code
    page = re.sub(
        r"</?(?:td|th|tr|p|li|div|h\d|br|section|table)\b[^>]*>", " ", response.content.decode()
    )
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
