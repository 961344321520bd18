"""{% load qr %}{% qr url label %}: a QR code of an address as inline SVG (drawn on the server by
segno, no network), for printed table cards and the projector."""

import segno
from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def qr(context, path: str, label: str) -> str:
    """The QR code of this site's `path` as a full address (scanned from paper or a screen)."""
    request = context.get("request")
    address = request.build_absolute_uri(path) if request is not None else path
    # The SVG is segno's own markup (no user text in it); the label is escaped.
    svg = segno.make(address, error="m").svg_inline(scale=4, omitsize=True, dark="#000")
    return format_html(
        '<figure class="qr" role="img" aria-label="{}">{}</figure>', label, mark_safe(svg)
    )
