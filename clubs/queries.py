"""What the clubs' pages read: who runs a club, its members and nights, and a season's
table."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Count,
    Exists,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)

from clubs.models import Club, JoinRequest, Member

# A season's table is read here (the fixed name), worked out in clubs.seasons.
from clubs.seasons import SeasonRow, season_nights, season_table
from core.names import sort_key
from games import audience
from stats.models import Rating
from tournaments.models import Tournament

__all__ = [
    "SeasonRow",
    "clubs_listed",
    "clubs_of",
    "last_nights",
    "member_lines",
    "member_of",
    "requests_waiting",
    "running_night",
    "runs",
    "season_nights",
    "season_table",
    "upcoming_nights",
]


# Who runs a club: directs its nights, keeps its guests, judges their claims.
RUNS = [Member.Role.OWNER, Member.Role.DIRECTOR]


def runs(club: Club, user) -> bool:
    """May `user` run the club (its owner and directors)?"""
    if not user.is_authenticated:
        return False
    return (
        club.owner_id == user.pk or club.members.filter(player__user=user, role__in=RUNS).exists()
    )


def member_of(club: Club, user) -> Member | None:
    """The user's membership of the club, if any."""
    if not user.is_authenticated:
        return None
    return club.members.filter(player__user=user).first()


def clubs_listed(user) -> QuerySet[Club]:
    """Every club, the user's first, each with its number of members."""
    clubs = Club.objects.annotate(member_count=Count("members", distinct=True))
    if not user.is_authenticated:
        return clubs.annotate(mine=Value(False)).order_by("name", "pk")
    mine = Member.objects.filter(club=OuterRef("pk"), player__user=user)
    return clubs.annotate(mine=Exists(mine)).order_by("-mine", "name", "pk")


def clubs_of(user) -> QuerySet[Club]:
    """The clubs the user is a member of."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(members__player__user=user).distinct().order_by("name", "pk")


@dataclass(frozen=True)
class MemberLine:
    """A member as the club's pages list them: the name as the person looking may read it,
    the role, and the rating in the pool of the club's rules (None: not rated there yet)."""

    member: Member
    name: str
    hidden: bool
    rating: int | None


def member_lines(club: Club) -> list[MemberLine]:
    """The members, best rated first under the club's rules (stats: the pool of its preset),
    the unrated after them; ties by the name shown (a hidden one sorted by its own would tell
    where it falls); one query."""
    rating = Rating.objects.filter(player=OuterRef("player"), pool__preset=club.preset)
    members = club.members.select_related("player", "player__user").annotate(
        rating=Subquery(rating.values("shown")[:1])
    )
    lines = []
    for member in members:
        player = member.player
        lines.append(
            MemberLine(
                member=member,
                name=str(player),
                hidden=audience.hidden(player.pk, player.private),
                rating=member.rating,
            )
        )
    return sorted(
        lines,
        key=lambda line: (
            line.rating is None,
            -(line.rating or 0),
            sort_key(line.name),
            line.member.pk,
        ),
    )


def upcoming_nights(club: Club) -> QuerySet[Tournament]:
    """The nights not finished yet, running ones and the soonest first."""
    return club.nights.exclude(status=Tournament.Status.FINISHED).order_by("date", "pk")


def last_nights(club: Club, count: int = 5) -> list[Tournament]:
    """The last finished nights, newest first."""
    finished = club.nights.filter(status=Tournament.Status.FINISHED)
    return list(finished.order_by("-date", "-pk")[:count])


def running_night(club: Club) -> Tournament | None:
    """The night being played now (its projector is the club's screen), if any."""
    return club.nights.filter(status=Tournament.Status.RUNNING).order_by("-date", "-pk").first()


def requests_waiting(club: Club) -> QuerySet[JoinRequest]:
    return club.join_requests.select_related("user__player")


def has_asked_to_join(club: Club, user) -> bool:
    """Whether `user` (signed in, not a member) has asked to join and waits for the answer."""
    return user.is_authenticated and club.join_requests.filter(user=user).exists()


def checked_in(night: Tournament) -> set[int]:
    """The players ticked present at the night's roll call."""
    return set(night.entrants.filter(checked_in=True).values_list("player_id", flat=True))
