"""A player's move (play a card, draw, pass) and the error an illegal move raises."""

import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Self

from cards101.rules import DECK_SIZES, RANKS, SUITS, Card, RulesError, deck, gettext_noop

MoveKind = Literal["play", "draw", "pass"]
MOVE_KINDS: tuple[MoveKind, ...] = ("play", "draw", "pass")

NOT_A_MOVE = gettext_noop("%(value)s is not a move: play a card, draw or pass")

# The engine deals, stores and plays only the rules library's own card objects (deck() makes
# each deck once, and score_match looks cards up among them), so that finding a card, in a
# hand or in score_match's tables, is an identity check rather than a comparison.
OWN_CARDS: Mapping[int, Mapping[Card, Card]] = {
    size: {card: card for card in deck(size)} for size in DECK_SIZES
}


class IllegalMove(RulesError):
    """A move the rules do not allow now; `str()` says why in English, `render()` translates
    and shows seats by name (`names={0: "Anna"}`), and the game is left as it was."""

    def render(
        self,
        translate: Callable[[str], str] = gettext_noop,
        names: Mapping[Hashable, str] | None = None,
    ) -> str:
        if names is None and "player" in self.params:
            # Without names a seat reads "seat 2" rather than a bare "2".
            names = {self.params["player"]: f"seat {self.params['player']}"}
        return super().render(translate, names)


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Move:
    """One decision: `play` a card (a Queen with the `suit` it orders), `draw` or `pass`."""

    kind: MoveKind
    card: Card | None = None
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in MOVE_KINDS:
            raise IllegalMove(NOT_A_MOVE, {"value": repr(self.kind)})
        if self.kind == "play":
            if not isinstance(self.card, Card):
                raise IllegalMove(gettext_noop("Say which card to play"))
            if self.suit is not None and self.suit not in SUITS:
                raise IllegalMove(
                    gettext_noop('A Queen orders S, H, D or C, not "%(suit)s"'),
                    {"suit": str(self.suit)},
                )
        elif self.card is not None or self.suit is not None:
            raise IllegalMove(gettext_noop("Only a play names a card or a suit"))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def sort_key(self) -> tuple[int, tuple[int, int], int]:
        """Plays in deck order (a Queen's orders ♠ ♥ ♦ ♣), then draw, then pass."""
        card = self.card.sort_key if self.card is not None else (-1, -1)
        suit = SUITS.index(self.suit) if self.suit in SUITS else -1
        return (MOVE_KINDS.index(self.kind), card, suit)

    def __str__(self) -> str:
        if self.kind != "play":
            return self.kind
        return f"play {self.card}" + (f" ordering {self.suit}" if self.suit else "")

    def to_json(self) -> dict[str, str]:
        """The move as stored, e.g. {"kind": "play", "card": "QS", "suit": "H"}."""
        data = {"kind": self.kind}
        if self.card is not None:
            data["card"] = self.card.code
        if self.suit is not None:
            data["suit"] = self.suit
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """The move stored by `to_json`; anything else raises IllegalMove."""
        if not isinstance(data, Mapping) or set(data) - {"kind", "card", "suit"}:
            raise IllegalMove(NOT_A_MOVE, {"value": repr(data)})
        card = data.get("card")
        if card is not None:
            try:
                card = Card.from_code(card)
            except RulesError as error:
                raise IllegalMove(error.template, error.params) from None
        return cls(data.get("kind"), card, data.get("suit"))  # type: ignore[arg-type]


DRAW = Move("draw")
PASS = Move("pass")


def _moves_of(card: Card) -> tuple[Move, ...]:
    if card.is_queen:
        return tuple(Move("play", card, suit) for suit in SUITS)
    return (Move("play", card),)


# Every play there can be, built once: the engine hands out these objects, so a move taken
# from legal_moves() is found again by identity, the cheapest comparison there is.
# Keyed by id(): a Card hashes in Python code, an int in C, and the engine looks up the moves
# of a card at every turn. The keys are the cards of OWN_CARDS, alive for good.
PLAYS_BY_ID: Mapping[int, tuple[Move, ...]] = {
    id(card): _moves_of(card) for cards in OWN_CARDS.values() for card in cards
}


def _by_index(
    size: int, fits: Callable[[Card], bool] = lambda card: True
) -> tuple[tuple[Move, ...], ...]:
    """The plays of each card of the deck (deck()'s own) that `fits`, by Card.index, ()
    for any other."""
    plays: list[tuple[Move, ...]] = [()] * len(RANKS) * len(SUITS)
    for card in deck(size):
        if fits(card):
            plays[card.index] = PLAYS_BY_ID[id(card)]
    return tuple(plays)


# The same tables by Card.index, a slot read, for each deck size: every play of a card,
# and the plays that go on what lies on the pile, so that a hand's legal plays are a table
# read per card. On a top card (by its index): its suit or rank, or a Queen; where a suit is
# owed (an ordered suit, or a 6 to cover with its suit): that suit or a Queen.
PLAYS: Mapping[int, tuple[tuple[Move, ...], ...]] = {size: _by_index(size) for size in DECK_SIZES}
PLAYS_ON: Mapping[int, tuple[tuple[tuple[Move, ...], ...], ...]] = {
    size: tuple(
        _by_index(
            size,
            lambda card, top=top: card.suit == top.suit or card.rank == top.rank or card.is_queen,
        )
        for top in sorted(deck(52), key=lambda card: card.index)  # at their own index
    )
    for size in DECK_SIZES
}
PLAYS_OWED: Mapping[int, Mapping[str, tuple[tuple[Move, ...], ...]]] = {
    size: {
        suit: _by_index(size, lambda card, suit=suit: card.suit == suit or card.is_queen)
        for suit in SUITS
    }
    for size in DECK_SIZES
}
