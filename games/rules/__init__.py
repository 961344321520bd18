"""The rules of 101 as pure Python: cards and notation, variants and presets, scoring."""

from games.rules.cards import (
    DECK_SIZES,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    deck,
    format_card,
    parse_card,
    parse_cards,
)
from games.rules.errors import RulesError, gettext_noop
from games.rules.scoring import (
    EVENT_KINDS,
    OUTCOME_KINDS,
    MatchResult,
    Outcome,
    RoundResult,
    card_points,
    max_points,
    out_score,
    rank_players,
    score_hand,
    score_match,
)
from games.rules.variants import (
    PRESETS,
    Variant,
    changed_options,
    check_players,
    preset_name,
)

__all__ = [
    "DECK_SIZES",
    "EVENT_KINDS",
    "OUTCOME_KINDS",
    "PRESETS",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "MatchResult",
    "Outcome",
    "RoundResult",
    "RulesError",
    "Variant",
    "card_points",
    "changed_options",
    "check_players",
    "deck",
    "format_card",
    "gettext_noop",
    "max_points",
    "out_score",
    "parse_card",
    "parse_cards",
    "preset_name",
    "rank_players",
    "score_hand",
    "score_match",
]
