"""What clubs add to the pages of the apps below them: a club night's awards on its tournament
page, and a player's awards on their profile."""

from django.dispatch import receiver
from django.template.loader import render_to_string

from clubs import awards
from clubs.models import Season
from stats.signals import profile_panels
from tournaments.models import Tournament
from tournaments.signals import tournament_panels


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
