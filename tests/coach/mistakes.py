"""Reviewed rounds with mistakes in them, for the practice and profile tests: a table played
through the real services and reviewed for real (coach.services.review_now), and a decision
made a mistake by taking, as the move played, another of its legal moves, with the loss the
review measured for it."""

from __future__ import annotations

from cards101 import analysis
from cards101.engine import Move
from coach import services
from coach.models import ReviewedDecision, RoundReview
from play.models import PlayTable
from tests.coach.factories import played_table

BUDGET = 0.005


def reviewed_table(user, **played) -> PlayTable:
    """`played_table(user, **played)` with every finished round reviewed."""
    table = played_table(user, **played)
    for review in RoundReview.objects.filter(table=table):
        services.review_now(review, budget=BUDGET, seed=1)
    return table


def as_if_played(decision: ReviewedDecision, move: dict) -> ReviewedDecision:
    """The decision as if its seat had played `move` (one of its legal moves): its loss, label,
    accuracy and kind read off the review's own losses (each legal move's, against the best)."""
    losses = {Move.from_json(legal): loss for legal, loss in decision.losses}
    least = min(losses.values())
    best = min(losses, key=lambda legal: (losses[legal], str(legal)))
    played = Move.from_json(move)
    loss = losses[played] - least
    judged = analysis.Decision(
        index=decision.index,
        seat=decision.seat,
        played=played,
        best=best,
        loss=loss,
        label=analysis.label_of(loss),
        losses=tuple(losses.items()),
    )
    decision.played, decision.best = played.to_json(), best.to_json()
    decision.loss, decision.label = loss, judged.label
    decision.accuracy = analysis.accuracy([loss])
    decision.kind = analysis.kind_of(decision.position, judged)
    decision.save()
    return decision


def worst_move(decision: ReviewedDecision) -> dict:
    return max(decision.losses, key=lambda pair: pair[1])[0]


def best_move(decision: ReviewedDecision) -> dict:
    return min(decision.losses, key=lambda pair: pair[1])[0]


def mistakes_of(user, count: int = 1, **played) -> list[ReviewedDecision]:
    """`count` of the user's own decisions at a reviewed table made into their costliest
    move (those whose costliest move costs at least a mistake), costliest first."""
    table = reviewed_table(user, **played)
    own = ReviewedDecision.objects.filter(review__table=table, player__user=user, by="")
    chosen = sorted(
        (d for d in own if max(loss for _, loss in d.losses) >= analysis.MISTAKE),
        key=lambda d: -max(loss for _, loss in d.losses),
    )[:count]
    assert len(chosen) == count, f"only {len(chosen)} decisions can be made mistakes"
    return [as_if_played(decision, worst_move(decision)) for decision in chosen]
