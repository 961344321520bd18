"""{% load score_sheet %}{% sheet_rows sheet match can_edit %}: the body of a score sheet, a row
per round. Written in Python rather than a template loop: a sheet of 30 rounds of four has 120
cells, and the first view after every change renders them all (later views read the cached
page)."""

from django import template
from django.urls import reverse
from django.utils.formats import time_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

from games.models import Entry

register = template.Library()

EVENTS = dict(Entry.Event.choices)


@register.simple_tag
def sheet_rows(sheet, match, can_edit: bool) -> SafeString:
    edit_title = gettext("Edit this round")
    gone = format_html('<td class="cell gone" aria-label="{}">–</td>', gettext("out of the match"))
    history = reverse("games:history", args=[match.pk])
    rows = []
    for row in sheet.rows:
        number = row.round.number
        if can_edit:
            url = reverse("games:round_edit", args=[match.pk, row.round.pk])
            head = format_html('<a href="{}" title="{}">{}</a>', url, edit_title, number)
        else:
            head = format_html("{}", number)
        correction = row.correction
        if correction is not None:
            title = gettext("corrected by %(name)s at %(at)s") % {
                "name": correction.by or gettext("someone"),
                "at": time_format(localtime(correction.at), "H:i"),
            }
            head += format_html(
                '<a href="{}#correction-{}" class="corrected-mark" title="{}">✎</a>',
                history,
                correction.pk,
                title,
            )
        cells = format_html_join("", "{}", ((_cell(entry, gone),) for entry in row.cells))
        rows.append(
            format_html(
                '<tr{}><th scope="row" class="num">{}</th>{}</tr>\n',
                mark_safe(' class="corrected"') if correction is not None else "",
                head,
                cells,
            )
        )
    return mark_safe("".join(rows))


def _cell(entry, gone: SafeString) -> SafeString:
    if entry is None:
        return gone
    classes = "cell"
    if entry.event:
        classes += f" ev-{entry.event}"
    if entry.kind == Entry.Kind.OUT:
        classes += " out"
    score = f"+{entry.score}" if entry.score > 0 else str(entry.score)
    event = (
        format_html(' <span class="event">{}</span>', EVENTS[entry.event]) if entry.event else ""
    )
    return format_html(
        '<td class="{}"><span class="score">{}</span> <span class="total">{}</span>{}</td>',
        classes,
        score,
        entry.total,
        event,
    )
