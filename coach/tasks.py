"""The coach's task (run by `manage.py db_worker`, never in a request): a finished round's
review, decision by decision, each decision written once.

`queue` writes the review and its task in the transaction that finished the round. A run of
`review_round` goes on from the review's `next_index`: `cards101.analysis.decisions` one at a
time, each kept in one transaction with `next_index` moved past it (services.keep_decision).
After SLICE seconds it enqueues its next run in the transaction of the decision it wrote last,
and ends, so that the deliveries queued meanwhile (which come first: a higher priority) and a
worker's stop do not wait for a long round. A worker killed midway loses the decision it was
computing; the task runs again when the worker starts again (core.tasks.recover) and goes on
from `next_index`. An outage of the database is waited out, and the run starts again from
`next_index`. A round whose kept moves cannot be replayed is marked failed, not retried.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.tasks import task

from cards101 import analysis
from cards101.analysis.positions import ViewsBefore
from cards101.engine import IllegalMove
from coach import queries, services
from coach.models import RoundReview
from core.tasks import later, outliving_outages, resumable
from play.models import PlayTable

# A run works at most this long, then its next run goes on.
SLICE = 1.0
# Deliveries (priority 0) come before reviews.
PRIORITY = -10


def queue(*, table: PlayTable, round_index: int) -> RoundReview:
    """The review of round `round_index` of `table`, and its task, in the caller's
    transaction (that of the round's last move)."""
    review, created = services.queue_review(table=table, round_index=round_index)
    if created:
        later(review_round, review.pk)
    return review


@resumable
@task(priority=PRIORITY)
def review_round(review_id: int) -> str:
    """Review round review `review_id` from where it stands, for SLICE seconds at most."""
    return review(review_id)


@outliving_outages
def review(
    review_id: int, *, budget: float | None = None, slice_seconds: float | None = None
) -> str:
    """A run of the review (`budget`: the analysis' per decision, by default the setting's;
    `slice_seconds`: by default SLICE).
    Returns what became of it: "done", "goes on", "failed", or "settled" (nothing to do)."""
    found = RoundReview.objects.select_related("table").filter(pk=review_id).first()
    if found is None or found.status != RoundReview.Status.WAITING:
        return "settled"
    ends = time.monotonic() + (SLICE if slice_seconds is None else slice_seconds)
    budget = settings.COACH_REVIEW_BUDGET if budget is None else budget
    try:
        start, moves, made_by = queries.round_to_review(found)
        views = ViewsBefore(start, moves)
        players = queries.seat_players(found.table)
        seed = services.review_seed(found.table.seed, found.round)
        for decision in analysis.decisions(
            start, moves, budget=budget, seed=seed, first=found.next_index
        ):
            row = services.decision_row(
                found,
                decision,
                views[decision.index],
                by=made_by[decision.index],
                players=players,
            )
            more = time.monotonic() >= ends
            with transaction.atomic():
                if not services.keep_decision(found, row, next_index=decision.index + 1):
                    return "settled"  # another run moved it (cannot happen but after a bug)
                if more:
                    later(review_round, found.pk)
            if more:
                return "goes on"
    except (IllegalMove, ValueError, IndexError) as error:  # the kept moves do not replay
        services.settle_review(found, failed=f"{type(error).__name__}: {error}")
        return "failed"
    services.settle_review(found, next_index=len(moves))
    return "done"
