"""What the score sheet shows: seats, rows of entries, standings, corrections; loaded on use."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property

from django.template.loader import render_to_string
from django.utils.translation import get_language

from cards101.rules import Variant, deck
from games import owners
from games.labels import card_name, card_notation, changed_options, rules_summary
from games.models import Correction, Entry, Match, Seat


@dataclass(frozen=True, slots=True)
class RoundRef:
    """A round as the sheet shows it."""

    pk: int
    number: int


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's entry in a round as the sheet shows it (read as plain values: a sheet of 30
    rounds of four is 120 of them)."""

    seat_id: int
    kind: str
    score: int
    total: int
    event: str


@dataclass
class SheetRow:
    round: RoundRef
    cells: list[Cell | None]
    correction: Correction | None  # the latest, if the round was corrected


class Sheet:
    """The score sheet of one match, loaded on first use.

    Pages cache the rendered sheet per match version (`Match.version`), so a cached page
    reads none of this and costs one query whatever the number of rounds.
    """

    def __init__(self, match: Match):
        self.match = match

    @cached_property
    def seats(self) -> list[Seat]:
        return list(self.match.seats.select_related("player").order_by("position"))

    @cached_property
    def variant(self) -> Variant:
        """The match's rules, read from its options once for the page."""
        return self.match.variant

    @cached_property
    def names(self) -> dict[int, str]:
        """Display names by seat position, for messages about players."""
        return {seat.position: str(seat.player) for seat in self.seats}

    @cached_property
    def corrections(self) -> list[Correction]:
        if not self.match.corrected:
            return []
        return list(self.match.corrections.select_related("by__player"))

    @cached_property
    def rows(self) -> list[SheetRow]:
        # As the services scored them (Match.scored_rows), a cell per seat in seat order.
        latest: dict[int, Correction] = {}
        for correction in self.corrections:  # newest first
            if correction.round_id is not None:
                latest.setdefault(correction.round_id, correction)
        return [
            SheetRow(
                RoundRef(round_id, number),
                [None if cell is None else Cell(*cell) for cell in cells],
                latest.get(round_id),
            )
            for round_id, number, cells in self.match.scored_rows
        ]

    @cached_property
    def recent_corrections(self) -> list[Correction]:
        return self.corrections[:3]

    @cached_property
    def round_count(self) -> int:
        return len(self.match.scored_rows)

    @cached_property
    def standings(self) -> list[Seat]:
        return sorted(self.seats, key=lambda seat: (seat.place, seat.position))

    @cached_property
    def in_play(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.has_lost]

    @cached_property
    def leads_next(self) -> Seat | None:
        """The winner of the last round leads, when the sheet can tell who that was."""
        match = self.match
        if match.is_finished or not self.rows or self.variant.leader != "previous_winner":
            return None
        last = self.rows[-1].cells
        went_out = [e.seat_id for e in last if e is not None and e.kind == Entry.Kind.OUT]
        if len(went_out) != 1:
            return None
        return next((seat for seat in self.in_play if seat.pk == went_out[0]), None)

    @cached_property
    def crumbs(self) -> list[tuple[str, str]]:
        return owners.owner_of(self.match).crumbs(self.match)

    @cached_property
    def summary(self) -> str:
        return rules_summary(self.variant, self.match.preset)

    @cached_property
    def house_rules(self) -> list[tuple[str, str]]:
        return changed_options(self.variant, self.match.preset)


@functools.lru_cache(maxsize=8)
def _card_grid(deck_size: int, language: str) -> str:
    """The buttons of the card grid, the same for every player: rendered once per language."""
    cards = [
        {"code": c.code, "suit": c.suit, "label": card_notation(c), "title": card_name(c)}
        for c in deck(deck_size)
    ]
    # render_to_string returns a SafeString: the page inserts it as HTML.
    return render_to_string("games/_card_grid.html", {"cards": cards})


def card_grid(match: Match) -> str:
    return _card_grid(match.variant.deck_size, get_language())
