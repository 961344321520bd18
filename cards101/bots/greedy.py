"""The greedy bot: plays out its own turn in its head and keeps the best hand it can end with.

It looks at nothing but its position (its hand, the top card, what it owes, the totals) and
values the hand it would be left holding when the turn passes: penalty points and cards
count against it, Queens are kept to go out with the bonus (the big Queen last), a hand that
would bring the total to exactly 101 is welcome when that resets, one that would lose is not,
and cards the next player must draw count for it. With two players a card that skips the
other keeps the turn, so it searches the chains of such cards to the end of its turn.

Deciding the same way in the same position, greedy players can go round in circles (the
same cards played, drawn and turned over again and again). In a round that has gone on far
longer than rounds do, it often plays instead any card that fits and makes nobody draw, as a
person tired of the round would (`ending_moves`): another move picked among all the legal
ones was not enough, as most moves of such a round are forced and a card that makes the
other draw only passes cards back and forth. The engine cuts a round that still goes on.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cards101.bots.position import (
    CARDS,
    LONG_ROUND,
    Effect,
    Position,
    effects,
    ending_moves,
    moves_made,
)
from cards101.engine import Move
from cards101.engine.moves import OWN_CARDS
from cards101.rules import RANKS, SUITS, Card, Variant, card_points, out_score, score_hand

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
VARY = 0.5  # in a long round, the chance of a move that heads for its end over the best

_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}


class Greedy:
    """A bot that plays the move leading to the best end of its turn (no randomness)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move:
        if len(legal_moves) > 1 and moves_made(view) > LONG_ROUND and self.rng.random() < VARY:
            return self.rng.choice(ending_moves(view, legal_moves))
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


# Every card by a number, suit by suit in deck order (its place in the 52-card deck), found
# by the id() of the engine's own objects and the bots' own (an int hashes in C; a Card hashes
# in Python, and a search asks thousands of times).
_NUMBER_OF: dict[int, int] = {
    id(card): _SUIT_INDEX[card.suit] * 13 + _RANK_INDEX[card.rank]
    for cards in (*OWN_CARDS.values(), CARDS.values())
    for card in cards
}
_QUEEN = RANKS.index("Q")


def _number(card: Card) -> int:
    number = _NUMBER_OF.get(id(card))
    if number is None:  # a Card made elsewhere (a test's): the same card by value
        number = _SUIT_INDEX[card.suit] * 13 + _RANK_INDEX[card.rank]
    return number


@dataclass(frozen=True, slots=True)
class _Tables:
    """A variant's figures per card, as lists indexed by the card's number (None for a card
    not in its deck)."""

    effects: Sequence[Effect | None]
    points: Sequence[int]
    # The penalty of a Queen in a hand of Queens only (score_hand adds them up).
    queen_points: Sequence[int]
    # What keeping a Queen is worth: it fits on anything, and going out with it earns a bonus.
    queen_keep: Sequence[float]
    out_value: Sequence[float]


_TABLES: dict[int, tuple[Variant, _Tables]] = {}


def _tables(variant: Variant) -> _Tables:
    # By identity first: a game keeps its Variant, and a view's is shared (variant_of).
    known = _TABLES.get(id(variant))
    if known is not None and known[0] is variant:
        return known[1]
    tables = _tables_of(variant)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(variant)] = (variant, tables)
    return tables


@functools.lru_cache(maxsize=64)
def _tables_of(variant: Variant) -> _Tables:
    by_card = effects(variant)
    effect: list[Effect | None] = [None] * 52
    points, queen_points = [0] * 52, [0] * 52
    queen_keep, out_value = [0.0] * 52, [0.0] * 52
    for card, card_effect in by_card.items():
        number = _number(card)
        effect[number] = card_effect
        points[number] = card_points(variant, card)
        out_value[number] = GO_OUT - out_score(variant, card)
        if card.is_queen:
            queen_points[number] = score_hand(variant, (CARDS[card],))
            queen_keep[number] = QUEEN_KEEP - out_score(variant, card) / 4
    return _Tables(effect, points, queen_points, queen_keep, out_value)


class Plan:
    """The values of one position's moves; a search of the rest of the turn, memoised.

    The search plays cards out of the position's hand in the hand's order, so each hand it
    reaches is a subset of the first, given as a bit mask (bit i: the hand's i-th card); a
    card played is given by its number."""

    __slots__ = (
        "full",
        "held_memo",
        "keeps_turn",
        "memo",
        "nodes",
        "numbers",
        "position",
        "queens",
        "ranks",
        "suits",
        "tables",
        "total",
        "variant",
    )

    def __init__(self, position: Position) -> None:
        self.position = position
        self.variant = position.variant
        self.tables = _tables(position.variant)
        self.keeps_turn = len(position.holders_after) == 1
        self.total = position.totals[position.seat]
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], float] = {}
        self.held_memo: dict[int, float] = {}
        number_of = _NUMBER_OF
        try:
            numbers = [number_of[id(card)] for card in position.hand]
        except KeyError:
            numbers = [_number(card) for card in position.hand]
        self.numbers = numbers
        self.full = (1 << len(numbers)) - 1
        # The hand's cards by suit (Queens apart), by rank, and its Queens, as masks.
        suits, ranks = [0] * 4, [0] * 13
        queens = 0
        bit = 1
        for number in numbers:
            rank = number % 13
            ranks[rank] |= bit
            if rank == _QUEEN:
                queens |= bit
            else:
                suits[number // 13] |= bit
            bit <<= 1
        self.suits, self.ranks, self.queens = suits, ranks, queens

    def move_value(self, move: Move) -> float:
        kind = move.kind
        if kind == "draw":
            return self.held(self.full) - DRAW_COST
        if kind == "pass":
            return self.held(self.full)
        number = _NUMBER_OF.get(id(move.card))
        if number is None:
            number = _number(move.card)  # type: ignore[arg-type]
        numbers = self.numbers
        # A card not in the hand (a turned-up Queen on the pile) leaves the hand whole.
        rest = self.full ^ (1 << numbers.index(number)) if number in numbers else self.full
        return self.after_play(rest, number, move.suit, self.position.skip_next)

    def after_play(self, rest: int, card: int, suit: str | None, skip_pending: bool) -> float:
        """The value of the turn once card number `card` is played, `rest` left in hand (a
        Queen with no `suit` orders the best one)."""
        tables = self.tables
        effect: Effect = tables.effects[card]  # type: ignore[assignment]
        if effect.cover is not None:
            pending = skip_pending or effect.skips_once_covered
            # A card one must cover is never the last: the player draws to cover it.
            if not rest:
                return -DRAW_COST
            return self.rest_of_turn(rest, card, None, effect.cover, pending)
        if not rest:
            return tables.out_value[card]
        skip = effect.skip or skip_pending
        hit = effect.draw * HIT
        if skip and self.keeps_turn:
            return hit + self.rest_of_turn(rest, card, suit, None, False)
        held = self.held_memo.get(rest)
        if held is None:
            held = self.held(rest)
        return hit + (SKIP if skip else 0.0) + held + self.follow(rest, card, suit)

    def rest_of_turn(
        self, hand: int, top: int, ordered_suit: str | None, cover: str | None, skip_pending: bool
    ) -> float:
        """The best value of a turn that goes on with this hand on this top card."""
        key = (hand, top, ordered_suit, cover, skip_pending)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        # What fits (as `fits` has it): a Queen, else the suit owed, else the top's suit or rank.
        if cover == "suit":
            fitting = self.queens | self.suits[top // 13]
        elif ordered_suit is not None:
            fitting = self.queens | self.suits[_SUIT_INDEX[ordered_suit]]
        else:
            fitting = self.queens | self.suits[top // 13] | self.ranks[top % 13]
        playable = hand & fitting
        if not playable or self.nodes > MAX_NODES:
            value = self.held(hand) - DRAW_COST
        else:
            value = -math.inf
            numbers = self.numbers
            queens_order = skip_pending and self.keeps_turn
            while playable:  # in the hand's order
                bit = playable & -playable
                playable ^= bit
                card = numbers[bit.bit_length() - 1]
                rest = hand ^ bit
                # A Queen ends the turn unless an 8's skip is pending: then its suit matters
                # for what follows; otherwise `after_play` orders the best suit itself.
                if queens_order and bit & self.queens:
                    for suit in SUITS:
                        played = self.after_play(rest, card, suit, skip_pending)
                        if played > value:
                            value = played
                else:
                    played = self.after_play(rest, card, None, skip_pending)
                    if played > value:
                        value = played
        self.memo[key] = value
        return value

    def held(self, hand: int) -> float:
        """What holding `hand` at the end of the turn is worth (never more than 0 or so)."""
        known = self.held_memo.get(hand)
        if known is not None:
            return known
        tables = self.tables
        numbers = self.numbers
        cards = [numbers[index] for index in range(hand.bit_length()) if hand >> index & 1]
        queens = hand & self.queens
        if hand and hand == queens:
            points = sum([tables.queen_points[card] for card in cards])  # queens-only penalty
        else:
            points_of = tables.points
            points = sum([points_of[card] for card in cards])
        value = -points - PER_CARD * len(cards)
        if queens:
            queen_keep = tables.queen_keep
            for card in cards:
                if card % 13 == _QUEEN:
                    value += queen_keep[card]
        # Aim at the reset when close, steer clear of the limit.
        variant, total = self.variant, self.total
        after = total + points
        if hand and variant.reset_at_101 and after == 101:
            value += RESET_SHARE * total
        elif hand and variant.reset_at_100 and after == 100:
            value += RESET_SHARE * (total - 50)
        elif after > variant.lose_over:
            value -= LOSING_HAND
        self.held_memo[hand] = value
        return value

    def follow(self, rest: int, card: int, suit: str | None) -> float:
        """Cards kept that will likely fit when the turn comes back: the next player has
        to follow the ordered suit or the card's suit, and mostly does."""
        suits = self.suits
        if suit is not None:
            return FOLLOW * (rest & suits[_SUIT_INDEX[suit]]).bit_count()
        if card % 13 == _QUEEN:
            return FOLLOW * max((rest & mask).bit_count() for mask in suits)
        return FOLLOW * (rest & suits[card // 13]).bit_count()
