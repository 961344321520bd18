"""Links to the site's CSV downloads in the form the reader's spreadsheet opens: Excel in
Russian splits cells on ";" (its decimal mark is the comma), so Russian pages ask for it."""

from django import template
from django.utils.translation import get_language

register = template.Library()

# Languages whose Excel separates list cells with ";".
SEMICOLON_LANGUAGES = ("ru",)


@register.filter
def for_spreadsheet(url: str) -> str:
    """The download's address, with `sep=semicolon` where the page's language wants it."""
    if not (get_language() or "").startswith(SEMICOLON_LANGUAGES):
        return url
    return f"{url}{'&' if '?' in url else '?'}sep=semicolon"
