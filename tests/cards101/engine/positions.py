"""Positions built card by card for the engine's rule tests, through the saved-game format."""

from collections.abc import Sequence
from typing import Any

from cards101.engine import Game, Move
from cards101.rules import PRESETS, Card, Variant, deck, parse_card, parse_cards


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def position(
    variant: Variant | str,
    hands: Sequence[str],
    pile: str = "",
    stock: str = "",
    *,
    rest: str | int = "stock",
    to_move: int = 0,
    seed: int = 0,
    **state: Any,
) -> Game:
    """A game in its first round with these hands (one text per seat), the pile from the
    bottom up and the stock from the next card drawn on. The deck's other cards go under
    the stock (`rest="stock"`), under the pile (`"pile"`) or into a seat's hand (a seat
    number). `state` sets any other saved field (ordered_suit, cover, drew, went_out...)."""
    if isinstance(variant, str):
        variant = PRESETS[variant]
    game = Game.new(variant, players=len(hands), seed=seed)
    held = [cards(hand) for hand in hands]
    on_pile, in_stock = cards(pile), cards(stock)
    placed = {card for hand in held for card in hand} | set(on_pile) | set(in_stock)
    others = [card for card in deck(variant.deck_size) if card not in placed]
    if rest == "stock":
        in_stock += others
    elif rest == "pile":
        on_pile = others + on_pile
    else:
        held[rest] += others  # type: ignore[index]
    data = game.to_json() | {
        "hands": [[card.code for card in hand] for hand in held],
        "pile": [card.code for card in on_pile],
        "stock": [card.code for card in in_stock],
        "to_move": to_move,
        "ordered_suit": None,
        "cover": None,
        "skip_pending": False,
        "drew": False,
        "opening_queen": False,
        "lead": None,
        "went_out": [],
        "owed_draws": 0,
        "round_over": False,
        "log": [],
    }
    return Game.from_json(data | state)


def play(code: str, suit: str | None = None) -> Move:
    return Move("play", parse_card(code), suit)


DRAW = Move("draw")
PASS = Move("pass")


def hand(game: Game, seat: int) -> str:
    """A seat's hand as sorted codes, e.g. "6S 9H"."""
    return " ".join(card.code for card in sorted(game.cards_in_play()["hands"][seat]))


def top(game: Game) -> str | None:
    pile = game.cards_in_play()["pile"]
    return pile[-1].code if pile else None


def legal(game: Game) -> set[str]:
    """The legal moves as short text: "QS>H" (a Queen and its order), "9S", "draw", "pass"."""
    shown = set()
    for move in game.legal_moves():
        if move.kind != "play":
            shown.add(move.kind)
        else:
            shown.add(move.card.code + (f">{move.suit}" if move.suit else ""))
    return shown


def events(game: Game, seat: int = 0) -> list[tuple[Any, ...]]:
    """The round's log as seen by `seat`, as short tuples."""
    out = []
    for event in game.view(seat)["log"]:
        out.append(tuple(value for key, value in event.items() if key != "suit" or value))
    return out
