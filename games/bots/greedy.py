"""The greedy bot: plays out its own turn in its head and keeps the best hand it can end with.

It looks at nothing but its position (its hand, the top card, what it owes, the totals) and
values the hand it would be left holding when the turn passes: penalty points and cards
count against it, Queens are kept to go out with the bonus (the big Queen last), a hand that
would bring the total to exactly 101 is welcome when that resets, one that would lose is not,
and cards the next player must draw count for it. With two players a card that skips the
other keeps the turn, so it searches the chains of such cards to the end of its turn.

Deciding the same way in the same position, greedy players can go round in circles (the
same cards played, drawn and turned over again and again). In a round that has gone on far
longer than rounds do, it now and then makes another legal move, as a person would, so that
every round ends.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.bots.position import CARDS, Effect, Position, effects, fits
from games.engine import Move
from games.rules import SUITS, Card, Variant, card_points, out_score, score_hand

GO_OUT = 60.0  # going out, before the Queen bonus
PER_CARD = 4.0  # each card held, beyond its points: more cards are harder to get rid of
DRAW_COST = 10.0  # drawing an unseen card: its points on average plus the card
HIT = 4.0  # each card the next player must draw
SKIP = 3.0  # the next player losing a turn, at a table of three or four
FOLLOW = 1.5  # each card kept that will likely fit after the next player's reply
QUEEN_KEEP = 3.0  # a Queen fits on anything, so it is worth keeping for later
RESET_SHARE = 0.5  # a hand that makes exactly 101 (or 100) pays off only if the round ends now
LOSING_HAND = 30.0  # a hand that would take the total over the limit
MAX_NODES = 300  # positions searched per decision: chains of long hands stay cheap
LONG_ROUND = 500  # events in a round's log beyond which it is going round in circles
VARY = 0.2  # then, the chance of another legal move than the best


class Greedy:
    """A bot that plays the move leading to the best end of its turn (no randomness)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move:
        if len(view["log"]) > LONG_ROUND and len(legal_moves) > 1 and self.rng.random() < VARY:
            return self.rng.choice(legal_moves)
        return best_move(Position.of_view(view), legal_moves)


def best_move(position: Position, legal_moves: Sequence[Move]) -> Move:
    """The legal move with the best value; the first such in the given order on a tie."""
    if len(legal_moves) == 1:
        return legal_moves[0]
    plan = Plan(position)
    best, best_value = legal_moves[0], -math.inf
    for move in legal_moves:
        value = plan.move_value(move)
        if value > best_value:
            best, best_value = move, value
    return best


@dataclass(frozen=True, slots=True)
class _Tables:
    """A variant's figures per card, keyed by the id() of the engine's card objects (an int
    hashes in C; a card hashes in Python, and a search asks thousands of times)."""

    effects: Mapping[int, Effect]
    points: Mapping[int, int]
    # What keeping a Queen is worth: it fits on anything, and going out with it earns a bonus.
    queen_keep: Mapping[int, float]
    out_value: Mapping[int, float]


@functools.lru_cache(maxsize=64)
def _tables(variant: Variant) -> _Tables:
    by_card = effects(variant)
    cards = [card for card in CARDS.values() if card in by_card]
    return _Tables(
        effects={id(card): by_card[card] for card in cards},
        points={id(card): card_points(variant, card) for card in cards},
        queen_keep={
            id(card): QUEEN_KEEP - out_score(variant, card) / 4 for card in cards if card.is_queen
        },
        out_value={id(card): GO_OUT - out_score(variant, card) for card in cards},
    )


class Plan:
    """The values of one position's moves; a search of the rest of the turn, memoised."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.variant = position.variant
        self.tables = _tables(position.variant)
        self.keeps_turn = position.holders == 2
        self.total = position.totals[position.seat]
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], float] = {}
        # The engine's own card objects, so that the search compares them by identity.
        self.hand = tuple(CARDS[card] for card in position.hand)

    def move_value(self, move: Move) -> float:
        position = self.position
        hand = self.hand
        if move.kind == "draw":
            return self.held(hand) - DRAW_COST
        if move.kind == "pass":
            return self.held(hand)
        card = CARDS[move.card]  # type: ignore[index]
        rest = tuple(held for held in hand if held is not card)
        return self.after_play(rest, card, move.suit, position.skip_next)

    def after_play(
        self, rest: tuple[Card, ...], card: Card, suit: str | None, skip_pending: bool
    ) -> float:
        """The value of the turn once `card` is played, `rest` left in hand (a Queen with
        no `suit` orders the best one)."""
        tables = self.tables
        effect = tables.effects[id(card)]
        if effect.cover is not None:
            pending = skip_pending or effect.skips_once_covered
            # A card one must cover is never the last: the player draws to cover it.
            if not rest:
                return -DRAW_COST
            return self.rest_of_turn(rest, card, None, effect.cover, pending)
        if not rest:
            return tables.out_value[id(card)]
        skip = effect.skip or skip_pending
        hit = effect.draw * HIT
        if skip and self.keeps_turn:
            return hit + self.rest_of_turn(rest, card, suit, None, False)
        return hit + (SKIP if skip else 0.0) + self.held(rest) + self.follow(rest, card, suit)

    def rest_of_turn(
        self,
        hand: tuple[Card, ...],
        top: Card,
        ordered_suit: str | None,
        cover: str | None,
        skip_pending: bool,
    ) -> float:
        """The best value of a turn that goes on with this hand on this top card."""
        key = (*map(id, hand), id(top), ordered_suit, cover, skip_pending)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        playable = [card for card in hand if fits(card, top, ordered_suit, cover)]
        if not playable or self.nodes > MAX_NODES:
            value = self.held(hand) - DRAW_COST
        else:
            value = -math.inf
            for card in playable:
                rest = tuple(held for held in hand if held is not card)
                # A Queen ends the turn unless an 8's skip is pending: then its suit matters
                # for what follows; otherwise `after_play` orders the best suit itself.
                suits = SUITS if card.is_queen and skip_pending and self.keeps_turn else (None,)
                for suit in suits:
                    value = max(value, self.after_play(rest, card, suit, skip_pending))
        self.memo[key] = value
        return value

    def held(self, hand: tuple[Card, ...]) -> float:
        """What holding `hand` at the end of the turn is worth (never more than 0 or so)."""
        tables = self.tables
        if hand and all(card.is_queen for card in hand):
            points = score_hand(self.variant, hand)  # the queens-only penalty may apply
        else:
            points = sum([tables.points[id(card)] for card in hand])
        value = -points - PER_CARD * len(hand)
        for card in hand:
            if card.is_queen:
                value += tables.queen_keep[id(card)]
        # Aim at the reset when close, steer clear of the limit.
        variant, total = self.variant, self.total
        after = total + points
        if hand and variant.reset_at_101 and after == 101:
            value += RESET_SHARE * total
        elif hand and variant.reset_at_100 and after == 100:
            value += RESET_SHARE * (total - 50)
        elif after > variant.lose_over:
            value -= LOSING_HAND
        return value

    def follow(self, rest: tuple[Card, ...], card: Card, suit: str | None) -> float:
        """Cards kept that will likely fit when the turn comes back: the next player has
        to follow the ordered suit or the card's suit, and mostly does."""
        counts = dict.fromkeys(SUITS, 0)
        for held in rest:
            if not held.is_queen:
                counts[held.suit] += 1
        if card.is_queen and suit is None:
            return FOLLOW * max(counts.values())
        return FOLLOW * counts[suit or card.suit]
