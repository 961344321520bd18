"""What the clubs' pages read: who runs a club, and a season's table."""

from __future__ import annotations

from clubs.models import Club, Member

# A season's table is read here (the fixed name), worked out in clubs.seasons.
from clubs.seasons import SeasonRow, season_nights, season_table

__all__ = ["SeasonRow", "runs", "season_nights", "season_table"]


def runs(club: Club, user) -> bool:
    """May `user` run the club (its owner and directors)?"""
    if not user.is_authenticated:
        return False
    return (
        club.owner_id == user.pk
        or club.members.filter(
            player__user=user, role__in=[Member.Role.OWNER, Member.Role.DIRECTOR]
        ).exists()
    )
