"""Template filters for tournament pages."""

from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext

from tournaments.models import TIE_BREAK_COLUMNS, TIE_BREAKS

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    """Tournament points as people write them: 3, 2.5, 1.33 (in the reader's locale)."""
    number = float(value)
    if number == int(number):
        return str(int(number))
    return number_format(round(number, 2), decimal_pos=None)


@register.filter
def points_said(value: Fraction | int) -> str:
    """Tournament points with their word: "3 points", «3 очка», «2,5 очка» (a fraction takes
    the form of 2)."""
    number = float(value)
    count = int(number) if number == int(number) else 2
    return ngettext("%(points)s point", "%(points)s points", count) % {"points": points(value)}


@register.simple_tag
def tie_note(line) -> str:
    """For a player level on points with a neighbour: the tie-break that decided, with their
    figure, by the column's short name as the wide table heads it ("Penalty: 12"; the full
    name on hover), shown where the tie-break columns do not fit (a phone)."""
    if line.separated_by is None:
        return ""
    name, value = line.separated_by
    if not name:
        return format_html(
            '<small class="tie-note">{}</small>', gettext("level on every tie-break")
        )
    return format_html(
        '<small class="tie-note" title="{}">{}: {}</small>',
        TIE_BREAKS[name],
        TIE_BREAK_COLUMNS[name],
        points(value),
    )
