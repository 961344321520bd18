"""What a seat can tell about the cards it cannot see, and deals of them that fit it all.

The round's log is replayed from the deal: every card played or turned up is seen, a pile
turned over becomes a stock whose order everyone knows, the cards a seat draws from a known
stock are known to be in its hand, and a seat that drew (or passed) because nothing fitted
held no card that fitted then: no card of that suit or rank, and no Queen. Each unseen card
of another hand is a slot that remembers what it cannot be; `Knowledge.sample` deals the
unseen cards into the slots and the stock, each slot getting a card it may hold.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards101.bots.position import card, effects, fits, variant_of
from cards101.rules import Card, Variant, deck

TRIES = 20  # random deals tried before a constraint is given up


@dataclass(slots=True, eq=False)
class Slot:
    """A card this seat cannot see, in another hand or in the stock: a card never seen this
    round when `fresh`, or one of `among` (the cards of a pile shuffled into the stock),
    never one of `excluded` (what its holder showed it did not have)."""

    fresh: bool = True
    among: frozenset[Card] = frozenset()
    excluded: set[Card] = field(default_factory=set)

    def allows(self, card: Card, seen: set[Card]) -> bool:
        if card in self.excluded:
            return False
        return card in self.among or (self.fresh and card not in seen)

    def widen(self, other: Slot) -> None:
        """Take on what `other` allows as well."""
        self.fresh = self.fresh or other.fresh
        self.among = self.among | other.among
        self.excluded &= other.excluded


# An entry of a hand or of the stock: a card the seat knows is there, or a slot.
type Entry = Card | Slot


@dataclass(slots=True)
class Knowledge:
    """Where each card may be, as the seat of `view` can tell."""

    seat: int
    variant: Variant
    hand: list[Card]
    pile: list[Card]
    hands: list[list[Entry]]  # every seat's entries; the viewer's own is its hand
    stock: list[Entry]  # the first to be drawn first
    seen: set[Card]  # cards played or turned up this round
    consistent: bool  # False when the log could not be followed (then only counts are used)

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> Knowledge:
        variant = variant_of(tuple(view["variant"].items()))
        replay = _Replay(view, variant)
        try:
            replay.run()
            consistent = replay.matches_view()
        except (IndexError, KeyError, ValueError):
            consistent = False
        hand = [card(code) for code in view["hand"]]
        pile = [card(code) for code in view["pile_cards"]]
        if consistent:
            hands, stock, seen = replay.hands, replay.stock, replay.seen
        else:
            hands = [[Slot() for _ in range(count)] for count in view["hand_counts"]]
            stock = [Slot() for _ in range(view["stock"])]
            seen = set()
        hands[view["seat"]] = list(hand)
        return cls(
            seat=view["seat"],
            variant=variant,
            hand=hand,
            pile=pile,
            hands=hands,
            stock=stock,
            seen=seen,
            consistent=consistent,
        )

    def unseen(self) -> set[Card]:
        """The cards whose place this seat does not know."""
        known = set(self.hand) | set(self.pile)
        for entries in (*self.hands, self.stock):
            known.update(entry for entry in entries if isinstance(entry, Card))
        return set(deck(self.variant.deck_size)) - known

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """A deal of the unseen cards that fits what the seat knows: every hand (its own as
        it is) and the stock, first card to be drawn first."""
        unseen = self.unseen()
        slots = [
            entry for entries in (*self.hands, self.stock) for entry in entries if not _known(entry)
        ]
        fresh = unseen - self.seen
        within = {
            id(slot): (fresh if slot.fresh else set()) | (slot.among & unseen) for slot in slots
        }
        allowed = {id(slot): within[id(slot)] - slot.excluded for slot in slots}
        dealt = _deal(slots, allowed, unseen, rng)
        if dealt is None:  # what was read from passes and draws cannot all be true
            dealt = _deal(slots, within, unseen, rng)
        if dealt is None:
            cards = sorted(unseen)
            rng.shuffle(cards)
            dealt = {id(slot): cards[index] for index, slot in enumerate(slots)}
        hands = [[_fill(entry, dealt) for entry in entries] for entries in self.hands]
        return hands, [_fill(entry, dealt) for entry in self.stock]


def _known(entry: Entry) -> bool:
    return isinstance(entry, Card)


def _fill(entry: Entry, dealt: Mapping[int, Card]) -> Card:
    return entry if isinstance(entry, Card) else dealt[id(entry)]


def _deck_order(card: Card) -> tuple[int, int]:
    return card.sort_key


def _deal(
    slots: Sequence[Slot],
    allowed: Mapping[int, set[Card] | frozenset[Card]],
    unseen: set[Card],
    rng: random.Random,
) -> dict[int, Card] | None:
    """Each slot a different card it allows, or None when random tries find no such deal.
    The most constrained slots choose first; slots that allow anything take what is left."""
    if len(slots) != len(unseen):
        return None
    for _ in range(TRIES):
        order = list(slots)
        rng.shuffle(order)
        order.sort(key=lambda slot: len(allowed[id(slot)]))
        left = set(unseen)
        dealt: dict[int, Card] = {}
        for slot in order:
            # In deck order: a set's order follows the process's string hashing, and the
            # same seed must deal the same cards in every process.
            choices = sorted(
                (candidate for candidate in allowed[id(slot)] if candidate in left),
                key=_deck_order,
            )
            if not choices:
                break
            chosen = choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
            dealt[id(slot)] = chosen
            left.discard(chosen)
        else:
            return dealt
    return None


class _Replay:
    """The round's log followed from the deal, from the seat of the view."""

    def __init__(self, view: Mapping[str, Any], variant: Variant) -> None:
        self.view = view
        self.variant = variant
        self.effects = effects(variant)
        self.me = view["seat"]
        players = view["players"]
        active = view["active"]
        self.hands: list[list[Entry]] = [
            [Slot() for _ in range(variant.hand_size)] if seat in active else []
            for seat in range(players)
        ]
        self.hands[self.me] = []
        # How many cards the viewer holds, to check the replay against the view.
        self.mine = variant.hand_size if self.me in active else 0
        self.stock: list[Entry] = [
            Slot() for _ in range(variant.deck_size - variant.hand_size * len(active))
        ]
        self.pile: list[Card] = []
        self.seen: set[Card] = set()
        self.ordered_suit: str | None = None
        self.cover: str | None = None
        self.drew: int | None = None  # the seat that has just drawn by its own choice
        self.drew_cover: str | None = None

    def run(self) -> None:
        log = self.view["log"]
        for index, event in enumerate(log):
            kind = event["kind"]
            if kind in ("opening", "play"):
                self.played(event["seat"], card(event["card"]), event.get("suit"))
            elif kind == "order":
                self.ordered_suit = event["suit"]
            elif kind == "draw":
                own = not _penalty_draw(log, index)
                self.drawn(event["seat"], event["count"], event.get("cards"), own)
            elif kind == "pass":
                self.passed(event["seat"])
            elif kind == "restock":
                self.restocked(event["count"])
            if kind != "draw":
                self.drew = None

    def played(self, seat: int, played: Card, suit: str | None) -> None:
        self.take_from_hand(seat, played)
        self.pile.append(played)
        self.seen.add(played)
        self.ordered_suit = suit
        self.cover = self.effects[played].cover

    def take_from_hand(self, seat: int, played: Card) -> None:
        if seat == self.me:
            self.mine -= 1
            return
        entries = self.hands[seat]
        for index, entry in enumerate(entries):
            if entry is played:
                del entries[index]
                return
        # A card it could not see: from one of the slots that allow it. Take the narrowest
        # away and let the others allow what it did, so that whichever slot the card came
        # from, the cards left still fit (a slot narrower than another changes nothing).
        candidates = [
            entry
            for entry in entries
            if isinstance(entry, Slot) and entry.allows(played, self.seen)
        ]
        if not candidates:  # the log says it was there: our reading of a pass was wrong
            candidates = [entry for entry in entries if isinstance(entry, Slot)]
            for entry in candidates:
                entry.excluded.clear()
        narrowest = min(
            candidates, key=lambda slot: (slot.fresh, len(slot.among), -len(slot.excluded))
        )
        entries.remove(narrowest)
        for entry in candidates:
            if entry is not narrowest:
                entry.widen(narrowest)

    def drawn(self, seat: int, count: int, codes: Sequence[str] | None, own: bool) -> None:
        if own and seat != self.me and self.informative_draw():
            self.exclude(seat)
        if own:
            self.drew, self.drew_cover = seat, self.cover
        taken, self.stock = self.stock[:count], self.stock[count:]
        if len(taken) != count:
            raise ValueError("the stock ran out in the replay")
        if seat == self.me:
            self.mine += count
            return
        self.hands[seat].extend(taken)

    def informative_draw(self) -> bool:
        # Covering comes first; otherwise a draw says nothing fitted only when drawing
        # instead of playing is not allowed.
        return self.cover is not None or not self.variant.draw_when_able

    def passed(self, seat: int) -> None:
        after_own_draw = self.drew == seat
        if seat != self.me and (
            not after_own_draw
            or (self.variant.after_draw == "may_play" and self.drew_cover is None)
        ):
            self.exclude(seat)
        self.cover = None

    def exclude(self, seat: int) -> None:
        """`seat` showed it held nothing that fits now."""
        top = self.pile[-1] if self.pile else None
        fitting = {
            candidate
            for candidate in deck(self.variant.deck_size)
            if fits(candidate, top, self.ordered_suit, self.cover)
        }
        for entry in self.hands[seat]:
            if isinstance(entry, Slot):
                entry.excluded |= fitting

    def restocked(self, count: int) -> None:
        top = self.pile[-1]
        under = self.pile[:-1]
        if len(under) != count or self.stock:
            raise ValueError("the restock does not match the replay")
        if self.variant.restock == "turn_over":
            # Turned face down: the first card played in the pile is the first drawn.
            self.stock = list(under)
        else:
            among = frozenset(under)
            self.stock = [Slot(fresh=False, among=among) for _ in under]
        self.pile = [top]

    def matches_view(self) -> bool:
        view = self.view
        counts = [len(entries) for entries in self.hands]
        counts[self.me] = self.mine
        return (
            counts == list(view["hand_counts"])
            and len(self.stock) == view["stock"]
            and [c.code for c in self.pile] == list(view["pile_cards"])
        )


def _penalty_draw(log: Sequence[Mapping[str, Any]], index: int) -> bool:
    """A draw made inside another player's play ends with the drawer skipping (a draw owed
    across a restock comes in parts)."""
    seat = log[index]["seat"]
    for event in log[index + 1 :]:
        kind = event["kind"]
        if kind == "restock" or (kind == "draw" and event["seat"] == seat):
            continue
        return kind == "skip" and event["seat"] == seat
    return False
