"""Practice from a person's own mistakes: the positions they may practise (their own moves in
reviewed rounds that cost the most, read here), and their tries at them (written here, the
only code that writes `Practice`: each write locks the person's row for that decision).

A position is solved by a move that loses less than an inaccuracy against the best one
(cards101.analysis.INACCURACY): the best, or one as good as far as the review can tell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, Count, F, FilteredRelation, Q, QuerySet, Value, When
from django.utils import timezone

from cards101 import analysis
from coach.models import Label, Practice, ReviewedDecision

# Fewer mistakes and blunders than this to practise: the inaccuracies come after them.
FEW = 10
LISTED = 50  # positions on the list, the first to practise
PRACTISED = (Label.BLUNDER, Label.MISTAKE)


@dataclass(frozen=True)
class Summary:
    total: int
    solved: int

    @property
    def left(self) -> int:
        return self.total - self.solved


def own_decisions(user) -> QuerySet[ReviewedDecision]:
    """The decisions `user` made themself (not a stand-in's, not a bot's) at their seats."""
    return ReviewedDecision.objects.own().filter(player__user=user)


def practised(user) -> QuerySet[ReviewedDecision]:
    """The person's positions to practise, with their practice (`tries`, `solved_at`,
    `shown_at`): unsolved first, the costliest first. Mistakes and blunders; inaccuracies too
    when the person made few of those (one query to count them)."""
    own = own_decisions(user)
    labels = list(PRACTISED)
    if own.filter(label__in=labels).count() < FEW:
        labels.append(Label.INACCURACY)
    return (
        own.filter(label__in=labels)
        .alias(mine=FilteredRelation("practice", condition=Q(practice__user=user)))
        .annotate(
            tries=F("mine__tries"),
            solved_at=F("mine__solved_at"),
            shown_at=F("mine__shown_at"),
            solved=Case(When(mine__solved_at__isnull=False, then=Value(1)), default=Value(0)),
        )
        .select_related("review__table")
        .order_by("solved", "-loss", "pk")
    )


def summary(positions: QuerySet[ReviewedDecision]) -> Summary:
    """How many positions there are to practise, and how many are solved (one query)."""
    counted = positions.order_by().aggregate(
        total=Count("pk"), solved=Count("pk", filter=Q(mine__solved_at__isnull=False))
    )
    return Summary(total=counted["total"], solved=counted["solved"])


def position_of(user, pk: int) -> ReviewedDecision | None:
    """One of the person's positions to practise, with its practice, or None (another
    person's decision, a stand-in's or a bot's, or a best move: nothing to practise)."""
    return (
        own_decisions(user)
        .exclude(label=Label.BEST)
        .select_related("review__table")
        .filter(pk=pk)
        .first()
    )


def practice_of(user, decision: ReviewedDecision) -> Practice | None:
    return Practice.objects.filter(user=user, decision=decision).first()


def next_position(user, after: ReviewedDecision) -> ReviewedDecision | None:
    """The first unsolved position of the list other than `after`."""
    return practised(user).filter(solved=0).exclude(pk=after.pk).first()


def extra_loss(decision: ReviewedDecision, move: dict[str, Any]) -> float:
    """How many points more than the best move `move` is expected to cost there (KeyError for
    a move that was not legal): the move played in the game, what the review says it lost
    (cards101.analysis may measure it more cautiously than the mean kept in `losses`)."""
    if _same(decision.played, move):
        return decision.loss
    losses = [loss for _, loss in decision.losses]
    for legal, loss in decision.losses:
        if _same(legal, move):
            return max(0.0, loss - min(losses))
    raise KeyError(move)


def solves(decision: ReviewedDecision, move: dict[str, Any]) -> bool:
    return extra_loss(decision, move) < analysis.INACCURACY


def is_best(decision: ReviewedDecision, move: dict[str, Any]) -> bool:
    return _same(decision.best, move)


def legal_move(decision: ReviewedDecision, kind: str, card: str | None, suit: str | None):
    """The legal move of the position with these fields (as a board's form posts them), or
    None."""
    wanted = {"kind": kind, "card": card or None, "suit": suit or None}
    for legal in decision.position.get("legal", []):
        if _same(legal, wanted):
            return legal
    return None


def _same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return all(one.get(key) == other.get(key) for key in ("kind", "card", "suit"))


# --- writes ----------------------------------------------------------------------------------


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
