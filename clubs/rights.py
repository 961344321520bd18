"""Who may do what to a club, written once: its owner and directors run it, its owner alone
names directors. Services and views ask here (`runs`, `check_runs`, `check_owns`)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.errors import NotAllowed
from clubs.models import Club, Member

# Who runs a club: directs its nights, keeps its guests, judges their claims.
RUNS = [Member.Role.OWNER, Member.Role.DIRECTOR]


def owns(user, club: Club) -> bool:
    """Is `user` the club's owner?"""
    return user.is_authenticated and club.owner_id == user.pk


def runs(user, club: Club) -> bool:
    """May `user` run the club (its owner and directors)?"""
    if not user.is_authenticated:
        return False
    return owns(user, club) or club.members.filter(player__user=user, role__in=RUNS).exists()


def belongs(user, club: Club) -> bool:
    """Is `user` one of the club's members, or one who runs it (what its history is shown to)?"""
    if not user.is_authenticated:
        return False
    return owns(user, club) or club.members.filter(player__user=user).exists()


def check_runs(user, club: Club) -> None:
    """Refuse (NotAllowed, a 403 in a view) unless `user` runs the club."""
    if not runs(user, club):
        raise NotAllowed(_("Only the club's owner and directors can do this."))


def check_owns(user, club: Club) -> None:
    """Refuse (NotAllowed, a 403 in a view) unless `user` owns the club."""
    if not owns(user, club):
        raise NotAllowed(_("Only the club's owner names its directors."))


def clubs_run_by(user) -> QuerySet:
    """The ids of the clubs `user` owns or directs (a subquery)."""
    return Member.objects.filter(player__user=user, role__in=RUNS).values("club_id")
