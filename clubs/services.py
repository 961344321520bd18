"""The only code that writes clubs, their members and seasons. A write locks the club's row
and moves its version (core.live.moved), which the club's pages key on.

Rights come from the club: its owner and directors run it."""

from __future__ import annotations

import datetime

from django.db import transaction
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
) -> Season:
    """A season of the club's nights dated `starts` to `ends` (seasons may overlap: a league
    and a best-of-N ranking over the same months)."""
    name = " ".join(name.split())
    if not name:
        raise ClubError(_("A season needs a name."))
    if ends < starts:
        raise ClubError(_("A season cannot end before it starts."))
    if best_nights is not None and best_nights < 1:
        raise ClubError(_("Count at least one night of each player, or all of them."))
    with transaction.atomic():
        club = _lock(club)
        _check_runs(club, by)
        season = Season.objects.create(
            club=club, name=name, starts=starts, ends=ends, best_nights=best_nights
        )
        live.moved(club)
    return season


def _check_runs(club: Club, by) -> None:
    if not queries.runs(club, by):
        raise ClubError(_("Only the club's owner and directors can do this."))


def _lock(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)
