"""{% load players %}: a player's name linked to their page, where an app provides one; the
names version of a page, for the {% cache %} tags of fragments that show names."""

from django import template
from django.utils.html import format_html

from games import audience, extensions

register = template.Library()


@register.simple_tag
def player_link(player) -> str:
    """The name as the person looking may see it; no link to a profile hidden from them."""
    url = None if player.is_hidden else extensions.player_page(player.pk)
    # The whole name on hover, where a narrow column cuts a long one short (see .pname).
    if url is None:
        return format_html('<span class="pname" title="{}">{}</span>', player, player)
    return format_html(
        '<a class="player-link pname" href="{}" title="{}">{}</a>', url, player, player
    )


@register.filter
def names_version(shown_on) -> str:
    """`{% cache ... names_key match|names_version %}`: the names version of the page of
    `shown_on` (a match, a tournament), which moves when a player it shows hides or shows their
    name (games.audience)."""
    return audience.names_version(type(shown_on), shown_on.pk)
