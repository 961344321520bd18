"""The worker's pass reviews waiting rounds decision by decision: each decision written once,
even by two workers; it yields to a table that owes a move; a worker killed midway is taken
over once its lease runs out; a round that cannot be replayed fails; an outage of the
database stops a pass, and the next goes on where it stopped."""

from __future__ import annotations

import datetime
import time

import pytest
from django.db import OperationalError
from django.utils import timezone

from cards101 import analysis
from coach import services, worker
from coach.models import ReviewedDecision, RoundReview
from play.management.commands import play_worker
from play.models import PlayMove, PlayTable
from tests.coach.factories import played_table
from tests.factories import at_once

BUDGET = 0.003
LONG = 60.0  # seconds: a slice that does not end while a test looks


def never() -> bool:
    return False


@pytest.fixture(autouse=True)
def _fresh_worker():
    worker.forget()
    yield
    worker.forget()


def no_table_due() -> None:
    """The tables these tests play leave their next deal due: not what they look at."""
    PlayTable.objects.update(server_moves_at=None)


def expected(review: RoundReview) -> list[analysis.Decision]:
    start, moves, _ = services.round_to_review(review)
    seed = services.review_seed(review.table.seed, review.round)
    return analysis.review(start, moves, budget=BUDGET, seed=seed)


def until_idle(**kwargs) -> int:
    """Passes until no review waits; returns the decisions this worker wrote."""
    written = 0
    while True:
        now = worker.review_due(budget=BUDGET, **kwargs)
        if not now:
            if not RoundReview.objects.filter(status="waiting").exists():
                return written
            time.sleep(0.01)  # another worker holds what is left
        written += now


@pytest.mark.django_db
def test_a_pass_reviews_a_finished_round_every_seat_bots_too_and_marks_it_done(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    assert review.status == "waiting"
    written = worker.review_due(budget=BUDGET, slice_seconds=LONG)
    review.refresh_from_db()
    assert review.status == "done"
    assert review.version == 2
    assert review.done_at is not None and review.leased_until is None
    assert review.next_index == table.moves.filter(round=0).count()
    rows = list(review.decisions.order_by("index"))
    assert written == len(rows) > 0
    # The same review as the library's, with the worker's seed: the same every time.
    assert [(row.index, row.seat, row.played, row.best, row.label) for row in rows] == [
        (d.index, d.seat, d.played.to_json(), d.best.to_json(), d.label) for d in expected(review)
    ]
    seats = dict(table.seats.values_list("position", "player_id"))
    assert {row.seat for row in rows} == {0, 1, 2, 3}
    assert all(row.player_id == seats[row.seat] for row in rows)
    assert {row.by for row in rows if row.seat == 0} == {""}
    assert {row.by for row in rows if row.seat != 0} == {"greedy"}


@pytest.mark.django_db
def test_a_pass_stops_between_two_decisions_when_a_table_owes_a_move(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    looks = []

    def due_after_the_first_decision() -> bool:
        looks.append(1)
        if len(looks) == 2:  # the first decision is written: a bot's move comes due
            PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
        return worker._a_table_is_due()

    assert (
        worker.review_due(budget=BUDGET, slice_seconds=LONG, table_due=due_after_the_first_decision)
        == 1
    )
    review.refresh_from_db()
    assert review.status == "waiting" and review.decisions.count() == 1
    # While the table owes its move, a pass does nothing at all.
    assert worker.review_due(budget=BUDGET, slice_seconds=LONG) == 0
    no_table_due()
    rest = worker.review_due(budget=BUDGET, slice_seconds=LONG)
    review.refresh_from_db()
    assert review.status == "done"
    assert review.decisions.count() == rest + 1 == len(expected(review))


@pytest.mark.django_db
def test_a_pass_stops_after_its_time_slice_and_the_next_goes_on(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    passes = []
    while RoundReview.objects.filter(pk=review.pk, status="waiting").exists():
        passes.append(worker.review_due(budget=BUDGET, slice_seconds=0.000_001))
        assert len(passes) < 500
    assert max(passes) == 1  # a decision a pass, each written once
    assert review.decisions.count() == sum(passes) == len(expected(review))


@pytest.mark.django_db
def test_a_killed_workers_lease_runs_out_and_another_finishes_the_round(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    # The first worker writes a decision, then is killed.
    assert worker.review_due(budget=BUDGET, slice_seconds=0.000_001) == 1
    worker.forget()
    # Another finds it held while the lease runs...
    assert worker.review_due(budget=BUDGET, slice_seconds=LONG) == 0
    # ...and takes it over after, from the decision after the one written.
    later = timezone.now() + worker.LEASE + datetime.timedelta(seconds=1)
    assert worker.review_due(later, budget=BUDGET, slice_seconds=LONG) > 0
    review.refresh_from_db()
    assert review.status == "done"
    indexes = list(review.decisions.values_list("index", flat=True))
    assert indexes == [d.index for d in expected(review)]


@pytest.mark.django_db
def test_a_round_whose_moves_do_not_replay_fails_and_is_not_tried_again(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    first = PlayMove.objects.filter(table=table, round=0).order_by("number").first()
    first.move = {"kind": "pass"}  # nobody may pass before drawing
    first.save()
    assert worker.review_due(budget=BUDGET, slice_seconds=LONG) == 0
    review.refresh_from_db()
    assert review.status == "failed"
    assert review.error
    assert review.version == 2
    assert worker.review_due(budget=BUDGET, slice_seconds=LONG) == 0
    review.refresh_from_db()
    assert review.status == "failed" and review.version == 2


@pytest.mark.django_db
def test_an_outage_stops_the_pass_and_the_next_goes_on_where_it_stopped(alice, monkeypatch):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    keep = worker._keep
    calls = []

    def failing_on_the_third(claim, row, *, next_index):
        calls.append(next_index)
        if len(calls) == 3:
            raise OperationalError("the database went away")
        keep(claim, row, next_index=next_index)

    monkeypatch.setattr(worker, "_keep", failing_on_the_third)
    # The play worker's pass raises it (play_worker waits the outage out).
    with pytest.raises(OperationalError):
        play_worker._pass_others()
    assert review.decisions.count() == 2
    monkeypatch.setattr(worker, "_keep", keep)
    # The same worker goes on at once (it knows the review is its own), from the third.
    assert worker.review_due(budget=BUDGET, slice_seconds=LONG) > 0
    review.refresh_from_db()
    assert review.status == "done"
    indexes = list(review.decisions.values_list("index", flat=True))
    assert indexes == [d.index for d in expected(review)]


@pytest.mark.django_db(transaction=True)
def test_two_workers_never_write_a_decision_twice(alice):
    tables = [played_table(alice, seed=seed) for seed in (3, 4)]
    no_table_due()

    def work() -> int:
        worker.forget()
        written = until_idle(slice_seconds=0.05, table_due=never)
        worker.forget()
        return written

    first, second = at_once(work, work)
    assert isinstance(first, int) and isinstance(second, int), (first, second)
    reviews = RoundReview.objects.filter(table__in=tables)
    assert {review.status for review in reviews} == {"done"}
    wanted = sum(len(expected(review)) for review in reviews)
    assert first + second == wanted == ReviewedDecision.objects.count()
    for review in reviews:
        indexes = list(review.decisions.values_list("index", flat=True))
        assert indexes == [d.index for d in expected(review)]


@pytest.mark.django_db
def test_a_worker_whose_lease_ran_out_midway_cannot_write_what_another_wrote(alice):
    table = played_table(alice)
    no_table_due()
    review = RoundReview.objects.get(table=table)
    slow = worker.take()
    # The slow worker is still on its first decision when its lease runs out: another takes
    # the review over and writes that decision.
    worker.forget()
    later = timezone.now() + worker.LEASE + datetime.timedelta(seconds=1)
    assert worker.review_due(later, budget=BUDGET, slice_seconds=0.000_001) == 1
    first = expected(review)[0]
    start, moves, made_by = services.round_to_review(review)
    row = services.decision_row(
        review,
        first,
        services.views_before(start, moves)[first.index],
        by=made_by[first.index],
        players=services.seat_players(table),
    )
    with pytest.raises(worker.LeaseLost):
        worker._keep(slow, row, next_index=first.index + 1)
    assert list(review.decisions.values_list("index", flat=True)) == [first.index]
