"""Playing cards, the two decks, and the card notation people type (English and Russian)."""

import functools
import re
from dataclasses import dataclass, field
from typing import Self

from cards101.rules.errors import RulesError, gettext_noop

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RUSSIAN_RANKS = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
DECK_SIZES = (36, 52)

_SUIT_ORDER = {suit: index for index, suit in enumerate(SUITS)}
_RANK_ORDER = {rank: index for index, rank in enumerate(RANKS)}

# Keys are upper case: tokens are upper-cased before lookup, Cyrillic included.
_RANK_TOKENS = {rank: rank for rank in RANKS} | {
    "В": "J",
    "Д": "Q",
    "К": "K",
    "Т": "A",
}
# The Russian suit letters a sheet accepts: пики, черви, бубны, and трефы as «т» or, from
# «крести», «к» (the buttons say «треф»; many people write «к»).
RUSSIAN_SUITS = {"S": ("П",), "H": ("Ч",), "D": ("Б",), "C": ("Т", "К")}
_SUIT_TOKENS = {
    "S": "S",
    "♠": "S",
    "♤": "S",
    "H": "H",
    "♥": "H",
    "♡": "H",
    "D": "D",
    "♦": "D",
    "♢": "D",
    "C": "C",
    "♣": "C",
    "♧": "C",
} | {letter: suit for suit, letters in RUSSIAN_SUITS.items() for letter in letters}
_SEPARATORS = re.compile(r"[\s,]+")
# Emoji keyboards send "♥️": the symbol plus an invisible variation selector.
_VARIATION_SELECTOR = "\ufe0f"

NOT_A_CARD = gettext_noop('"%(token)s" is not a card')


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card: rank "2".."10", "J", "Q", "K", "A" and suit "S", "H", "D", "C"."""

    rank: str
    suit: str
    # The card's place in the 52-card deck order (by suit, then rank), 0 to 51, the same for
    # equal cards: a slot read where tables are indexed by card (the engine's, scoring's),
    # far cheaper than hashing a Card (in Python) or looking its id() up.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank not in _RANK_ORDER or self.suit not in _SUIT_ORDER:
            raise RulesError(NOT_A_CARD, {"token": f"{self.rank}{self.suit}"})
        # Frozen: set as dataclass's own __init__ sets fields.
        object.__setattr__(
            self, "index", _SUIT_ORDER[self.suit] * len(RANKS) + _RANK_ORDER[self.rank]
        )

    def __str__(self) -> str:
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def sort_key(self) -> tuple[int, int]:
        """Deck order: by suit ♠ ♥ ♦ ♣, then by rank."""
        return (_SUIT_ORDER[self.suit], _RANK_ORDER[self.rank])

    @property
    def code(self) -> str:
        """ASCII form for URLs, forms and storage, e.g. "QS", "10H"."""
        return f"{self.rank}{self.suit}"

    @property
    def is_queen(self) -> bool:
        """Queens carry the bonuses and the queens-only penalty."""
        return self.rank == "Q"

    @classmethod
    def from_code(cls, code: str) -> Self:
        """The card of an ASCII code as made by `Card.code`."""
        if not isinstance(code, str) or len(code) < 2:
            raise RulesError(NOT_A_CARD, {"token": str(code)})
        return cls(code[:-1], code[-1])


def parse_card(token: str) -> Card:
    """One card from notation such as "10♥", "10h", "QS", "q♠", "Дп", "Вт" or "Тк"."""
    if not isinstance(token, str):
        raise RulesError(NOT_A_CARD, {"token": str(token)})
    return _parse_token(token)


# There are only so many ways to write 52 cards, so parsing each token once pays off.
@functools.lru_cache(maxsize=4096)
def _parse_token(token: str) -> Card:
    text = token.strip().replace(_VARIATION_SELECTOR, "").upper()
    rank = _RANK_TOKENS.get(text[:-1])
    suit = _SUIT_TOKENS.get(text[-1:])
    if rank is None or suit is None:
        raise RulesError(NOT_A_CARD, {"token": token.strip()})
    return Card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces and/or commas; empty text gives no cards."""
    if not isinstance(text, str):
        raise RulesError(NOT_A_CARD, {"token": str(text)})
    return _parse_text(text)


# A score sheet repeats hands such as "9♥ A♣"; tuples of frozen cards are safe to share.
@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[Card, ...]:
    return tuple(_parse_token(token) for token in _SEPARATORS.split(text) if token)


def format_card(card: Card, lang: str = "en") -> str:
    """A card for people: "Q♠" in English, "Д♠" in Russian."""
    if lang == "en":
        return str(card)
    if lang == "ru":
        return f"{RUSSIAN_RANKS.get(card.rank, card.rank)}{SUIT_SYMBOLS[card.suit]}"
    raise RulesError(
        gettext_noop('Cards can be written in "en" or "ru", not "%(lang)s"'),
        {"lang": str(lang)},
    )


def deck(deck_size: int) -> tuple[Card, ...]:
    """All cards of a 36-card (6..A) or 52-card (2..A) deck, by suit then rank."""
    if type(deck_size) is not int or deck_size not in DECK_SIZES:
        raise RulesError(
            gettext_noop("A deck has 36 or 52 cards, not %(deck_size)s"),
            {"deck_size": str(deck_size)},
        )
    return _deck(deck_size)


@functools.cache
def _deck(deck_size: int) -> tuple[Card, ...]:
    ranks = RANKS[-(deck_size // 4) :]
    return tuple(Card(rank, suit) for suit in SUITS for rank in ranks)
