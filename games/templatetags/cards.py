"""Template filters that write cards in the reader's language."""

from django import template

from games.labels import card_name, card_notation
from games.rules import parse_cards
from games.rules.cards import Card

register = template.Library()


@register.filter
def card_label(card: Card) -> str:
    """Q♠ in English, Д♠ in Russian."""
    return card_notation(card)


@register.filter
def card_title(card: Card) -> str:
    """ "Queen of spades", "Дама пик"."""
    return card_name(card)


@register.filter
def cards_label(codes: str) -> str:
    """Stored card codes ("QS 10H") in the reader's notation."""
    return " ".join(card_notation(card) for card in parse_cards(codes))
