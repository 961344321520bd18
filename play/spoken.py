"""The board in words for a screen reader: each event of a round as a sentence, cards and suits
by name ("Boris plays the seven of clubs"), and what changed since the board a page showed,
for the page's polite live region. Built from a seat's own view, so it says no more than the
seat may see: another seat's draw is a count, never its cards."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from cards101.rules import parse_card
from cards101.rules.cards import Card
from games.labels import SUIT_NAMES, card_name

# A card as the object of a sentence ("plays the seven of clubs": in Russian the accusative,
# "кладёт семёрку треф").
RANKS_IN_A_SENTENCE = {
    "2": pgettext_lazy("a card in a sentence", "two"),
    "3": pgettext_lazy("a card in a sentence", "three"),
    "4": pgettext_lazy("a card in a sentence", "four"),
    "5": pgettext_lazy("a card in a sentence", "five"),
    "6": pgettext_lazy("a card in a sentence", "six"),
    "7": pgettext_lazy("a card in a sentence", "seven"),
    "8": pgettext_lazy("a card in a sentence", "eight"),
    "9": pgettext_lazy("a card in a sentence", "nine"),
    "10": pgettext_lazy("a card in a sentence", "ten"),
    "J": pgettext_lazy("a card in a sentence", "jack"),
    "Q": pgettext_lazy("a card in a sentence", "queen"),
    "K": pgettext_lazy("a card in a sentence", "king"),
    "A": pgettext_lazy("a card in a sentence", "ace"),
}
# A suit as a Queen orders it ("orders hearts", "заказывает черви").
ORDERED_SUITS = {
    "S": pgettext_lazy("ordered suit", "spades"),
    "H": pgettext_lazy("ordered suit", "hearts"),
    "D": pgettext_lazy("ordered suit", "diamonds"),
    "C": pgettext_lazy("ordered suit", "clubs"),
}

# What a page names as the board it shows: the round (0-based, as the engine counts) and how
# many events of its log it showed, "2.14".
SEEN = re.compile(r"(\d{1,4})\.(\d{1,6})")


def seen(view: Mapping[str, Any]) -> str:
    """How a page names this board when it asks for the next one."""
    return f"{view['round']}.{len(view.get('log', []))}"


def parse_seen(text: str | None) -> tuple[int, int] | None:
    """The round and count of events a page says it showed; None if it says nothing readable."""
    found = SEEN.fullmatch(text or "")
    return (int(found[1]), int(found[2])) if found else None


def card_in_a_sentence(card: Card) -> str:
    return pgettext("a card in a sentence", "the %(rank)s of %(suit)s") % {
        "rank": RANKS_IN_A_SENTENCE[card.rank],
        "suit": SUIT_NAMES[card.suit],
    }


def of_the_table(event: Mapping[str, Any]) -> str:
    """An event that is no seat's (the pile turned over, the round cut), written and said
    alike."""
    if event.get("kind") == "restock":
        return _("The pile is turned over into a new stock")
    return _("The round is cut after %(count)s moves: each hand is counted") % {
        "count": event.get("count", 0)
    }


# The events of a seat's own move, which the stand-in may make for its person (the others
# follow from a move: a skip, going out, the pile turned over).
ACTS = frozenset({"play", "draw", "pass", "order"})


def by_site(log: Sequence[Mapping[str, Any]], spans: Iterable[tuple[int, int, int]]) -> set[int]:
    """The indices of the events of `log` the site made for a person: a stand-in's move made
    at seat `seat` the events [start, end) of the round's log (`spans`: (seat, start, end))."""
    return {
        index
        for seat, start, end in spans
        for index in range(start, min(end, len(log)))
        if log[index].get("seat") == seat and log[index].get("kind") in ACTS
    }


def for_you_by_site(event: Mapping[str, Any]) -> str:
    """An event of one's own seat made by the site for one (the stand-in), as a sentence."""
    match event.get("kind"):
        case "play":
            card = card_in_a_sentence(parse_card(event["card"]))
            if event.get("suit"):
                return _("The site plays %(card)s for you and orders %(suit)s") % {
                    "card": card,
                    "suit": ORDERED_SUITS[event["suit"]],
                }
            return _("The site plays %(card)s for you") % {"card": card}
        case "draw":
            count = int(event.get("count", 1))
            if event.get("cards"):
                cards = ", ".join(card_in_a_sentence(parse_card(code)) for code in event["cards"])
                return ngettext(
                    "The site draws %(count)s card for you: %(cards)s",
                    "The site draws %(count)s cards for you: %(cards)s",
                    count,
                ) % {"count": count, "cards": cards}
            return ngettext(
                "The site draws %(count)s card for you",
                "The site draws %(count)s cards for you",
                count,
            ) % {"count": count}
        case "pass":
            return _("The site passes for you")
        case "order":
            return _("The site orders %(suit)s for you on the turned-up Queen") % {
                "suit": ORDERED_SUITS[event["suit"]]
            }
    return ""


def made_by_site(sentence: str) -> str:
    """An event of another seat's, made by the site for its person (the stand-in)."""
    return _("%(event)s (moved by the site)") % {"event": sentence}


def say(
    event: Mapping[str, Any], names: Mapping[int, str], mine: int | None, site: bool = False
) -> str:
    """One event of the round as a sentence, told to the seat `mine` (None: a spectator);
    `site`: the site made it for the seat's person (the stand-in)."""
    seat = event.get("seat")
    me = seat is not None and seat == mine
    if site:
        if me:
            return for_you_by_site(event)
        return made_by_site(say(event, names, mine))
    name = names.get(seat, "") if seat is not None else ""
    match event.get("kind"):
        case "play":
            card = card_in_a_sentence(parse_card(event["card"]))
            suit = ORDERED_SUITS[event["suit"]] if event.get("suit") else None
            if me and suit:
                return _("You play %(card)s and order %(suit)s") % {"card": card, "suit": suit}
            if me:
                return _("You play %(card)s") % {"card": card}
            if suit:
                return _("%(name)s plays %(card)s and orders %(suit)s") % {
                    "name": name,
                    "card": card,
                    "suit": suit,
                }
            return pgettext("spoken", "%(name)s plays %(card)s") % {"name": name, "card": card}
        case "draw":
            count = int(event.get("count", 1))
            if me and event.get("cards"):
                cards = ", ".join(card_in_a_sentence(parse_card(code)) for code in event["cards"])
                return ngettext(
                    "You draw %(count)s card: %(cards)s",
                    "You draw %(count)s cards: %(cards)s",
                    count,
                ) % {"count": count, "cards": cards}
            if me:
                return ngettext("You draw %(count)s card", "You draw %(count)s cards", count) % {
                    "count": count
                }
            return ngettext(
                "%(name)s draws %(count)s card", "%(name)s draws %(count)s cards", count
            ) % {"name": name, "count": count}
        case "pass":
            return _("You pass") if me else _("%(name)s passes") % {"name": name}
        case "skip":
            return _("You skip a turn") if me else _("%(name)s skips a turn") % {"name": name}
        case "out":
            return _("You go out") if me else _("%(name)s goes out") % {"name": name}
        case "restock" | "cut":
            return of_the_table(event)
        case "opening":
            return _("The first card: %(card)s") % {"card": card_name(parse_card(event["card"]))}
        case "order":
            suit = ORDERED_SUITS[event["suit"]]
            if me:
                return _("You order %(suit)s on the turned-up Queen") % {"suit": suit}
            return _("%(name)s orders %(suit)s on the turned-up Queen") % {
                "name": name,
                "suit": suit,
            }
    return ""


def news(
    view: Mapping[str, Any],
    names: Mapping[int, str],
    mine: int | None,
    since: tuple[int, int] | None,
    site: Collection[int] = (),
) -> str:
    """What happened since the board a page showed (`since`, as `parse_seen` reads it), in
    sentences, then where that leaves the seat (its turn, the round over); "" when the page
    showed no board before, or nothing happened since. `site`: the indices of the events the
    site made for a person (`by_site`)."""
    if since is None:
        return ""
    shown_round, shown_events = since
    log: Sequence[Mapping[str, Any]] = view.get("log", [])
    sentences = []
    if view["round"] == shown_round:
        if shown_events >= len(log):
            return ""
        first = shown_events
    elif view["round"] > shown_round:
        sentences.append(_("Round %(number)s") % {"number": view["round"] + 1})
        first = 0
    else:
        return ""
    sentences += [
        text
        for index in range(first, len(log))
        if (text := say(log[index], names, mine, index in site))
    ]
    if view["round_over"]:
        sentences.append(_("The match is over") if view["match_over"] else _("The round is over"))
    elif mine is not None and view["to_move"] == mine:
        sentences.append(_("Your turn: cover your card") if view["must_cover"] else _("Your turn"))
    return "".join(f"{sentence}. " for sentence in sentences).strip()
