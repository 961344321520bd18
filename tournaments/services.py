"""The only place that writes tournaments: entrants, seating rounds, closing tables and rounds.

Every change takes the tournament's row lock first, then (through games.services) its tables'
matches by ascending id: the same order a table's round changes keep. Every change moves the
tournament's version.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from cards101.rules import Variant
from core import live
from core.accounts import account_named
from core.names import same_name_key
from core.validators import name_problem, normalize_name
from games import services as games
from games.models import Match, Player, Seat
from tournaments import player_lists, queries
from tournaments.errors import RepeatMeetings, TournamentError
from tournaments.models import Entrant, Table, Tournament, TournamentRound
from tournaments.seating import repeated_pairs, seat_round


def create_tournament(*, created_by, variant: Variant, **fields) -> Tournament:
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
        tournament.options = variant.as_dict()
        for name, value in fields.items():
            setattr(tournament, name, value)
        _save(tournament, "options", *fields)
    return tournament


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


# --- entrants ------------------------------------------------------------------------------


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


# --- rounds --------------------------------------------------------------------------------


def seat_next_round(*, tournament: Tournament, by) -> TournamentRound:
    """Seat the next round (or the final table): one match per table, scored by its players.

    Two directors pressing "seat round" at once get one seating: the tournament row is
    locked, and the (tournament, number) constraint backs it up.
    """
    try:
        with transaction.atomic():
            tournament = _lock(tournament)
            return _seat(tournament, by)
    except IntegrityError:
        raise TournamentError(_("This round has just been seated by someone else.")) from None


def _seat(tournament: Tournament, by, seed: int | None = None) -> TournamentRound:
    rounds = list(tournament.rounds.all())
    if rounds and not rounds[-1].is_closed:
        raise TournamentError(
            _("Round %(number)s is still being played; close it first.")
            % {"number": rounds[-1].number}
        )
    number = len(rounds) + 1
    is_final = number > tournament.rounds_planned
    if is_final and (not tournament.final_table_size or any(r.is_final for r in rounds)):
        raise TournamentError(_("Every round of this tournament has been played."))
    history = queries.history(tournament)
    standings = [line.player for line in queries.standings_of(tournament)]
    if seed is None:
        seed = secrets.randbits(62)
    players = _present_ids(tournament, number)
    present = set(players)
    if is_final:
        finalists = [p for p in standings if p in present][: tournament.final_table_size]
        tables = [finalists] if len(finalists) >= 2 else []
    else:
        if len(players) < 2:
            raise TournamentError(_("At least two checked-in players are needed to seat a round."))
        ranked = [p for p in standings if p in present] if number > 1 else None
        tables = seat_round(
            players, table_size=tournament.table_size, seed=seed, standings=ranked, history=history
        )
    if not tables:
        raise TournamentError(_("Not enough players are left for a final table."))
    round_ = TournamentRound.objects.create(
        tournament=tournament, number=number, seed=seed, is_final=is_final
    )
    _create_tables(tournament, round_, tables, by)
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.RUNNING
    _save(tournament, "status")
    return round_


def _create_tables(tournament, round_, tables: list[list[int]], by) -> None:
    players = Player.objects.in_bulk([p for table in tables for p in table])
    deal_limit = (
        tournament.deals_per_match if tournament.match_end == Tournament.MatchEnd.DEALS else None
    )
    for number, table in enumerate(tables, start=1):
        match = games.create_match(
            created_by=by,
            players=[players[p] for p in table],
            preset=tournament.preset,
            variant=tournament.variant,
            kind=Match.Kind.TOURNAMENT,
            deal_limit=deal_limit,
        )
        Table.objects.create(round=round_, number=number, match=match)


def reseat_round(
    *, round_: TournamentRound, by, seed: int | None = None, confirmed: bool = True
) -> TournamentRound:
    """Seat a round again, until its first score is entered; never a round with scores.
    Unless `confirmed`, a seating in which players meet again is not saved: RepeatMeetings
    says who, with the seed that seats it the same way once the director agrees."""
    with transaction.atomic():
        tournament = _lock(round_.tournament)
        round_ = TournamentRound.objects.filter(pk=round_.pk).first()
        if round_ is None:
            # Another director's "seat again" replaced it while this one waited for the lock.
            raise TournamentError(_("This round has just been seated again by someone else."))
        _check_unscored(round_)
        if round_ != tournament.rounds.last():
            raise TournamentError(_("Only the latest round can be seated again."))
        matches = [table.match for table in round_.tables.select_related("match")]
        round_.delete()
        games.discard_unplayed(matches=matches)
        # Latecomers entered since the round was seated (to join the next one) play this one:
        # nobody has played it yet.
        tournament.entrants.filter(joined_round=round_.number + 1).update(
            joined_round=round_.number
        )
        new = _seat(tournament, by, seed)
        if not confirmed:
            history = queries.history(tournament)
            pairs = repeated_pairs(history[-1], history[:-1])
            if pairs:
                # Raised inside the transaction: nothing of this seating is kept.
                raise RepeatMeetings(_names(pairs), seed=new.seed)
        return new


def swap_players(
    *, round_: TournamentRound, first: int, second: int, confirmed: bool = True
) -> None:
    """Swap two players' seats (at one table or two) before any score of theirs is entered;
    unless `confirmed`, a swap that makes players meet again is not made (RepeatMeetings)."""
    with transaction.atomic():
        tournament = _lock(round_.tournament)
        seats = {
            seat.player_id: seat
            for seat in Seat.objects.filter(
                match__table__round=round_, player_id__in=[first, second]
            ).select_related("match__table")
        }
        if len(seats) != 2 or first == second:
            raise TournamentError(_("Choose two different players of this round."))
        a, b = seats[first], seats[second]
        for seat in (a, b):
            if seat.match.rounds.exists():
                raise TournamentError(
                    _("Scores have been entered at table %(number)s; its seats are fixed.")
                    % {"number": seat.match.table.number}
                )
        if not confirmed:
            history = queries.history(tournament)
            earlier = history[: round_.number - 1]
            before = {
                frozenset(pair) for pair in repeated_pairs(history[round_.number - 1], earlier)
            }
            swapped = {first: second, second: first}
            after = [
                [swapped.get(player, player) for player in table]
                for table in history[round_.number - 1]
            ]
            new = [pair for pair in repeated_pairs(after, earlier) if frozenset(pair) not in before]
            if new:
                raise RepeatMeetings(_names(new))
        games.swap_seats(first=a, second=b)
        _save(tournament)


def _names(pairs: list[tuple[int, int]]) -> list[tuple[str, str]]:
    players = Player.objects.in_bulk({player for pair in pairs for player in pair})
    return [(str(players[a]), str(players[b])) for a, b in pairs]


def close_table(*, table: Table, by) -> None:
    """Close a table by hand: its match is ranked by its totals as they stand."""
    with transaction.atomic():
        _lock(table.round.tournament)
        if TournamentRound.objects.get(pk=table.round_id).is_closed:
            raise TournamentError(_("The round is closed; its tables are already closed."))
        games.close_match(match=table.match, by=by)


def reopen_table(*, table: Table, by) -> None:
    """Undo closing a table by hand, while its round is still open."""
    with transaction.atomic():
        _lock(table.round.tournament)
        if TournamentRound.objects.get(pk=table.round_id).is_closed:
            raise TournamentError(_("The round is closed; its tables cannot be reopened."))
        games.reopen_match(match=table.match, by=by)


def close_round(*, round_: TournamentRound, by) -> None:
    """Close a round whose tables are all done; the standings then seat the next one."""
    with transaction.atomic():
        tournament = _lock(round_.tournament)
        round_ = TournamentRound.objects.get(pk=round_.pk)
        if round_.is_closed:
            raise TournamentError(_("This round is already closed."))
        tables = list(round_.tables.all())
        # The tables' matches are locked (by id) and read under their locks: a round deleted
        # at a table meanwhile waits for this, or this waits for it.
        matches = {m.pk: m for m in games.lock_matches(Match(pk=t.match_id) for t in tables)}
        open_tables = [t for t in tables if not matches[t.match_id].is_finished]
        if open_tables:
            raise TournamentError(
                _("These tables have not finished: %(tables)s. Close them by hand or wait.")
                % {"tables": ", ".join(str(t.number) for t in open_tables)}
            )
        round_.status = TournamentRound.Status.CLOSED
        round_.save(update_fields=["status"])
        games.lock_results(matches=matches.values())
        if queries.is_last(tournament, round_):
            tournament.status = Tournament.Status.FINISHED
            tournament.registration_open = False
        _save(tournament, "status", "registration_open")


def start_clock(*, round_: TournamentRound, minutes: int) -> None:
    with transaction.atomic():
        tournament = _lock(round_.tournament)
        round_.clock_started_at = timezone.now()
        round_.clock_minutes = minutes
        round_.save(update_fields=["clock_started_at", "clock_minutes"])
        _save(tournament)


def _present_ids(tournament: Tournament, number: int) -> list[int]:
    """Players to seat in round `number`: checked in, joined by then, not dropped."""
    return list(
        tournament.entrants.filter(checked_in=True, joined_round__lte=number)
        .exclude(dropped_after_round__lt=number)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def _next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.count() + 1


def _has_played(entrant: Entrant) -> bool:
    return Seat.objects.filter(
        match__table__round__tournament=entrant.tournament_id, player=entrant.player_id
    ).exists()


def _check_unscored(round_: TournamentRound) -> None:
    if round_.is_closed or queries.has_scores(round_):
        raise TournamentError(
            _("Scores have been entered in this round, so it cannot be seated again.")
        )


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _save(tournament: Tournament, *fields: str) -> None:
    """Save the locked tournament's changed fields and move its version (in the database:
    its tables' changes move it too, through tournaments.owner)."""
    tournament.save(update_fields=[*fields, "updated_at"])
    live.moved_all(Tournament, [tournament.pk])
    tournament.refresh_from_db(fields=["version"])


def move_versions(tournaments: QuerySet[Tournament]) -> None:
    """Move these tournaments' versions (in SQL: their tables' changes move them under the
    tables' own locks); the browsers watching them hear of it after the commit."""
    live.moved_all(Tournament, list(tournaments.values_list("pk", flat=True).distinct()))
