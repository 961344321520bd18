"""Writing a tournament's rounds: seating, reseating and swapping, closing tables and rounds,
the round's clock."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as games
from games.models import Match, Player, Seat
from tournaments import queries, signals
from tournaments.errors import RepeatMeetings, TournamentError
from tournaments.models import Table, Tournament, TournamentRound
from tournaments.seating import repeated_pairs, seat_round
from tournaments.services.tournaments import _lock, _save


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
    signals.round_seated.send(sender=TournamentRound, round_=round_)
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
            confirm_results=tournament.confirm_results,
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
        signals.round_seated.send(sender=TournamentRound, round_=round_, players=[first, second])


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
        waiting = [t for t in tables if not matches[t.match_id].is_done]
        if waiting:
            raise TournamentError(
                _(
                    "Rounds at these tables wait for confirmation: %(tables)s. A player at "
                    "the table or a director confirms them on the score sheet."
                )
                % {"tables": ", ".join(str(t.number) for t in waiting)}
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
        signals.round_clock_started.send(sender=TournamentRound, round_=round_)
        _save(tournament)


def _present_ids(tournament: Tournament, number: int) -> list[int]:
    """Players to seat in round `number`: checked in, joined by then, not dropped."""
    return list(
        tournament.entrants.filter(checked_in=True, joined_round__lte=number)
        .exclude(dropped_after_round__lt=number)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def _check_unscored(round_: TournamentRound) -> None:
    if round_.is_closed or queries.has_scores(round_):
        raise TournamentError(
            _("Scores have been entered in this round, so it cannot be seated again.")
        )
