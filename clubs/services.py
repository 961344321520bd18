"""The only code that writes clubs, their members and seasons. A write locks the club's row
and moves its version (core.live.moved), which the club's pages key on.

Rights come from the club: its owner and directors run it."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from slugify import slugify

from clubs import queries
from clubs.models import Club, Member, Season
from core import live
from games.services import own_player

# What a club's address is made of when its name has no letter a URL can keep ("101").
FALLBACK_SLUG = "club"
SLUG_LENGTH = 50


class ClubError(Exception):
    """A change the club's rules refuse; its text says why, for the person who asked."""


def create_club(*, owner, name: str) -> Club:
    """A new club owned by `owner` (its first member), at an address made from its name, in
    Latin letters from a Cyrillic one ("Сто одно" → sto-odno), numbered when taken."""
    name = " ".join(name.split())
    if not name:
        raise ClubError(_("A club needs a name."))
    base = slugify(name, max_length=SLUG_LENGTH, word_boundary=True) or FALLBACK_SLUG
    with transaction.atomic():
        slug, number = base, 1
        while Club.objects.filter(slug=slug).exists():
            number += 1
            slug = f"{base}-{number}"
        club = Club.objects.create(name=name, slug=slug, owner=owner)
        Member.objects.create(club=club, player=own_player(owner), role=Member.Role.OWNER)
    return club


def add_member(*, club: Club, player, by, role: str = Member.Role.MEMBER) -> Member:
    """Make `player` (an account's player or a guest) a member of the club; a member already
    is left as they are."""
    with transaction.atomic():
        club = _lock(club)
        _check_runs(club, by)
        member, created = Member.objects.get_or_create(
            club=club, player=player, defaults={"role": role}
        )
        if created:
            live.moved(club)
    return member


def create_season(
    *,
    club: Club,
    by,
    name: str,
    starts: datetime.date,
    ends: datetime.date,
    best_nights: int | None = None,
    min_nights: int | None = None,
) -> Season:
    """A season of the club's nights dated `starts` to `ends` (seasons may overlap: a league
    and a best-of-N ranking over the same months)."""
    name = _check_season(name, starts, ends, best_nights, min_nights)
    with transaction.atomic():
        club = _lock(club)
        _check_runs(club, by)
        season = Season.objects.create(
            club=club,
            name=name,
            starts=starts,
            ends=ends,
            best_nights=best_nights,
            min_nights=min_nights,
        )
        live.moved(club)
    return season


def _check_runs(club: Club, by) -> None:
    if not queries.runs(club, by):
        raise ClubError(_("Only the club's owner and directors can do this."))


def _lock(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


# --- seasons: settings, closing (clubs.season_views) ------------------------------------------


def _check_season(
    name: str,
    starts: datetime.date,
    ends: datetime.date,
    best_nights: int | None,
    min_nights: int | None,
) -> str:
    """The season's name, tidied, once its settings make sense; a ClubError says which does
    not."""
    name = " ".join(name.split())
    if not name:
        raise ClubError(_("A season needs a name."))
    if ends < starts:
        raise ClubError(_("A season cannot end before it starts."))
    if best_nights is not None and best_nights < 1:
        raise ClubError(_("Count at least one night of each player, or all of them."))
    if min_nights is not None and min_nights < 1:
        raise ClubError(_("Ask at least one night to be ranked, or none."))
    return name


def update_season(
    *,
    season: Season,
    by,
    name: str,
    starts: datetime.date,
    ends: datetime.date,
    best_nights: int | None = None,
    min_nights: int | None = None,
) -> Season:
    """Change a season's name, dates and counting; a closed season keeps its table, so only
    its name changes."""
    name = _check_season(name, starts, ends, best_nights, min_nights)
    with transaction.atomic():
        club, season = _lock_season(season, by)
        changes = {"starts": starts, "ends": ends}
        changes |= {"best_nights": best_nights, "min_nights": min_nights}
        if season.closed_at is not None and any(
            getattr(season, field) != value for field, value in changes.items()
        ):
            raise ClubError(
                _("The season is closed: its dates and counting change only once reopened.")
            )
        season.name = name
        for field, value in changes.items():
            setattr(season, field, value)
        season.save(update_fields=["name", *changes])
        live.moved(club)
    return season


def close_season(*, season: Season, by) -> Season:
    """Close the season: its table and champions are kept (`final_table`) as they stand,
    whatever happens to its nights afterwards."""
    from clubs.seasons import kept_table, season_nights, season_table

    with transaction.atomic():
        club, season = _lock_season(season, by)
        if season.closed_at is not None:
            raise ClubError(_("This season is already closed."))
        nights = season_nights(season)
        season.final_table = kept_table(season_table(season, nights), nights)
        season.closed_at = timezone.now()
        season.save(update_fields=["final_table", "closed_at"])
        live.moved(club)
    return season


def reopen_season(*, season: Season, by) -> Season:
    """Reopen a closed season (closed by mistake, or a night corrected since): its table is
    worked out from its nights again, and kept anew when it is closed again."""
    with transaction.atomic():
        club, season = _lock_season(season, by)
        if season.closed_at is None:
            raise ClubError(_("This season is not closed."))
        season.final_table = None
        season.closed_at = None
        season.save(update_fields=["final_table", "closed_at"])
        live.moved(club)
    return season


def _lock_season(season: Season, by) -> tuple[Club, Season]:
    """The season's club, then the season, locked (in that order), once `by` may run it."""
    club = _lock(season.club)
    _check_runs(club, by)
    return club, Season.objects.select_for_update().get(pk=season.pk, club=club)
