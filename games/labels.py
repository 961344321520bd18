"""What the site calls the rules' options, values and errors, in the user's language."""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Mapping

from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from cards101.rules import PRESETS, RulesError, Variant, format_card, parse_cards
from cards101.rules.cards import Card
from cards101.rules.errors import PLAYER_LIST_PARAMS, PLAYER_PARAMS


def started(moment: datetime.datetime) -> str:
    """When a match or a table began, as a name of it says it: "27 November, 19:40", in
    Russian "27 ноября, 19:40" (the month small, in the genitive)."""
    return date_format(localtime(moment), "j E, H:i")


PRESET_LABELS = {
    "classic": _("Classic"),
    "aaow": _("RD AAOW"),
    "conventions": _("Table conventions"),
}
PRESET_DESCRIPTIONS = {
    "classic": _("4 cards, a 6 is covered by its player, 7♠ draws 4, last survivor wins, 100 → 50"),
    "aaow": _(
        "4 cards, the dealer's card opens, many penalty cards, the round runs until one "
        "player holds cards, the match ends when someone passes 101"
    ),
    "conventions": _("5 cards, a 9 counts 9, Q♥ is the big queen, exactly 101 resets"),
}

# Options that change the score sheet come first; the rest only change how a round is played.
SCORING_OPTIONS = (
    "round_end",
    "nine_points",
    "big_queen",
    "out_bonus",
    "queens_only_penalty",
    "reset_at_101",
    "reset_at_100",
    "lose_over",
    "game_end",
    "deck_size",
)

OPTION_LABELS = {
    "deck_size": _("Deck"),
    "hand_size": _("Cards dealt to each player"),
    "opening": _("First card of a round"),
    "leader": _("Who leads after the first round"),
    "after_draw": _("After drawing a card"),
    "draw_when_able": _("A player may draw instead of playing a playable card"),
    "ace_skips": _("An Ace makes the next player skip"),
    "six": _("Six"),
    "seven_draw": _("Seven: the next player draws"),
    "seven_of_spades_draw": _("Seven of spades: the next player draws"),
    "eight": _("Eight"),
    "king_of_spades_draw": _("King of spades: the next player draws"),
    "restock": _("When the stock runs out, the pile is"),
    "round_end": _("A round ends"),
    "nine_points": _("A nine counts"),
    "big_queen": _("The big queen (worth 40)"),
    "out_bonus": _("Going out with a Queen takes 20 off (the big queen 40)"),
    "queens_only_penalty": _("A hand of only Queens counts 20 per Queen (the big queen 40)"),
    "reset_at_101": _("A total of exactly 101 becomes 0"),
    "reset_at_100": _("A total of exactly 100 becomes 50"),
    "lose_over": _("A total above this loses"),
    "game_end": _("The match ends"),
}

CHOICE_LABELS = {
    ("deck_size", 36): _("36 cards (6 to Ace)"),
    ("deck_size", 52): _("52 cards (2 to Ace)"),
    ("opening", "dealer_card"): _("the last card dealt to the leader is turned up and played"),
    ("opening", "any"): _("the leader leads any card"),
    ("opening", "last_dealt"): _("the leader must lead the last card dealt to them"),
    ("leader", "previous_winner"): _("the winner of the previous round"),
    ("leader", "clockwise"): _("the next player clockwise"),
    ("after_draw", "may_play"): _("it may be played, or any card now playable"),
    ("after_draw", "pass"): _("the turn passes"),
    ("six", "draw_2_skip"): _("the next player draws 2 and skips"),
    ("six", "cover_self"): _("its player must cover it"),
    ("six", "cover_self_suit"): _("its player must cover it with its suit or a Queen"),
    ("six", "plain"): pgettext_lazy("card effect", "no effect"),
    ("eight", "cover_self_skip"): _("its player must cover it, the next player skips"),
    ("eight", "plain"): pgettext_lazy("card effect", "no effect"),
    ("restock", "turn_over"): _("turned over"),
    ("restock", "shuffle"): _("shuffled"),
    ("round_end", "first_out"): _("when the first player goes out"),
    ("round_end", "last_holder"): _("when only one player still holds cards"),
    ("nine_points", 0): _("0 points"),
    ("nine_points", 9): _("9 points"),
    ("big_queen", "S"): _("Queen of spades"),
    ("big_queen", "H"): _("Queen of hearts"),
    ("big_queen", "D"): _("Queen of diamonds"),
    ("big_queen", "C"): _("Queen of clubs"),
    ("game_end", "first_loser"): _("in the round in which someone loses"),
    ("game_end", "last_survivor"): _("when one player is left; losers leave"),
}

RANK_NAMES = {
    "2": _("Two"),
    "3": _("Three"),
    "4": _("Four"),
    "5": _("Five"),
    "6": _("Six"),
    "7": _("Seven"),
    "8": _("Eight"),
    "9": _("Nine"),
    "10": _("Ten"),
    "J": _("Jack"),
    "Q": _("Queen"),
    "K": _("King"),
    "A": _("Ace"),
}
SUIT_NAMES = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}


def card_notation(card: Card) -> str:
    """The card as the current language writes it: Q♠ in English, Д♠ in Russian."""
    return format_card(card, "ru" if (get_language() or "en").startswith("ru") else "en")


def card_name(card: Card) -> str:
    return gettext("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[card.rank],
        "suit": SUIT_NAMES[card.suit],
    }


def rules_message(error: RulesError, names: Mapping[Hashable, str] | None = None) -> str:
    """A rules error in the user's language, cards in the language's notation, players
    shown as `names[key]` (e.g. seat position -> display name) where given."""
    localized = RulesError(
        error.template,
        {
            k: v if k in PLAYER_PARAMS or k in PLAYER_LIST_PARAMS else _localized(v)
            for k, v in error.params.items()
        },
        player=error.player,
        round=error.round,
    )
    return localized.render(gettext, names)


def _localized(value: object) -> object:
    if isinstance(value, Card):
        return card_notation(value)
    if isinstance(value, tuple):
        return tuple(_localized(item) for item in value)
    return value


def preset_label(name: str) -> str:
    return str(PRESET_LABELS.get(name, name))


def rules_summary(variant: Variant, preset: str) -> str:
    """One line of the rules in force that matter for the score sheet."""
    queen = card_notation(Card("Q", variant.big_queen))
    parts = [
        gettext("%(deck)s cards, %(hand)s each")
        % {"deck": variant.deck_size, "hand": variant.hand_size},
        gettext("the first player out ends the round")
        if variant.round_end == "first_out"
        else gettext("the round runs until one player holds cards"),
        gettext("9 counts %(points)s") % {"points": variant.nine_points},
        gettext("%(queen)s is the big queen") % {"queen": queen},
    ]
    if variant.out_bonus:
        parts.append(gettext("out with a Queen −20 (%(queen)s −40)") % {"queen": queen})
    if variant.queens_only_penalty:
        parts.append(gettext("only Queens left: 20 each (%(queen)s 40)") % {"queen": queen})
    if variant.reset_at_101:
        parts.append(gettext("101 → 0"))
    if variant.reset_at_100:
        parts.append(gettext("100 → 50"))
    parts.append(gettext("over %(limit)s loses") % {"limit": variant.lose_over})
    parts.append(
        gettext("the match ends when someone loses")
        if variant.game_end == "first_loser"
        else gettext("the last player left wins")
    )
    name = preset_label(preset)
    if variant != PRESETS.get(preset):
        name = gettext("%(preset)s with house rules") % {"preset": name}
    return f"{name}: " + " · ".join(parts)


def option_value_label(name: str, value) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    label = CHOICE_LABELS.get((name, value))
    return str(label) if label is not None else str(value)


def changed_options(variant: Variant, preset: str) -> list[tuple[str, str]]:
    """(option label, value label) for every option that differs from the preset."""
    base = PRESETS[preset]
    return [
        (str(OPTION_LABELS[name]), option_value_label(name, getattr(variant, name)))
        for name in Variant.option_names()
        if getattr(variant, name) != getattr(base, name)
    ]


def outcome_label(outcome: dict) -> str:
    """One player's outcome as entered, for people: "went out with Q♠", "cards left: 9♥ A♣"."""
    if "points" in outcome:
        return gettext("%(points)s points") % {"points": outcome["points"]}
    kind = "out" if "out" in outcome else "hand"
    cards = " ".join(card_notation(card) for card in parse_cards(outcome[kind]))
    if kind == "out":
        return gettext("went out with %(card)s") % {"card": cards}
    return gettext("cards left: %(cards)s") % {"cards": cards}


def presets_table() -> list[tuple[str, list[str]]]:
    """Every option with its value in each preset (in PRESET_LABELS order), for the rules page."""
    return [
        (
            str(OPTION_LABELS[name]),
            [option_value_label(name, getattr(PRESETS[preset], name)) for preset in PRESET_LABELS],
        )
        for name in Variant.option_names()
    ]
