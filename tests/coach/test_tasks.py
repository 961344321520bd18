"""A finished round's review is a task, written with the round's last move and run by the
tasks' worker decision by decision: each decision written once, even by two workers; a run
stops after its slice and its next run goes on; a worker killed midway goes on where it
stopped when it starts again; a round that cannot be replayed fails; an outage of the database
is waited out, and the run goes on where it stopped."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django_tasks_db.models import DBTaskResult

from cards101 import analysis
from cards101.analysis.positions import ViewsBefore
from coach import queries, services, tasks
from coach.models import ReviewedDecision, RoundReview
from play.models import PlayMove, PlayTable
from tests.coach.factories import played_table
from tests.factories import at_once, run_tasks, tasks_worker

BUDGET = 0.003
LONG = 60.0  # seconds: a slice that does not end while a test looks


@pytest.fixture(autouse=True)
def _budget(settings):
    settings.COACH_REVIEW_BUDGET = BUDGET


def review_tasks():
    return DBTaskResult.objects.filter(task_path="coach.tasks.review_round")


def expected(review: RoundReview) -> list[analysis.Decision]:
    start, moves, _ = queries.round_to_review(review)
    seed = services.review_seed(review.table.seed, review.round)
    return analysis.review(start, moves, budget=BUDGET, seed=seed)


def indexes(review: RoundReview) -> list[int]:
    return list(review.decisions.order_by("index").values_list("index", flat=True))


@pytest.mark.django_db
def test_the_task_is_written_with_the_round_and_reviews_every_seat_bots_too(alice):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    assert review.status == "waiting"
    [queued] = review_tasks()
    assert queued.args_kwargs["args"] == [review.pk] and queued.status == "READY"
    assert tasks.review(review.pk, slice_seconds=LONG) == "done"
    review.refresh_from_db()
    assert review.status == "done"
    assert review.version == 2 and review.done_at is not None
    assert review.next_index == table.moves.filter(round=0).count()
    rows = list(review.decisions.order_by("index"))
    # The same review as the library's, with the task's seed: the same every time.
    assert [(row.index, row.seat, row.played, row.best, row.label) for row in rows] == [
        (d.index, d.seat, d.played.to_json(), d.best.to_json(), d.label) for d in expected(review)
    ]
    seats = dict(table.seats.values_list("position", "player_id"))
    assert {row.seat for row in rows} == {0, 1, 2, 3}
    assert all(row.player_id == seats[row.seat] for row in rows)
    assert {row.by for row in rows if row.seat == 0} == {""}
    assert {row.by for row in rows if row.seat != 0} == {"greedy"}
    # Its task, run now, finds nothing to do.
    assert tasks.review(review.pk) == "settled"


@pytest.mark.django_db
def test_a_run_stops_after_its_slice_and_its_next_run_goes_on(alice, monkeypatch):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    monkeypatch.setattr(tasks, "SLICE", 0.000_001)
    # A decision a run, each run enqueueing the next in the transaction of its decision.
    ran = run_tasks()
    review.refresh_from_db()
    assert review.status == "done"
    decisions = len(expected(review))
    assert indexes(review) == [d.index for d in expected(review)]
    assert review_tasks().filter(status="SUCCESSFUL").count() == decisions + 1
    assert ran >= decisions + 1


@pytest.mark.django_db
def test_a_worker_killed_midway_goes_on_where_it_stopped_when_it_starts_again(alice):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    # The worker "tests" took the task and wrote two decisions, then was killed.
    review_tasks().get().claim("tests")
    first_two = expected(review)[:2]
    start, moves, made_by = queries.round_to_review(review)
    views = ViewsBefore(start, moves)
    for decision in first_two:
        row = services.decision_row(
            review,
            decision,
            views[decision.index],
            by=made_by[decision.index],
            players=queries.seat_players(table),
        )
        assert services.keep_decision(review, row, next_index=decision.index + 1)
    run_tasks()
    review.refresh_from_db()
    assert review.status == "done"
    assert indexes(review) == [d.index for d in expected(review)]


@pytest.mark.django_db
def test_a_round_whose_moves_do_not_replay_fails_and_is_not_tried_again(alice):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    first = PlayMove.objects.filter(table=table, round=0).order_by("number").first()
    first.move = {"kind": "pass"}  # nobody may pass before drawing
    first.save()
    run_tasks()
    review.refresh_from_db()
    assert review.status == "failed"
    assert review.error
    assert review.version == 2
    assert tasks.review(review.pk) == "settled"
    review.refresh_from_db()
    assert review.status == "failed" and review.version == 2


@pytest.mark.django_db
def test_an_outage_is_waited_out_and_the_run_goes_on_where_it_stopped(alice, monkeypatch):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    keep = services.keep_decision
    calls, waits = [], []

    def failing_on_the_third(review, row, *, next_index):
        calls.append(next_index)
        if len(calls) == 3:
            raise OperationalError("the database went away")
        return keep(review, row, next_index=next_index)

    monkeypatch.setattr(services, "keep_decision", failing_on_the_third)
    monkeypatch.setattr("core.tasks.time.sleep", waits.append)
    monkeypatch.setattr("core.tasks.close_old_connections", lambda: None)
    assert tasks.review(review.pk, slice_seconds=LONG) == "done"
    assert waits == [0.5]
    review.refresh_from_db()
    assert review.status == "done"
    assert indexes(review) == [d.index for d in expected(review)]


@pytest.mark.django_db(transaction=True)
def test_two_workers_never_write_a_decision_twice(alice, monkeypatch):
    tables = [played_table(alice, seed=seed) for seed in (3, 4)]
    PlayTable.objects.update(server_moves_at=None)
    monkeypatch.setattr(tasks, "SLICE", 0.01)

    assert at_once(tasks_worker("one").run, tasks_worker("two").run) == [None, None]
    reviews = RoundReview.objects.filter(table__in=tables)
    assert {review.status for review in reviews} == {"done"}
    wanted = sum(len(expected(review)) for review in reviews)
    assert ReviewedDecision.objects.count() == wanted
    for review in reviews:
        assert indexes(review) == [d.index for d in expected(review)]


@pytest.mark.django_db
def test_a_stale_run_cannot_write_what_another_wrote(alice):
    table = played_table(alice)
    PlayTable.objects.update(server_moves_at=None)
    review = RoundReview.objects.get(table=table)
    stale = RoundReview.objects.get(pk=review.pk)
    first = expected(review)[0]
    start, moves, made_by = queries.round_to_review(review)

    def row():
        return services.decision_row(
            review,
            first,
            ViewsBefore(start, moves)[first.index],
            by=made_by[first.index],
            players=queries.seat_players(table),
        )

    assert services.keep_decision(review, row(), next_index=first.index + 1)
    assert not services.keep_decision(stale, row(), next_index=first.index + 1)
    assert indexes(review) == [first.index]
