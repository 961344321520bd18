"""What a club's group reads (Telegram's HTML, from templates: every name escaped), in the
language active when called. Names as anyone may see them: a group is read by people the
site does not know, so a player who hides their name is "Hidden player" there, whoever's
action sent the message (games.audience)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs import queries as club_queries
from core.http import absolute
from games import audience
from tournaments.models import Tournament, TournamentRound

# The season's table in a chat: its first lines (the page has the rest).
SEASON_LINES = 10


def _as_anyone(render):
    with audience.looking(frozenset):
        return render()


def _link(text: str, path: str) -> list:
    return [[{"text": text, "url": absolute(path)}]]


def night_opened(night: Tournament) -> tuple[str, list]:
    html = _as_anyone(lambda: render_to_string("chats/night_opened.html", {"night": night}))
    return html.strip(), _link(_("Register on the site"), night.get_absolute_url())


def round_seated(round_: TournamentRound) -> tuple[str, list]:
    def render():
        tables = [
            (table, [seat.player for seat in table.match.seats.order_by("position")])
            for table in round_.tables.select_related("match")
        ]
        return render_to_string("chats/round_seated.html", {"round": round_, "tables": tables})

    html = _as_anyone(render)
    return html.strip(), _link(_("The round on the site"), round_.tournament.get_absolute_url())


def season_table(season, night: Tournament) -> tuple[str, list]:
    def render():
        lines = club_queries.season_lines(season, top=SEASON_LINES)
        return render_to_string(
            "chats/season_table.html", {"season": season, "night": night, "lines": lines}
        )

    html = _as_anyone(render)
    path = reverse("clubs:season", args=[season.club.slug, season.pk])
    return html.strip(), _link(_("The whole table"), path)
