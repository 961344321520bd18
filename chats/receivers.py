"""What a group is told, heard from the apps below: for a club's group, a night opened
(clubs), a round seated (tournaments), a night finished (its season's table); for a group's
table, each change of it (play); and a group the bot left."""

from __future__ import annotations

from django.dispatch import receiver

from chats import panels, queries, services
from clubs import queries as club_queries
from clubs.signals import club_panels, night_opened
from games.signals import sheet_changed
from play.signals import table_changed
from telegram.signals import chat_closed
from tournaments.models import Tournament
from tournaments.signals import round_seated, tournament_settled


@receiver(night_opened)
def night_told(sender, *, night, **kwargs) -> None:
    club_chat = queries.chat_of_club(night.club_id)
    if club_chat is not None:
        services.tell_night_opened(club_chat=club_chat, night=night)


@receiver(round_seated)
def round_told(sender, *, round_, **kwargs) -> None:
    club_id = round_.tournament.club_id
    club_chat = queries.chat_of_club(club_id) if club_id else None
    if club_chat is not None:
        services.tell_round_seated(club_chat=club_chat, round_=round_)


@receiver(tournament_settled)
def season_told(sender, *, tournament, **kwargs) -> None:
    """A night finished: its season's table, as it now stands."""
    if tournament.club_id is None or tournament.status != Tournament.Status.FINISHED:
        return
    club_chat = queries.chat_of_club(tournament.club_id)
    season = club_queries.season_on_date(tournament.club_id, tournament.date)
    if club_chat is not None and season is not None:
        services.tell_season_after(club_chat=club_chat, night=tournament, season=season)


@receiver(table_changed)
def table_followed(sender, *, table, **kwargs) -> None:
    services.follow_table(table=table)


@receiver(sheet_changed)
def sheet_followed(sender, *, match, **kwargs) -> None:
    services.follow_sheet(match=match)


@receiver(chat_closed)
def chat_forgotten(sender, *, chat, **kwargs) -> None:
    services.forget_chat(chat=chat)


@receiver(club_panels)
def telegram_panel(sender, *, club, request, **kwargs) -> str:
    return panels.club_panel(request, club)
