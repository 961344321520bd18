"""Template filters for tournament pages."""

from fractions import Fraction

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    """Tournament points as people write them: 3, 2.5, 1.33 (in the reader's locale)."""
    number = float(value)
    if number == int(number):
        return str(int(number))
    return number_format(round(number, 2), decimal_pos=None)
