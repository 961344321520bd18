"""{% load players %}: a player's name linked to their page, where an app provides one."""

from django import template
from django.utils.html import format_html

from games import extensions

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
