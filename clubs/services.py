"""The only code that writes clubs, their members and seasons. A write locks the club's row
and moves its version (core.live.moved), which the club's pages key on.

Rights come from the club (clubs.rights): its owner and directors run it. Role changes,
removals and renames write a line of the club's history (ClubEvent) in the same transaction."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from slugify import slugify

from cards101.rules import Variant
from clubs import rights, seasons, signals
from clubs.errors import ClubError
from clubs.models import Club, ClubEvent, JoinRequest, Member, Season, new_invite_code
from core import live
from core.validators import name_problem
from games.models import Player
from games.services import own_player, players_for_names
from tournaments import services as tournaments
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament

# What a club's address is made of when its name has no letter a URL can keep ("101").
FALLBACK_SLUG = "club"
SLUG_LENGTH = 50

# Who ranks above whom when two memberships become one.
ROLE_RANK = {Member.Role.OWNER: 3, Member.Role.DIRECTOR: 2, Member.Role.MEMBER: 1}


def create_club(*, owner, name: str, city: str = "", description: str = "") -> Club:
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
        club = Club.objects.create(
            name=name, slug=slug, owner=owner, city=city, description=description
        )
        Member.objects.create(club=club, player=own_player(owner), role=Member.Role.OWNER)
    return club


def add_member(*, club: Club, player, by, role: str = Member.Role.MEMBER) -> Member:
    """Make `player` (an account's player or a guest) a member of the club; a member already
    is left as they are."""
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        member, created = Member.objects.get_or_create(
            club=club, player=player, defaults={"role": role}
        )
        if created:
            live.moved(club)
    return member


def update_club(*, club: Club, by, variant: Variant, **fields) -> Club:
    """Change the club's name, page, house rules and night defaults (the nights already
    created keep theirs)."""
    if not " ".join(fields.get("name", club.name).split()):
        raise ClubError(_("A club needs a name."))
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        old_name = club.name
        club.options = variant.as_dict()
        for name, value in fields.items():
            setattr(club, name, value)
        if club.name != old_name:
            _record(club, by, ClubEvent.Kind.RENAMED, old=old_name, new=club.name)
        live.moved(club, "options", *fields)
    return club


def add_members_named(*, club: Club, names: list[str], by) -> list[Member]:
    """Members by what a director types: a guest's name (their guest of that name, the same
    person every night), or an account's username (its player once the account counts `by`'s
    tables, a guest standing in for it until it confirms: games.services.players_for_names)."""
    for name in names:
        problem = name_problem(name)
        if problem:
            raise ClubError(_("%(name)s: %(problem)s") % {"name": name, "problem": problem})
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        members = [
            Member.objects.get_or_create(club=club, player=player)[0]
            for player in players_for_names(names, added_by=by)
        ]
        live.moved(club)
    return members


def set_role(*, member: Member, role: str, by) -> Member:
    """The owner makes a member a director, or a director a member again."""
    if role not in (Member.Role.DIRECTOR, Member.Role.MEMBER):
        raise ClubError(_("A member is a director or a member."))
    with transaction.atomic():
        club = _lock(member.club)
        member = Member.objects.select_for_update().get(pk=member.pk, club=club)
        rights.check_owns(by, club)
        if member.role == Member.Role.OWNER:
            raise ClubError(_("The owner stays the owner."))
        if member.role != role:
            _record(
                club, by, ClubEvent.Kind.ROLE_CHANGED, member.player_id, old=member.role, new=role
            )
            member.role = role
            member.save(update_fields=["role"])
        live.moved(club)
    return member


def remove_member(*, member: Member, by) -> None:
    """The owner or a director removes a member (never the owner); a member leaves
    themselves. Their nights keep their results."""
    with transaction.atomic():
        club = _lock(member.club)
        member = Member.objects.select_related("player").get(pk=member.pk, club=club)
        if member.role == Member.Role.OWNER:
            raise ClubError(_("The owner cannot leave the club."))
        leaving = member.player.user_id == by.pk
        if not leaving:
            rights.check_runs(by, club)
        kind = ClubEvent.Kind.LEFT if leaving else ClubEvent.Kind.REMOVED
        _record(club, by, kind, member.player_id, old=member.role)
        member.delete()
        live.moved(club)


def renew_invitation(*, club: Club, by) -> Club:
    """A new invitation link: the old one no longer lets anyone in."""
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        club.invite_code = new_invite_code()
        live.moved(club, "invite_code")
    return club


def join(*, club: Club, user, code: str) -> Member:
    """An account joins by the club's invitation link (its code, checked here)."""
    player = own_player(user)
    with transaction.atomic():
        club = _lock(club)
        if code != club.invite_code:
            raise ClubError(
                _("This invitation link is no longer valid: ask the club for a new one.")
            )
        member = Member.objects.get_or_create(club=club, player=player)[0]
        JoinRequest.objects.filter(club=club, user=user).delete()
        live.moved(club)
    return member


def ask_to_join(*, club: Club, user, message: str = "") -> JoinRequest:
    """An account asks to join; the owner or a director accepts or declines."""
    with transaction.atomic():
        club = _lock(club)
        if club.members.filter(player__user=user).exists():
            raise ClubError(_("You are a member of this club already."))
        request, _created = JoinRequest.objects.get_or_create(
            club=club, user=user, defaults={"message": message}
        )
        live.moved(club)
    return request


def decide_request(*, join_request: JoinRequest, accept: bool, by) -> Member | None:
    """Accepted, the account becomes a member; either way the request is gone."""
    with transaction.atomic():
        club = _lock(join_request.club)
        rights.check_runs(by, club)
        join_request = JoinRequest.objects.select_related("user").get(pk=join_request.pk, club=club)
        member = None
        if accept:
            player = own_player(join_request.user)
            member = Member.objects.get_or_create(club=club, player=player)[0]
        join_request.delete()
        live.moved(club)
    return member


# --- nights ----------------------------------------------------------------------------------


def create_night(*, club: Club, by, variant: Variant, **fields) -> Tournament:
    """A night of the club, created by one of its directors, its results confirmed at the
    tables when the club asks it (unless the night's form says otherwise)."""
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        night = tournaments.create_tournament(created_by=by, club=club, variant=variant, **fields)
        if night.registration_open:
            signals.night_opened.send(sender=Club, night=night)
        return night


def roll_call(*, night: Tournament, player: Player, present: bool, by) -> None:
    """A member tapped at the night's roll call: checked in (entered first if need be), or
    not any more."""
    club = night.club
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
        if not club.members.filter(player=player).exists():
            raise ClubError(_("Only the club's members are on its roll call."))
        entrant = Entrant.objects.filter(tournament=night, player=player).first()
        try:
            if entrant is not None:
                tournaments.set_checked_in(entrant=entrant, checked_in=present)
            elif present:
                tournaments.enter_checked_in(tournament=night, player=player)
        except TournamentError as error:
            raise ClubError(str(error)) from None


def add_newcomer(*, night: Tournament, name: str, by) -> Member:
    """One line at the roll call: a guest or an account's username becomes a member of the
    club and is checked in at the night."""
    member = add_members_named(club=night.club, names=[name], by=by)[0]
    roll_call(night=night, player=member.player, present=True, by=by)
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
    name = seasons.check_settings(name, starts, ends, best_nights, min_nights)
    with transaction.atomic():
        club = _lock(club)
        rights.check_runs(by, club)
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


def _lock(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _record(
    club: Club, by, kind: str, subject_id: int | None = None, *, old: str = "", new: str = ""
) -> ClubEvent:
    """A line of the club's history, inside the transaction of the change it records."""
    return ClubEvent.objects.create(
        club=club,
        actor=by if by is not None and by.is_authenticated else None,
        subject_id=subject_id,
        kind=kind,
        old_value=old[:100],
        new_value=new[:100],
    )


def merge_memberships(*, guest: Player, into: Player) -> None:
    """A guest merged into a member of the same club (claims): one membership stays, with the
    higher of the two roles; the guest's other memberships and its lines in the clubs' history
    move to `into` (the memberships with the rest of its rows). Called inside the merge's
    transaction, the players locked."""
    both = Member.objects.filter(player=guest).values("club_id")
    clubs = list(
        Club.objects.select_for_update()
        .filter(pk__in=Member.objects.filter(player=into, club__in=both).values("club_id"))
        .order_by("pk")
    )
    for club in clubs:
        kept = Member.objects.get(club=club, player=into)
        gone = Member.objects.get(club=club, player=guest)
        if ROLE_RANK[gone.role] > ROLE_RANK[kept.role]:
            kept.role = gone.role
            kept.save(update_fields=["role"])
        gone.delete()
        live.moved(club)
    ClubEvent.objects.filter(subject=guest).update(subject=into)


def follow_merged_player(*, guest_id: int, into: Player) -> None:
    """After a merge, in its transaction: the clubs of the merged player move, and a closed
    season's kept table names the account where it named the guest (the name kept as it
    was)."""
    clubs = set(Member.objects.filter(player=into).values_list("club_id", flat=True))
    # Closed seasons are few (a club closes a handful a year): read, not searched in JSON,
    # which SQLite cannot.
    for season in Season.objects.filter(closed_at__isnull=False).select_for_update():
        rows = season.final_table["rows"]
        if any(row["player"] == guest_id for row in rows):
            for row in rows:
                if row["player"] == guest_id:
                    row["player"] = into.pk
            season.save(update_fields=["final_table"])
            clubs.add(season.club_id)
    live.moved_all(Club, sorted(clubs))


# --- seasons: settings, closing (clubs.season_views) ------------------------------------------


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
    name = seasons.check_settings(name, starts, ends, best_nights, min_nights)
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
    with transaction.atomic():
        club, season = _lock_season(season, by)
        if season.closed_at is not None:
            raise ClubError(_("This season is already closed."))
        nights = seasons.season_nights(season)
        season.final_table = seasons.kept_table(seasons.season_table(season, nights), nights)
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
    rights.check_runs(by, club)
    return club, Season.objects.select_for_update().get(pk=season.pk, club=club)
