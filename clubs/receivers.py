"""What clubs answer the apps below them: a club's owner and directors direct its nights and
read its members' names, its page names its members, and a guest merged into a member of the
same club leaves one membership (written by clubs.services); a club night's awards on its
tournament page and a player's on their profile; a night finished or reopened moves the club's
version (its pages and embedded season tables follow it), and a night's projector shows the
club's season table between rounds."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string

from claims.signals import merging_players, player_judges, players_merged
from clubs import queries, seasons, services
from clubs.models import Club, JoinRequest, Member
from clubs.rights import RUNS, clubs_run_by
from core import live
from games.models import Player
from games.signals import hidden_players_seen, pages_showing_players
from stats.signals import profile_panels
from tournaments.models import Tournament, nights_directed
from tournaments.signals import projector_panels, tournament_panels, tournament_settled


@receiver(nights_directed)
def club_directors_direct_its_nights(sender, *, user, **kwargs):
    return Tournament.objects.filter(club__in=clubs_run_by(user)).values("pk")


@receiver(player_judges)
def club_directors_judge(sender, *, player_ids: list[int], **kwargs) -> list[tuple[int, int]]:
    """A club's owner and directors keep its guest members, and decide who claims one."""
    return list(
        Member.objects.filter(
            player_id__in=player_ids,
            club__members__role__in=RUNS,
            club__members__player__user__isnull=False,
        ).values_list("player_id", "club__members__player__user_id")
    )


@receiver(hidden_players_seen)
def club_directors_see_their_members(sender, *, user, **kwargs):
    """The owner and directors call the roll of their members by name (and add them to
    nights): they read the names of those who hide them."""
    return Member.objects.filter(club__in=clubs_run_by(user)).values("player_id")


@receiver(hidden_players_seen)
def club_directors_see_who_asks_to_join(sender, *, user, **kwargs):
    """Asking to join shows the club's owner and directors who asks."""
    asking = JoinRequest.objects.filter(club__in=clubs_run_by(user)).values("user_id")
    return Player.objects.filter(user__in=asking).values("pk")


@receiver(pages_showing_players)
def clubs_showing(sender, *, players: list[int], **kwargs) -> list[tuple[type, int]]:
    """A club's page and members page name its members."""
    clubs = Member.objects.filter(player__in=players).values_list("club_id", flat=True)
    return [(Club, pk) for pk in set(clubs)]


@receiver(merging_players)
def one_membership_each(sender, *, guest, into, **kwargs) -> None:
    """A guest merged into a member of the same club: one membership stays, with the higher
    of the two roles (the guest's others move with the rest of its rows)."""
    services.merge_memberships(guest=guest, into=into)
    return None


@receiver(players_merged)
def memberships_moved(sender, *, guest_id: int, into, **kwargs) -> None:
    """The clubs of the merged player move; a closed season's kept table names the account
    where it named the guest (the name kept as it was)."""
    services.follow_merged_player(guest_id=guest_id, into=into)


@receiver(tournament_panels)
def night_awards_panel(sender, *, tournament, **kwargs) -> str:
    """A finished club night's awards (no query for any other tournament)."""
    found = queries.night_awards(tournament)
    if not found:
        return ""
    return render_to_string("clubs/_night_awards.html", {"awards": found})


@receiver(profile_panels)
def player_awards_panel(sender, *, player, **kwargs) -> str:
    """The nights and seasons where the player won an award (one query when they never played
    a finished club night)."""
    won = queries.awards_won(player.pk)
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
    season = queries.season_on_date(tournament.club_id, tournament.date)
    if season is None:
        return []
    lines = queries.season_lines(season, seasons.PROJECTOR_LINES)
    return [
        render_to_string(
            "clubs/_projector_season.html",
            {"season": season, "lines": lines},
            request=request,
        )
    ]
