"""What the pages of played tables read: a table whole (its match, seats and game), each part
in one query, as the services leave it after a change and as a board is drawn from it."""

from __future__ import annotations

from dataclasses import dataclass

from cards101.engine import Game
from play.models import PlaySeat, PlayTable


@dataclass
class AtTable:
    """A table read whole: the table (with its match), its seats in order (with their players
    and accounts) and the game, None before the deal. A service that changes the table returns
    it as it left it, and the view renders from it, so that nothing is read twice."""

    table: PlayTable
    seats: list[PlaySeat]
    game: Game | None

    def seat_at(self, position: int) -> PlaySeat:
        return next(seat for seat in self.seats if seat.position == position)


def at_table(pk: int, *, for_update: bool = False) -> AtTable:
    """The table with this id, whole (PlayTable.DoesNotExist if there is none). `for_update`
    (inside a service's transaction) locks the table's row alone: its seats and moves change
    only under that lock."""
    tables = PlayTable.objects.select_related("match")
    if for_update:
        tables = tables.select_for_update(of=("self",))
    table = tables.get(pk=pk)
    seats = list(table.seats.select_related("user__player", "player").order_by("position"))
    return AtTable(table, seats, None if table.state is None else Game.from_json(table.state))
