"""{% load players %}: a player's name linked to their page, where an app provides one."""

from django import template
from django.utils.html import format_html

from games import extensions

register = template.Library()


@register.simple_tag
def player_link(player) -> str:
    url = extensions.player_page(player.pk)
    if url is None:
        return format_html("{}", player.name)
    return format_html('<a class="player-link" href="{}">{}</a>', url, player.name)
