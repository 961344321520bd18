"""Writing a tournament as a whole: creating it, its settings, finishing and reopening it,
its directors; and the lock and version every change of it takes and moves."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import formats, translation
from django.utils.translation import gettext as _

from cards101.rules import Variant
from core import live
from core.accounts import account_named
from games import services as games
from games.models import Match
from tournaments import queries, signals
from tournaments.errors import TournamentError
from tournaments.models import Tournament, TournamentRound


def create_tournament(*, created_by, variant: Variant, **fields) -> Tournament:
    """A new tournament; a club's night (`club=`) asks a second player to confirm each round
    when the club does (its `confirm_results`, on by default), unless told otherwise."""
    club = fields.get("club")
    if club is not None:
        fields.setdefault("confirm_results", club.confirm_results)
    return Tournament.objects.create(created_by=created_by, options=variant.as_dict(), **fields)


def update_tournament(*, tournament: Tournament, variant: Variant, **fields) -> Tournament:
    """Change the settings; the rules and table settings are fixed once round 1 is seated,
    and the scoring (points by place, tie-breaks) once the tournament is finished."""
    with transaction.atomic():
        tournament = _lock(tournament)
        scoring = ("points_by_place", "tie_breaks", "final_table_size", "rounds_planned")
        if tournament.status == Tournament.Status.FINISHED and any(
            fields[name] != getattr(tournament, name) for name in scoring if name in fields
        ):
            raise TournamentError(
                _(
                    "The tournament is finished: its points and tie-breaks change only after "
                    "a director reopens it."
                )
            )
        locked = ("preset", "table_size", "match_end", "deals_per_match")
        if tournament.rounds.exists() and (
            variant.as_dict() != tournament.options
            or any(fields[name] != getattr(tournament, name) for name in locked if name in fields)
        ):
            raise TournamentError(
                _("The rules and tables cannot change once the first round is seated.")
            )
        confirm = fields.get("confirm_results", tournament.confirm_results)
        if confirm != tournament.confirm_results:
            # The tables being played follow at once (those of closed rounds are settled):
            # their rounds entered meanwhile wait for a second person, or count now.
            games.set_confirm_results(
                matches=Match.objects.filter(
                    table__round__tournament=tournament,
                    table__round__status=TournamentRound.Status.PLAYING,
                ),
                on=confirm,
            )
        if "date" in fields and fields.get("name") == tournament.name:
            fields["name"] = renamed_for_date(tournament.name, tournament.date, fields["date"])
        tournament.options = variant.as_dict()
        for name, value in fields.items():
            setattr(tournament, name, value)
        _save(tournament, "options", *fields)
    return tournament


def renamed_for_date(name: str, old: datetime.date, new: datetime.date) -> str:
    """A name that says its date ("Клуб «Туз» — 27 ноября", as a club's night is named) says
    the new one when the date moves; a name typed without it, or changed in the same edit,
    stays as it is."""
    if old == new or not isinstance(old, datetime.date) or not isinstance(new, datetime.date):
        return name
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            said, now = formats.date_format(old, "j E"), formats.date_format(new, "j E")
        if said in name:
            return name.replace(said, now)
    return name


def reopen_tournament(*, tournament: Tournament, by) -> None:
    """A director reopens a finished tournament so that results or scoring can be corrected."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.status != Tournament.Status.FINISHED:
            raise TournamentError(_("The tournament is not finished."))
        tournament.status = Tournament.Status.RUNNING
        _save(tournament, "status")


def finish_tournament(*, tournament: Tournament, by) -> None:
    """Finish a reopened tournament again, once its last round is closed."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("The tournament is already finished."))
        if not queries.can_finish(tournament):
            raise TournamentError(_("The tournament's last round has not been closed yet."))
        tournament.status = Tournament.Status.FINISHED
        tournament.registration_open = False
        _save(tournament, "status", "registration_open")


# --- directors -----------------------------------------------------------------------------


def add_director(*, tournament: Tournament, username: str):
    user = account_named(
        username, _("Enter the username of the new director."), error=TournamentError
    )
    if user.pk == tournament.created_by_id:
        raise TournamentError(_("The tournament's creator is already a director."))
    with transaction.atomic():
        tournament = _lock(tournament)
        # Directors keep score at every table: the tables ask the tournament (tournaments.owner).
        tournament.directors.add(user)
        _save(tournament)
    return user


def remove_director(*, tournament: Tournament, user) -> None:
    with transaction.atomic():
        tournament = _lock(tournament)
        tournament.directors.remove(user)
        _save(tournament)


# --- the lock and the version ---------------------------------------------------------------


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _save(tournament: Tournament, *fields: str) -> None:
    """Save the locked tournament's changed fields and move its version (in the database:
    its tables' changes move it too, through tournaments.owner)."""
    tournament.save(update_fields=[*fields, "updated_at"])
    live.moved_all(Tournament, [tournament.pk])
    tournament.refresh_from_db(fields=["version"])
    if {"status", "date", "points_by_place"} & set(fields):
        signals.tournament_settled.send(sender=Tournament, tournament=tournament)


def move_versions(tournaments: QuerySet[Tournament]) -> None:
    """Move these tournaments' versions (in SQL: their tables' changes move them under the
    tables' own locks); the browsers watching them hear of it after the commit."""
    live.moved_all(Tournament, list(tournaments.values_list("pk", flat=True).distinct()))


def _next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.count() + 1
