"""A group's played tables (`/play`): the words of their post in the group (Telegram's HTML,
from templates), read only from what every seat may see: the top card, whose move, the last
moves and the totals; never a card of anyone's hand. The Mini App's link to a table
(`t<id>`) is play's (play/telegram_start.py)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cards101.rules import parse_card
from chats.models import GroupTable
from core.http import absolute
from games.labels import card_notation
from games.sheet import Sheet
from play import queries as play_queries
from play.board import describe
from telegram import start

# A table of a group: 2 to 4 people (a bot joins one left alone), the move clock of chats.
MOST_SEATS = 4
MOVE_SECONDS = 120
LAST_MOVES = 3


def lobby(group_table: GroupTable) -> tuple[str, list]:
    """The open table: who has joined, a button to join and one to start."""
    seats = list(group_table.seats.all())
    score = group_table.kind == GroupTable.Kind.SCORE
    html = render_to_string(
        "chats/table_open.html", {"seats": seats, "most": MOST_SEATS, "score": score}
    )
    buttons = [
        [{"text": pgettext("a table's seat", "Join"), "callback_data": f"join:{group_table.pk}"}],
        [{"text": _("Start"), "callback_data": f"start:{group_table.pk}"}],
    ]
    return html.strip(), buttons


def journal(group_table: GroupTable) -> tuple[str, list]:
    """The table being played, or its end: what every seat may see, and the way to one's
    hand (the Mini App, or the site where it is not set up)."""
    table = group_table.table
    names = {seat.position: _seat_name(seat) for seat in table.seats.select_related("player")}
    view = play_queries.view_for(table, None) or {}  # what every seat sees, a spectator's
    events = [describe(event, names) for event in view.get("log", [])[-LAST_MOVES:]]
    top = view.get("top")
    context = {
        "table": table,
        "view": view,
        "top": card_notation(parse_card(top)) if top else "",
        "to_move": names.get(view.get("to_move")) if view and not view.get("round_over") else "",
        "events": events,
        "totals": [
            (names[position], total) for position, total in enumerate(view.get("totals", []))
        ],
        "over": view.get("match_over", False),
    }
    html = render_to_string("chats/table_journal.html", context)
    if context["over"]:
        link = [{"text": _("The replay"), "url": absolute(table.get_absolute_url())}]
    else:
        opened = start.link(f"t{table.pk}") or absolute(table.get_absolute_url())
        link = [{"text": _("My hand"), "url": opened}]
    return html.strip(), [link]


def _seat_name(seat) -> str:
    if seat.bot:
        return str(seat.player) if seat.player else seat.bot
    return seat.player.name if seat.player else "?"


def sheet_journal(group_table: GroupTable) -> tuple[str, list]:
    """A score sheet of real cards: after each round, each player's total, who reset at
    exactly 101 and who is out; a button for each round waiting to be confirmed, and the way
    to the sheet (where rounds are entered)."""
    sheet = Sheet(group_table.match)
    names = {seat.pk: str(seat.player) for seat in sheet.seats}
    last = sheet.rows[-1] if sheet.rows else None
    events = []
    if last is not None:
        for cell in last.cells:
            if cell is not None and cell.event in EVENT_WORDS:
                events.append(EVENT_WORDS[cell.event]() % {"name": names[cell.seat_id]})
    context = {
        "match": group_table.match,
        "last": last,
        "totals": [(names[seat.pk], seat.total, seat.has_lost) for seat in sheet.seats],
        "events": events,
        "over": group_table.match.is_finished,
    }
    html = render_to_string("chats/sheet_journal.html", context)
    buttons = [
        [
            {
                "text": _("Confirm round %(number)s") % {"number": waiting.round.number},
                "callback_data": f"confirm:{group_table.pk}:{round_id}",
            }
        ]
        for round_id, waiting in sheet.awaiting.items()
    ]
    path = group_table.match.get_absolute_url()
    opened = start.link(f"m{group_table.match.pk}") or absolute(path)
    buttons.append([{"text": _("The score sheet"), "url": opened}])
    return html.strip(), buttons


EVENT_WORDS = {
    "reset_to_0": lambda: _("%(name)s reset at exactly 101: back to 0"),
    "reset_to_50": lambda: _("%(name)s reset at exactly 100: back to 50"),
    "lost": lambda: _("%(name)s is out"),
}
