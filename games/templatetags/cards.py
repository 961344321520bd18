"""Template filters that write cards in the reader's language."""

from django import template

from games.labels import card_name, card_notation
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
