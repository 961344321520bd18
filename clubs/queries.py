"""What the clubs' pages read: a club, its members and nights, its history, and its seasons
(their tables and the panels the club's pages show of them). Who may do what: clubs.rights."""

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
from django.shortcuts import get_object_or_404

from clubs import awards, seasons
from clubs.models import Club, ClubEvent, JoinRequest, Member, Season

# A season's table is read here (the fixed name), worked out in clubs.seasons.
from clubs.seasons import SeasonLine, SeasonRow, last_night, season_nights, season_table
from core.names import sort_key
from games import audience
from games.models import Player
from stats.models import Rating
from tournaments.models import Tournament

# Lines of a club's history its members page shows, the newest.
HISTORY_LINES = 30

__all__ = [
    "SeasonLine",
    "SeasonRow",
    "clubs_listed",
    "clubs_of",
    "last_night",
    "last_nights",
    "member_lines",
    "member_of",
    "requests_waiting",
    "running_night",
    "season_nights",
    "season_table",
    "upcoming_nights",
]


# --- one club, one of its rows (404 when not of this club) -----------------------------------


def club_at(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def season_at(slug: str, season_id: int) -> Season:
    """The season, of the club at this address (another club's season: 404)."""
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id, club__slug=slug)


def member_at(club: Club, member_pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("player"), pk=member_pk, club=club)


def join_request_at(club: Club, request_pk: int) -> JoinRequest:
    return get_object_or_404(JoinRequest.objects.select_related("user"), pk=request_pk, club=club)


def night_at(club: Club, pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk, club=club)


def player_at(pk: int | None) -> Player:
    return get_object_or_404(Player, pk=pk)


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


# --- the club's history ------------------------------------------------------------------------


def club_history(club: Club, count: int = HISTORY_LINES) -> list[ClubEvent]:
    """The club's last role changes, removals and renames, newest first, with who made them
    and whom they concern (their names read when shown); one query."""
    events = club.events.select_related("actor__player", "subject")
    return list(events.order_by("-at", "-pk")[:count])


# --- seasons: their tables and panels ----------------------------------------------------------


@dataclass(frozen=True)
class SeasonPanel:
    """A season as the club's page and the seasons list show it: its top lines, or its
    champions once closed."""

    season: Season
    lines: list[SeasonLine]
    champions: list[SeasonLine]


def season_panel(season: Season, top: int | None = None) -> SeasonPanel:
    """The season's `top` lines (None: its leaders alone) and its champions."""
    rows = seasons.season_table(season)
    shown = rows[:top] if top else [row for row in rows if row.place == 1]
    lines = seasons.lines_of(season, shown)
    return SeasonPanel(season=season, lines=lines, champions=seasons.champions(lines))


def club_seasons(club: Club) -> dict:
    """What the club's page shows of its seasons (templates/clubs/_club_seasons.html): the
    seasons running now with their top lines, and how many past ones there are."""
    lists = seasons.season_lists(club)
    return {
        "seasons": [season_panel(season, seasons.TOP_LINES) for season in lists["current"]],
        "past_seasons": len(lists["past"]),
    }


def season_list(club: Club) -> dict:
    """The seasons list: running ones with their top lines, those to come, past ones with
    their champions."""
    lists = seasons.season_lists(club)
    return {
        "current": [season_panel(season, seasons.TOP_LINES) for season in lists["current"]],
        "upcoming": lists["upcoming"],
        "past": [season_panel(season) for season in lists["past"]],
    }


def season_page(season: Season) -> dict:
    """What a season's page, its printed and its embedded table show, in a fixed number of
    queries however many nights and players (the table is cached, or kept once closed)."""
    nights = seasons.counted_nights(season)
    lines = seasons.lines_of(season, seasons.season_table(season, nights))
    return {
        "club": season.club,
        "season": season,
        "nights": nights,
        "lines": lines,
        "champions": seasons.champions(lines) if season.closed_at else [],
        "unranked": any(line.row.place is None for line in lines),
    }


def season_on_date(club_id: int, date) -> Season | None:
    """The club's open season a night of this date counts in (the one ending first, where
    seasons overlap)."""
    return (
        Season.objects.filter(
            club_id=club_id, starts__lte=date, ends__gte=date, closed_at__isnull=True
        )
        .order_by("ends", "pk")
        .first()
    )


def season_lines(season: Season, top: int | None = None) -> list[SeasonLine]:
    """The table with its players, its first `top` lines (None: all, for the JSON and CSV)."""
    rows = seasons.season_table(season)
    return seasons.lines_of(season, rows[:top] if top else rows)


# --- awards -------------------------------------------------------------------------------------


def season_awards(season: Season, nights: list[Tournament]) -> list[awards.ShownAward]:
    """The season's awards (clubs.awards) with their players, as its page shows them."""
    return awards.with_players(awards.season_awards(season, nights))


def night_awards(tournament: Tournament) -> list[awards.ShownAward]:
    """A finished club night's awards with their players (no query for any other
    tournament)."""
    found = awards.night_awards(tournament)
    return awards.with_players(found) if found else []


def awards_won(
    player_id: int,
) -> list[tuple[Season | None, Tournament | None, list[awards.Award]]]:
    """The player's awards, one entry a night or season (one query when they never played a
    finished club night)."""
    won: list[tuple[Season | None, Tournament | None, list[awards.Award]]] = []
    for item in awards.awards_of_player(player_id):
        if not won or won[-1][:2] != (item.season, item.night):
            won.append((item.season, item.night, []))
        won[-1][2].append(item.award)
    return won
