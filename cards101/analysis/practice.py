"""Practice judged: whether a move a player tries at a reviewed position solves it, and how
many points more than the best it is expected to cost.

A position is solved by a move that loses less than an inaccuracy against the best one
(INACCURACY): the best, or one as good as far as the review can tell. Moves are as kept with
a review, in their JSON form (`Move.to_json`: kind, card, suit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from cards101.analysis.round_review import INACCURACY

type MoveJSON = Mapping[str, Any]


class KeptDecision(Protocol):
    """A reviewed decision as kept: the move played, the best one, the loss of the move played
    (as the review measured it), every legal move's loss as measured, the position as its seat
    saw it (its `legal` moves among the rest)."""

    played: MoveJSON
    best: MoveJSON
    loss: float
    losses: Sequence[Sequence[Any]]  # [move, loss] pairs
    position: Mapping[str, Any]


def extra_loss(decision: KeptDecision, move: MoveJSON) -> float:
    """How many points more than the best move `move` is expected to cost there (KeyError for
    a move that was not legal): the move played in the game, what the review says it lost
    (the review may measure it more cautiously than the mean kept in `losses`)."""
    if same_move(decision.played, move):
        return decision.loss
    losses = [loss for _, loss in decision.losses]
    for legal, loss in decision.losses:
        if same_move(legal, move):
            return max(0.0, loss - min(losses))
    raise KeyError(move)


def solves(decision: KeptDecision, move: MoveJSON) -> bool:
    return extra_loss(decision, move) < INACCURACY


def is_best(decision: KeptDecision, move: MoveJSON) -> bool:
    return same_move(decision.best, move)


def legal_move(
    decision: KeptDecision, kind: str, card: str | None, suit: str | None
) -> dict[str, Any] | None:
    """The legal move of the position with these fields (as a board's form posts them), or
    None."""
    wanted = {"kind": kind, "card": card or None, "suit": suit or None}
    for legal in decision.position.get("legal", []):
        if same_move(legal, wanted):
            return legal
    return None


def same_move(one: MoveJSON, other: MoveJSON) -> bool:
    return all(one.get(key) == other.get(key) for key in ("kind", "card", "suit"))
