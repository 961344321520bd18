"""What clubs add to the apps below them: a club night's awards on its tournament page and a
player's awards on their profile; a night finished or reopened moves the club's version (its
pages and embedded season tables follow it), and a night's projector shows the club's season
table between rounds."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string

from clubs import awards, seasons
from clubs.models import Club, Season
from core import live
from stats.signals import profile_panels
from tournaments.models import Tournament
from tournaments.signals import projector_panels, tournament_panels, tournament_settled


@receiver(tournament_panels)
def night_awards_panel(sender, *, tournament, **kwargs) -> str:
    """A finished club night's awards (no query for any other tournament)."""
    found = awards.night_awards(tournament)
    if not found:
        return ""
    return render_to_string("clubs/_night_awards.html", {"awards": awards.with_players(found)})


@receiver(profile_panels)
def player_awards_panel(sender, *, player, **kwargs) -> str:
    """The nights and seasons where the player won an award (one query when they never played
    a finished club night)."""
    won: list[tuple[Season | None, Tournament | None, list[awards.Award]]] = []
    for item in awards.awards_of_player(player.pk):
        if not won or won[-1][:2] != (item.season, item.night):
            won.append((item.season, item.night, []))
        won[-1][2].append(item.award)
    if not won:
        return ""
    return render_to_string("clubs/_player_awards.html", {"won": won})


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
