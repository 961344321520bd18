"""What clubs hear from tournaments: a night of the club finished or reopened moves the club's
version (its pages and embedded season tables follow it), and a night's projector shows the
club's season table between rounds."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string

from clubs import seasons
from clubs.models import Club, Season
from core import live
from tournaments.signals import projector_panels, tournament_settled


@receiver(tournament_settled)
def night_settled(sender, *, tournament, **kwargs) -> None:
    if tournament.club_id is None:
        return
    # After the commit, under no lock: the clubs' services lock the club before a tournament,
    # and this is heard under the tournament's lock.
    club_id = tournament.club_id
    transaction.on_commit(lambda: live.moved_all(Club, [club_id]), robust=True)


@receiver(projector_panels)
def season_on_projector(sender, *, tournament, request, **kwargs) -> list[str]:
    """The table of the club's season the night is dated in (the one ending first, where
    seasons overlap): its top lines."""
    if tournament.club_id is None:
        return []
    season = (
        Season.objects.filter(
            club_id=tournament.club_id,
            starts__lte=tournament.date,
            ends__gte=tournament.date,
            closed_at__isnull=True,
        )
        .order_by("ends", "pk")
        .first()
    )
    if season is None:
        return []
    rows = seasons.season_table(season)[: seasons.PROJECTOR_LINES]
    return [
        render_to_string(
            "clubs/_projector_season.html",
            {"season": season, "lines": seasons.lines_of(season, rows)},
            request=request,
        )
    ]
