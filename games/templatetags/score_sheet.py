"""{% load score_sheet %}{% sheet_rows sheet match can_edit %}: the body of a score sheet, a row
per round. Written in Python with plain string formatting rather than a template loop or
format_html: a sheet of 30 rounds of four has 120 cells, and the first view after every change
renders them all (later views read the cached page). Numbers need no escaping; every text is
escaped once per sheet."""

from django import template
from django.urls import reverse
from django.utils.formats import time_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

from games.models import Entry
from games.sheet import Cell

register = template.Library()

EVENTS = dict(Entry.Event.choices)
OUT = Entry.Kind.OUT.value


@register.simple_tag
def sheet_rows(sheet, match, can_edit: bool) -> SafeString:
    edit_title = escape(gettext("Edit this round"))
    out_of_the_match = escape(gettext("out of the match"))
    gone = f'<td class="cell gone" aria-label="{out_of_the_match}">–</td>'
    # An event's class and its label after the total, by the stored value.
    events = {
        value: (f" ev-{escape(value)}", f' <span class="event">{escape(label)}</span>')
        for value, label in EVENTS.items()
        if value
    }
    history = escape(reverse("games:history", args=[match.pk]))
    waits = escape(gettext("waits for confirmation"))
    waiting = f' <span class="await-mark" role="img" aria-label="{waits}" title="{waits}">?</span>'
    awaiting = sheet.awaiting
    rows = []
    for row in sheet.rows:
        number = row.round.number
        if can_edit:
            url = escape(reverse("games:round_edit", args=[match.pk, row.round.pk]))
            head = f'<a href="{url}" title="{edit_title}">{number}</a>'
        else:
            head = str(number)
        correction = row.correction
        if correction is not None:
            title = gettext("corrected by %(name)s at %(at)s") % {
                "name": correction.by_name or gettext("someone"),
                "at": time_format(localtime(correction.at), "H:i"),
            }
            head += (
                f'<a href="{history}#correction-{correction.pk}" class="corrected-mark" '
                f'title="{escape(title)}">✎</a>'
            )
        classes = []
        if correction is not None:
            classes.append("corrected")
        if row.round.pk in awaiting:
            head += waiting
            classes.append("unconfirmed")
        cells = "".join(gone if cell is None else _cell(cell, events) for cell in row.cells)
        marked = f' class="{" ".join(classes)}"' if classes else ""
        rows.append(f'<tr{marked}><th scope="row" class="num">{head}</th>{cells}</tr>\n')
    return mark_safe("".join(rows))


def _cell(cell: Cell, events: dict[str, tuple[str, str]]) -> str:
    classes = "cell"
    label = ""
    if cell.event:
        event_class, label = events[cell.event]
        classes += event_class
    if cell.kind == OUT:
        classes += " out"
    score = f"+{cell.score}" if cell.score > 0 else str(cell.score)
    return (
        f'<td class="{classes}"><span class="score">{score}</span> '
        f'<span class="total">{cell.total}</span>{label}</td>'
    )
