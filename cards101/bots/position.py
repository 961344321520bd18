"""What a bot reads off its seat's view: its hand, the top card, what it owes, the table."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cards101.engine.game import card_effects
from cards101.engine.moves import OWN_CARDS, Move
from cards101.rules import Card, Variant, deck

# The bots' own object for every card (of either deck), so that their searches compare cards
# by identity; found again from any equal Card.
CARDS: Mapping[Card, Card] = {card: card for card in deck(52)}


@dataclass(frozen=True, slots=True)
class Effect:
    """What playing a card does, as the engine plays it: the next player skips (`skip`) and
    first draws `draw`; `cover` is what the player then owes ("any", "suit" or None);
    `skips_once_covered`: an 8 whose next player skips once it is covered."""

    skip: bool
    draw: int
    cover: str | None
    skips_once_covered: bool


@functools.lru_cache(maxsize=64)
def effects(variant: Variant) -> Mapping[Card, Effect]:
    """Every card's effect under `variant`, taken from the engine (the one copy of the rule)."""
    by_id = card_effects(variant)
    own = OWN_CARDS[variant.deck_size]
    return {card: Effect(*by_id[id(obj)]) for card, obj in own.items() if id(obj) in by_id}


# Moves in a round beyond which it is going round in circles: rounds that go somewhere take
# a few dozen (the engine cuts a round at its MOVE_LIMIT).
LONG_ROUND = 200


def moves_made(view: Mapping[str, Any]) -> int:
    """The moves made in the view's round (a view saved before the engine counted them: the
    events of its log, which also holds a skip or a restock now and then)."""
    moves = view.get("moves")
    return len(view["log"]) if moves is None else moves


def ending_moves(view: Mapping[str, Any], legal_moves: Sequence[Move]) -> list[Move]:
    """The moves that bring a round nearer its end: the plays of cards that make nobody
    draw (hands shrink, where a draw or a card that makes the next player draw only moves
    cards from one hand to another); failing those any play, failing that every move."""
    plays = [move for move in legal_moves if move.kind == "play"]
    by_card = effects(variant_of(tuple(view["variant"].items())))
    quiet = [move for move in plays if not by_card[move.card].draw]  # type: ignore[index]
    return quiet or plays or list(legal_moves)


@functools.lru_cache(maxsize=64)
def variant_of(options: tuple[tuple[str, Any], ...]) -> Variant:
    return Variant.from_dict(dict(options))


def card(code: str) -> Card:
    """The engine's own object for a card code."""
    return CARDS[Card.from_code(code)]


def fits(card: Card, top: Card | None, ordered_suit: str | None, cover: str | None) -> bool:
    """Whether `card` may be played on `top` now: the engine's rule of what follows what,
    for plans of several cards ahead (tests check it against the engine's legal moves)."""
    if top is None or card.rank == "Q":
        return True
    if cover == "suit":
        return card.suit == top.suit
    if ordered_suit is not None:
        return card.suit == ordered_suit
    return card.suit == top.suit or card.rank == top.rank


@dataclass(slots=True)
class Position:
    """A decision as the seat to move sees it: everything a heuristic needs, nothing hidden."""

    variant: Variant
    seat: int
    players: int
    hand: list[Card]
    top: Card | None
    ordered_suit: str | None
    cover: str | None
    skip_next: bool
    # Seats still holding cards this round, clockwise from the seat after this one.
    holders_after: list[int]
    hand_counts: list[int]
    totals: list[int]
    active: list[int]

    @property
    def holders(self) -> int:
        return len(self.holders_after) + 1

    @property
    def next_seat(self) -> int | None:
        return self.holders_after[0] if self.holders_after else None

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> Position:
        """The position of the view's seat (the seat to move)."""
        variant = variant_of(tuple(view["variant"].items()))
        seat = view["seat"]
        players = view["players"]
        out = set(view["went_out"])
        active = list(view["active"])
        holding = [s for s in active if s not in out]
        pile_top = view["top"]
        return cls(
            variant=variant,
            seat=seat,
            players=players,
            hand=[card(code) for code in view["hand"]],
            top=card(pile_top) if pile_top is not None else None,
            ordered_suit=view["ordered_suit"],
            cover=view["cover"] if view["to_move"] == seat else None,
            skip_next=view["skip_next"],
            holders_after=_clockwise_after(seat, players, holding),
            hand_counts=list(view["hand_counts"]),
            totals=list(view["totals"]),
            active=active,
        )

    @classmethod
    def of_game(cls, game: Any) -> Position:
        """The position of the seat to move in a game the bot built itself (a sampled world
        of its own simulation: every card in it is a guess, none is another seat's secret)."""
        seat = game.to_move
        players = game.players
        active = game.active
        went_out = game.went_out
        if went_out:
            out = {s for s, _ in went_out}
            holding = [s for s in active if s not in out]
        else:
            holding = active
        pile = game.pile
        # Mid-round the result holds the finished rounds only: the totals before this one.
        totals = game.result.totals
        # Called at every move of a simulated round: positional, and no more than it needs.
        return cls(
            game.variant,
            seat,
            players,
            list(game.hands[seat]),
            pile[-1] if pile else None,
            game.ordered_suit,
            game.cover,
            game.skip_pending,
            _clockwise_after(seat, players, holding),
            [len(hand) for hand in game.hands],
            [totals[s] for s in range(players)],
            list(active),
        )


def _clockwise_after(seat: int, players: int, holding: Sequence[int]) -> list[int]:
    return [s for step in range(1, players) if (s := (seat + step) % players) in holding]
