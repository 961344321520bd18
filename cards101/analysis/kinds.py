"""The kind of mistake a reviewed decision is, read off the position its seat saw (the
profile counts them; docs/coach.md says how each is told)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards101.analysis.round_review import Decision
from cards101.bots.position import Position, effects, variant_of
from cards101.bots.position import card as position_card
from cards101.engine import Move
from cards101.rules import Card, Variant

# The kinds of mistakes a coach names, in the order they are looked for (kind_of).
KINDS = (
    "queen_kept",  # kept a Queen when playing it was best
    "queen_spent",  # spent a Queen near the end, where keeping it to go out on was best
    "short_suit",  # a Queen ordered a suit the hand was short in
    "no_attack",  # a card that makes the next player draw or skip was best: they were nearly out
    "drew",  # drew (or passed) where a play was best
    "other",
)
NEARLY_OUT = 2  # cards in the next holder's hand that make them "about to go out"
NEAR_THE_END = 3  # cards in hand from which a Queen is worth keeping to go out on


def kind_of(view: Mapping[str, Any], decision: Decision) -> str:
    """The kind of mistake `decision` is (one of KINDS), read off the position its seat saw
    (`view`: the seat's view before the move); "" for a decision labelled best."""
    if decision.label == "best":
        return ""
    played, best = decision.played, decision.best
    hand = [position_card(code) for code in view["hand"]]
    queens = [card for card in hand if card.rank == "Q"]
    variant = _variant_of(view)
    if queens and _is_queen(best) and not _is_queen(played):
        return "queen_kept"
    if (
        variant.out_bonus
        and _is_queen(played)
        and not _is_queen(best)
        and best.kind == "play"
        and len(hand) <= NEAR_THE_END
    ):
        return "queen_spent"
    if _is_queen(played) and _is_queen(best) and played.suit != best.suit:
        left = [card for card in hand if card is not played.card and card.rank != "Q"]
        mine = sum(card.suit == played.suit for card in left)
        theirs = sum(card.suit == best.suit for card in left)
        if mine < theirs:
            return "short_suit"
    if (
        best.kind == "play"
        and _attacks(variant, best.card)
        and not (played.kind == "play" and _attacks(variant, played.card))
    ):
        after = Position.of_view(view).next_seat
        if after is not None and view["hand_counts"][after] <= NEARLY_OUT:
            return "no_attack"
    if played.kind != "play" and best.kind == "play":
        return "drew"
    return "other"


def _is_queen(move: Move) -> bool:
    return move.kind == "play" and move.card is not None and move.card.rank == "Q"


def _attacks(variant: Variant, card: Card | None) -> bool:
    """Whether playing `card` makes the next player draw or lose their turn."""
    effect = effects(variant)[card]
    return bool(effect.draw or effect.skip or effect.skips_once_covered)


def _variant_of(view: Mapping[str, Any]) -> Variant:
    return variant_of(tuple(view["variant"].items()))
