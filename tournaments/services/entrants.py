"""Writing a tournament's entrants: adding, importing, registering, checking in, dropping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from core.names import same_name_key
from core.validators import name_problem, normalize_name
from games import services as games
from games.models import Player, Seat
from tournaments import player_lists
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament
from tournaments.services.tournaments import _lock, _next_round_number, _save


@dataclass(frozen=True)
class Added:
    """What a list of names added: the new entrants, and the names it skipped (entered
    already, or twice in the list)."""

    entrants: list[Entrant]
    skipped: list[str]


def add_entrants(*, tournament: Tournament, names: Sequence[str], by, checked_in=False) -> Added:
    """Add players by name (an account's username links it; otherwise a guest of `by`); a name
    entered already or given twice is skipped and reported, the others are added."""
    return _add(tournament, [(name, checked_in) for name in names], by)


def _add(tournament: Tournament, rows: Sequence[tuple[str, bool]], by) -> Added:
    for name, _checked in rows:
        problem = name_problem(name)
        if problem:
            raise TournamentError(_("%(name)s: %(problem)s") % {"name": name, "problem": problem})
    new, skipped, seen = [], [], set()
    for name, checked in rows:
        # Names as they are kept: "Ａｎｎａ" is "Anna", listed twice.
        name = normalize_name(name)
        if same_name_key(name) in seen:
            skipped.append(name)
        else:
            new.append((name, checked))
        seen.add(same_name_key(name))
    with transaction.atomic():
        tournament = _lock(tournament)
        joins = _next_round_number(tournament)
        # An account entered already (it registered itself) is skipped by its username, before
        # a guest stands in for it (games.services.players_for_names).
        accounts = {
            username.casefold()
            for username in tournament.entrants.filter(player__user__isnull=False).values_list(
                "player__user__username", flat=True
            )
        }
        skipped.extend(name for name, _checked in new if name.casefold() in accounts)
        new = [(name, checked) for name, checked in new if name.casefold() not in accounts]
        players = games.players_for_names([name for name, _checked in new], added_by=by)
        existing = set(tournament.entrants.values_list("player_id", flat=True))
        entrants = []
        for player, (_name, checked) in zip(players, new, strict=True):
            if player.pk in existing:
                skipped.append(str(player))
            else:
                entrants.append(
                    Entrant(
                        tournament=tournament, player=player, joined_round=joins, checked_in=checked
                    )
                )
        if entrants:
            _save(tournament)
        return Added(Entrant.objects.bulk_create(entrants), skipped)


def check_in_everyone(*, tournament: Tournament) -> int:
    """Check in every entrant who has not dropped out; returns how many were not before."""
    with transaction.atomic():
        tournament = _lock(tournament)
        count = tournament.entrants.filter(
            checked_in=False, dropped_after_round__isnull=True
        ).update(checked_in=True)
        if count:
            _save(tournament)
        return count


def register(*, tournament: Tournament, user) -> Entrant:
    """A player registers themselves, while registration is open."""
    player = games.own_player(user)
    with transaction.atomic():
        tournament = _lock(tournament)
        if not tournament.registration_open or tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("Registration for this tournament is closed."))
        if tournament.entrants.filter(player=player).exists():
            raise TournamentError(_("You are already registered."))
        _save(tournament)
        return Entrant.objects.create(
            tournament=tournament, player=player, joined_round=_next_round_number(tournament)
        )


def withdraw(*, entrant: Entrant) -> None:
    """Remove an entrant who has never been seated; one who has played drops out instead."""
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        if _has_played(entrant):
            drop(entrant=entrant)
        else:
            entrant.delete()
            _save(tournament)


def drop(*, entrant: Entrant) -> None:
    """The player leaves: they keep their results and are not seated again."""
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        entrant.dropped_after_round = _next_round_number(tournament) - 1
        entrant.save(update_fields=["dropped_after_round"])
        _save(tournament)


def undrop(*, entrant: Entrant) -> None:
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        entrant.dropped_after_round = None
        entrant.save(update_fields=["dropped_after_round"])
        _save(tournament)


def set_checked_in(*, entrant: Entrant, checked_in: bool) -> None:
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in"])
        _save(tournament)


def enter_checked_in(*, tournament: Tournament, player: Player) -> Entrant:
    with transaction.atomic():
        tournament = _lock(tournament)
        joins = _next_round_number(tournament)
        _save(tournament)
        return Entrant.objects.create(
            tournament=tournament, player=player, joined_round=joins, checked_in=True
        )


def import_entrants(*, tournament: Tournament, text: str, by, separator: str = ",") -> Added:
    """Add the players of a CSV list (`read_player_list`); nothing is added when a line is
    wrong. A name entered already, or given twice, is skipped and reported."""
    return _add(tournament, player_lists.read_player_list(text, separator).rows, by)


def _has_played(entrant: Entrant) -> bool:
    return Seat.objects.filter(
        match__table__round__tournament=entrant.tournament_id, player=entrant.player_id
    ).exists()
