"""The coach's part of the play worker's pass (`play.signals.worker_pass`): the rounds waiting
for review are reviewed decision by decision, each decision written once, never in a request.

A pass (`review_due`):
1. claim: the oldest waiting review nobody holds (`select_for_update(skip_locked=True)`, and
   on SQLite, whose writers queue whole, a compare-and-set on its lease) is taken under a
   lease (`leased_until`), committed before any work;
2. review: `cards101.analysis.decisions` from `next_index`, one decision at a time; after each,
   in one transaction under the review's row lock, the lease is checked (still this worker's,
   at the same `next_index`), the decision written and `next_index` moved (and the lease
   renewed). Two workers never write a decision twice (the lease check, and the unique
   constraint behind it); a worker killed midway loses the decision it was computing, and
   whoever takes the review after its lease runs out goes on from `next_index`;
3. yield: between two decisions the pass stops once a played table owes a move (the tables'
   moves come first) or after SLICE seconds; the next pass goes on.

A database error propagates (the play worker waits the outage out); the worker remembers the
review it held (per thread), so that after the outage it goes on with it at once rather than
after its lease. A round whose kept moves cannot be replayed is marked failed, not retried.
"""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cards101 import analysis
from cards101.engine import IllegalMove
from coach import services
from coach.models import ReviewedDecision, RoundReview
from play.models import PlayTable

# How long a claimed review is its worker's without a word from it: far above one decision's
# review (a tenth of a second at the default budget, a few seconds at worst).
LEASE = datetime.timedelta(minutes=2)
# A pass works at most this long (then the play worker looks at its tables again).
SLICE = 1.0
# The review this worker (thread) holds, and its lease: after an outage it goes on with it.
_held = threading.local()


@dataclass
class Claim:
    """A review taken by this worker, under the lease `until`."""

    review: RoundReview
    until: datetime.datetime


class LeaseLost(Exception):
    """The review is no longer this worker's (its lease ran out and another took it)."""


def review_due(
    now: datetime.datetime | None = None,
    *,
    budget: float | None = None,
    slice_seconds: float = SLICE,
    table_due: Callable[[], bool] | None = None,
) -> int:
    """Review what waits, oldest first, until nothing does, a table owes a move (`table_due`,
    by default: a played table whose `server_moves_at` has come) or `slice_seconds` have
    passed. Returns the decisions written."""
    ends = time.monotonic() + slice_seconds
    table_due = table_due or _a_table_is_due
    budget = settings.COACH_REVIEW_BUDGET if budget is None else budget
    written = 0
    # At least one decision a pass, unless a table owes a move: a pass always gets somewhere.
    while not table_due():
        claim = take(now)
        if claim is None:
            break
        done, finished = _work_on(claim, budget=budget, ends=ends, table_due=table_due)
        written += done
        if not finished or time.monotonic() >= ends:
            break
    return written


def take(now: datetime.datetime | None = None) -> Claim | None:
    """Take the oldest waiting review that nobody holds (or this worker held when it was
    interrupted), under a new lease (committed)."""
    now = now or timezone.now()
    held: Claim | None = getattr(_held, "claim", None)
    free = Q(leased_until__isnull=True) | Q(leased_until__lt=now)
    if held is not None:
        free |= Q(pk=held.review.pk, leased_until=held.until)
    with transaction.atomic():
        review = (
            RoundReview.objects.select_for_update(skip_locked=True)
            .filter(free, status=RoundReview.Status.WAITING)
            .order_by("created_at", "pk")
            .first()
        )
        if review is None:
            _held.claim = None
            return None
        until = max(now, timezone.now()) + LEASE
        # Compare and set: on SQLite the row lock is the whole database's write lock, taken
        # at the start of the transaction; the condition keeps a second taker out anyway.
        taken = RoundReview.objects.filter(
            pk=review.pk, status=RoundReview.Status.WAITING, leased_until=review.leased_until
        ).update(leased_until=until)
        if not taken:
            return None
        review.leased_until = until
    claim = Claim(review, until)
    _held.claim = claim
    return claim


def forget() -> None:
    """Forget the review this thread held (a worker that starts afresh)."""
    _held.claim = None


def _work_on(
    claim: Claim, *, budget: float | None, ends: float, table_due: Callable[[], bool]
) -> tuple[int, bool]:
    """Review the claimed round from its `next_index` until it is done or the pass must yield.
    Returns the decisions written, and whether the review is settled (done or failed)."""
    review = claim.review
    written = 0
    try:
        start, moves, made_by = services.round_to_review(review)
        views = services.views_before(start, moves)
        players = services.seat_players(review.table)
        seed = services.review_seed(review.table.seed, review.round)
        decisions = analysis.decisions(
            start, moves, budget=budget, seed=seed, first=review.next_index
        )
        while True:
            if written and (time.monotonic() >= ends or table_due()):
                return written, False
            decision = next(decisions, None)
            if decision is None:
                break
            row = services.decision_row(
                review,
                decision,
                views[decision.index],
                by=made_by[decision.index],
                players=players,
            )
            _keep(claim, row, next_index=decision.index + 1)
            written += 1
    except (IllegalMove, ValueError, IndexError) as error:  # the kept moves do not replay
        _settle(claim, failed=f"{type(error).__name__}: {error}"[:300])
        return written, True
    except LeaseLost:
        forget()
        return written, False
    _settle(claim, next_index=len(moves))
    return written, True


def _locked(claim: Claim) -> RoundReview:
    """The claimed review, locked, if it is still this worker's as it left it (LeaseLost if
    not)."""
    review = claim.review
    locked = (
        RoundReview.objects.select_for_update()
        .filter(
            pk=review.pk,
            status=RoundReview.Status.WAITING,
            leased_until=claim.until,
            next_index=review.next_index,
        )
        .first()
    )
    if locked is None:
        raise LeaseLost(review.pk)
    return locked


def _keep(claim: Claim, row: ReviewedDecision, *, next_index: int) -> None:
    """Write one decision and move the review past it, renewing the lease, if the review is
    still this worker's."""
    with transaction.atomic():
        locked = _locked(claim)
        row.save(force_insert=True)
        until = max(claim.until, timezone.now() + LEASE)
        RoundReview.objects.filter(pk=locked.pk).update(next_index=next_index, leased_until=until)
    claim.until = until
    claim.review.next_index = next_index
    claim.review.leased_until = until


def _settle(claim: Claim, *, next_index: int | None = None, failed: str = "") -> None:
    """The review done (every decision written) or failed (`failed` says why), if it is still
    this worker's; a new version either way (pages keyed on it show the end)."""
    with transaction.atomic():
        try:
            locked = _locked(claim)
        except LeaseLost:
            forget()
            return
        locked.status = RoundReview.Status.FAILED if failed else RoundReview.Status.DONE
        locked.error = failed
        if next_index is not None:
            locked.next_index = next_index
        locked.leased_until = None
        locked.done_at = timezone.now()
        locked.version += 1
        locked.save(
            update_fields=["status", "error", "next_index", "leased_until", "done_at", "version"]
        )
    forget()


def _a_table_is_due() -> bool:
    """Whether a played table owes a move now (the worker's first work)."""
    return PlayTable.objects.filter(server_moves_at__lte=timezone.now()).exists()
