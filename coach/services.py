"""The coach's services, the only code that writes its tables: queue a finished round for
review (in the transaction that finished it), keep its decisions one by one (its task,
coach.tasks, never a request), and a person's tries at the positions they practise.

Locks: a review's row; its table's rows are only read (a finished round never changes); a
person's practice row of a decision (cards101.analysis.practice judges the tries)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cards101 import analysis
from cards101.analysis.positions import ViewsBefore
from cards101.analysis.practice import legal_move, solves
from cards101.engine import Game, Move
from coach import queries
from coach.models import Practice, ReviewedDecision, RoundReview
from play.models import PlayTable

# The keys of a seat's view kept with a decision: the position as the seat saw it (the log,
# which can be long, and what the round's end adds are left out).
POSITION_KEYS = (
    "seat",
    "players",
    "to_move",
    "round",
    "dealer",
    "leader",
    "hand",
    "hand_counts",
    "stock",
    "pile",
    "top",
    "ordered_suit",
    "must_cover",
    "owed_draws",
    "went_out",
    "active",
    "totals",
    "legal",
    "variant",
    "cover",
    "skip_next",
    "drew",
    "opening_queen",
    "moves",
)


def queue_review(*, table: PlayTable, round_index: int) -> tuple[RoundReview, bool]:
    """A review of round `round_index` of `table`, waiting for its task (coach.tasks.queue,
    in the transaction that finished the round); a second call finds the first. Returns the
    review and whether it is new."""
    return RoundReview.objects.get_or_create(table=table, round=round_index)


def keep_decision(review: RoundReview, row: ReviewedDecision, *, next_index: int) -> bool:
    """Write one decision of `review` and move the review past it, if it still stands where
    `review` says (`next_index` then moves on). Returns whether it was written."""
    with transaction.atomic():
        moved = RoundReview.objects.filter(
            pk=review.pk, status=RoundReview.Status.WAITING, next_index=review.next_index
        ).update(next_index=next_index)
        if not moved:
            return False
        row.save(force_insert=True)
    review.next_index = next_index
    return True


def settle_review(review: RoundReview, *, next_index: int | None = None, failed: str = "") -> None:
    """The review done (every decision written) or failed (`failed` says why), if it still
    waits; a new version either way (pages keyed on it show the end)."""
    with transaction.atomic():
        locked = (
            RoundReview.objects.select_for_update()
            .filter(pk=review.pk, status=RoundReview.Status.WAITING)
            .first()
        )
        if locked is None:
            return
        locked.status = RoundReview.Status.FAILED if failed else RoundReview.Status.DONE
        locked.error = failed[:300]
        if next_index is not None:
            locked.next_index = next_index
        locked.done_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "error", "next_index", "done_at", "version"])


def review_seed(table_seed: int, round_index: int) -> int:
    """The seed a round is reviewed with: the same review of it every time, anywhere."""
    return table_seed * 1_000 + round_index


def decision_row(
    review: RoundReview,
    decision: analysis.Decision,
    view: dict,
    *,
    by: str,
    players: dict[int, int | None],
) -> ReviewedDecision:
    """A decision as kept (not saved)."""
    return ReviewedDecision(
        review=review,
        index=decision.index,
        seat=decision.seat,
        player_id=players.get(decision.seat),
        by=by,
        played=decision.played.to_json(),
        best=decision.best.to_json(),
        loss=decision.loss,
        label=decision.label,
        accuracy=analysis.accuracy([decision.loss]),
        losses=[[move.to_json(), loss] for move, loss in decision.losses],
        kind=analysis.kind_of(view, decision),
        position={key: view[key] for key in POSITION_KEYS if key in view},
        deals=decision.deals,
    )


def review_now(
    review: RoundReview, *, budget: float | None = None, seed: int | None = None
) -> RoundReview:
    """Review the whole round at once and keep it (for tests and the demo; its task goes
    decision by decision). `seed`: by default the task's (the same review)."""
    if seed is None:
        seed = review_seed(review.table.seed, review.round)
    start, moves, made_by = queries.round_to_review(review)
    players = queries.seat_players(review.table)
    rows = _rows(review, start, moves, made_by, players, budget=budget, seed=seed)
    with transaction.atomic():
        locked = RoundReview.objects.select_for_update().get(pk=review.pk)
        if locked.status != RoundReview.Status.WAITING:
            return locked
        ReviewedDecision.objects.filter(review=locked).delete()
        ReviewedDecision.objects.bulk_create(rows)
        locked.status = RoundReview.Status.DONE
        locked.next_index = len(moves)
        locked.done_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "next_index", "done_at", "version"])
    return locked


def _rows(
    review: RoundReview,
    start: Game,
    moves: list[Move],
    made_by: list[str],
    players: dict[int, int | None],
    *,
    budget: float | None,
    seed: int,
) -> Iterable[ReviewedDecision]:
    views = ViewsBefore(start, moves)
    return [
        decision_row(
            review, decision, views[decision.index], by=made_by[decision.index], players=players
        )
        for decision in analysis.decisions(start, moves, budget=budget, seed=seed)
    ]


# --- practice ---------------------------------------------------------------------------------


def try_move(*, user, decision: ReviewedDecision, move: dict[str, Any]) -> Practice:
    """The person tries `move` (one of the position's legal moves) at their position: a try
    counted, the move kept, and the position solved by a move that loses less than an
    inaccuracy against the best. A try at a position solved already (a form sent twice, a
    page left open) changes nothing. Locks the person's practice row of the decision."""
    if legal_move(decision, move["kind"], move.get("card"), move.get("suit")) is None:
        raise ValueError(f"{move} is not a legal move there")
    with transaction.atomic():
        practice = _locked(user, decision)
        if practice.solved_at is not None:
            return practice
        practice.tries += 1
        practice.last_move = move
        if solves(decision, move):
            practice.solved_at = timezone.now()
        practice.save(update_fields=["tries", "last_move", "solved_at", "updated_at"])
    return practice


def show_best(*, user, decision: ReviewedDecision) -> Practice:
    """The person asks to see the best move before finding it: marked shown (the position
    stays unsolved until they play it). Locks the person's practice row of the decision."""
    with transaction.atomic():
        practice = _locked(user, decision)
        if practice.shown_at is None and practice.solved_at is None:
            practice.shown_at = timezone.now()
            practice.save(update_fields=["shown_at", "updated_at"])
    return practice


def _locked(user, decision: ReviewedDecision) -> Practice:
    """The person's practice of the decision, locked; made if it was not there (a row made
    at the same moment by another request is found, not made twice)."""
    found = Practice.objects.select_for_update().filter(user=user, decision=decision).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            Practice.objects.create(user=user, decision=decision)
    except IntegrityError:
        pass  # made meanwhile by the other request: locked below
    return Practice.objects.select_for_update().get(user=user, decision=decision)
