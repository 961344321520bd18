"""Matches as a whole: creating one, deleting or leaving it, its scorekeepers, whether it is
rated, swapping seats and discarding unplayed tables; the locks every change of a match takes
and the version it moves.

Locks are taken in one order everywhere: the match's owner (a tournament's row), then the
matches themselves by ascending id.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from cards101.rules import PRESETS, Variant, score_match
from core import live
from core.accounts import account_named
from games import owners, signals
from games.models import Match, Player, Round, Seat
from games.services.errors import NotAllowed, RoundConflict
from games.services.people import _seated, players_for_names


def create_match(
    *,
    created_by,
    players: Sequence[Player],
    preset: str,
    variant: Variant,
    kind: str = Match.Kind.CASUAL,
    rematch_of: Match | None = None,
    deal_limit: int | None = None,
    confirm_results: bool = False,
) -> Match:
    """Seat the players in the given order under the given rules; with `confirm_results`, a
    round counts once a second person confirms it (games.services.confirmations)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    # score_match checks the player count and that the deck can deal.
    score_match(variant, list(range(len(players))), [])
    if len({player.pk for player in players}) != len(players):
        raise ValueError("a player is seated twice")
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            preset=preset,
            options=variant.as_dict(),
            created_by=created_by,
            rematch_of=rematch_of,
            deal_limit=deal_limit,
            confirm_results=confirm_results,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=position)
            for position, player in enumerate(players)
        )
    return match


def start_match(*, created_by, names: Sequence[str], preset: str, variant: Variant) -> Match:
    """A new match for these names: accounts by username, otherwise new guests of the creator."""
    with transaction.atomic():
        players = players_for_names(names, added_by=created_by)
        return create_match(created_by=created_by, players=players, preset=preset, variant=variant)


def rematch(*, match: Match, by) -> Match:
    """A new match with the same players, seats and rules."""
    if not match.is_casual:
        raise NotAllowed(_("A tournament table is not played again; the next round is seated."))
    _check_may_change(match, by)
    seats = match.seats.select_related("player__user").order_by("position")
    with transaction.atomic():
        # The accounts at the table count the new match only if they count `by`'s tables.
        players: list[Player] = []
        for seat in seats:
            player = seat.player
            players.append(_seated(player, by, players) if player.user_id else player)
        return create_match(
            created_by=by,
            players=players,
            preset=match.preset,
            variant=match.variant,
            rematch_of=match,
        )


def delete_match(*, match: Match, by) -> None:
    """The creator deletes a score sheet (never a tournament's table: its tournament keeps it)."""
    with transaction.atomic():
        match = _lock(match)
        if not match.is_casual:
            raise NotAllowed(_("This match is a tournament table and cannot be deleted."))
        if by.pk != match.created_by_id:
            raise NotAllowed(_("Only the match's creator can delete it."))
        finished_at, pk = match.finished_at, match.pk
        players = list(match.seats.values_list("player_id", flat=True))
        match.delete()
        match.pk = pk
        announce_results(match, finished_at, players=players)


def leave_match(*, match: Match, by) -> Player:
    """An account seated in someone else's score sheet leaves it: its seat becomes a guest of
    the match's creator with the same name, so the sheet reads the same and the match is no
    longer the account's. Returns that guest."""
    with transaction.atomic():
        match = _lock(match)
        if not match.is_casual:
            raise NotAllowed(_("A tournament table is left by withdrawing from the tournament."))
        if by.pk == match.created_by_id:
            raise NotAllowed(_("You created this match: delete it instead of leaving it."))
        seat = match.seats.select_related("player").filter(player__user=by).first()
        if seat is None:
            raise NotAllowed(_("You have no seat at this match."))
        left = seat.player
        # A name its owner hid stays hidden on the sheet it leaves (now to its table-mates and
        # creator only, as a guest's).
        guest = Player.objects.create(
            name=left.name, added_by_id=match.created_by_id, private=left.private
        )
        seat.player = guest
        seat.save(update_fields=["player"])
        mark_changed(match)
        # A finished match's results, and the ratings from it, are the guest's now.
        announce_results(match, match.finished_at, players=[left.pk])
        return guest


def add_scorekeeper(*, match: Match, username: str, by):
    """The creator lets another account keep this match's score; returns that account."""
    with transaction.atomic():
        match = _lock(match)
        _check_creator(match, by)
        user = account_named(
            username,
            _("Enter the username of the account that should keep score."),
            error=NotAllowed,
        )
        if user.pk == match.created_by_id:
            raise NotAllowed(_("You created this match, so you can already keep its score."))
        match.scorekeepers.add(user)
        mark_changed(match)
    return user


def remove_scorekeeper(*, match: Match, user, by) -> None:
    with transaction.atomic():
        match = _lock(match)
        _check_creator(match, by)
        match.scorekeepers.remove(user)
        mark_changed(match)


def set_rated(*, match: Match, rated: bool, by) -> None:
    """The creator counts the match in the ratings or keeps it out (a practice game)."""
    with transaction.atomic():
        match = _lock(match)
        if by.pk != match.created_by_id:
            raise NotAllowed(_("Only the match's creator can choose whether it is rated."))
        if match.rated == rated:
            return
        match.rated = rated
        mark_changed(match, "rated")
        announce_results(match, match.finished_at)


def lock_matches(matches: Iterable[Match]) -> list[Match]:
    """Row locks on several matches, by ascending id (the one order every path keeps).

    The caller holds the owner's lock already and is inside a transaction.
    """
    ids = sorted(match.pk for match in matches)
    return list(Match.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def swap_seats(*, first: Seat, second: Seat) -> None:
    """Swap two players' seats (at one match or two) before either match has a round."""
    with transaction.atomic():
        matches = {m.pk: m for m in lock_matches([first.match, second.match])}
        a, b = Seat.objects.filter(pk__in=[first.pk, second.pk]).order_by("pk")
        if Round.objects.filter(match__in=matches).exists():
            raise RoundConflict(_("Scores have been entered; these seats are fixed."))
        # Rebuild both seats: a direct swap would briefly break the one-seat-per-player rule.
        moves = [(a.match_id, a.position, b.player_id), (b.match_id, b.position, a.player_id)]
        Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        Seat.objects.bulk_create(
            Seat(match_id=match_id, position=position, player_id=player_id)
            for match_id, position, player_id in moves
        )
        for match in matches.values():
            mark_changed(match)


def discard_unplayed(*, matches: Iterable[Match]) -> None:
    """Delete matches in which no round was entered (a tournament round seated again)."""
    locked = lock_matches(matches)
    if Round.objects.filter(match__in=locked).exists():
        raise RoundConflict(_("Scores have been entered, so these tables are kept."))
    for match in locked:
        match.delete()


def _lock(match: Match) -> Match:
    """The owner's lock, then the match's row: two writers are applied one after the other."""
    owners.owner_of(match).lock(match)
    try:
        return Match.objects.select_for_update().get(pk=match.pk)
    except Match.DoesNotExist:
        raise RoundConflict(_("This match has been deleted.")) from None


def _check_may_change(match: Match, user) -> None:
    reason = owners.refusal(match, user)
    if reason is not None:
        raise NotAllowed(reason)


def _check_creator(match: Match, user) -> None:
    if not match.is_casual:
        raise NotAllowed(_("A tournament table's score is kept by its players and directors."))
    if user.pk != match.created_by_id:
        raise NotAllowed(_("Only the match's creator can choose its scorekeepers."))


def mark_changed(match: Match, *fields: str) -> None:
    """Save the locked match's changed `fields` and move the version that cached pages and
    forms key on; its owner's moves too, and the browsers watching the sheet hear of it once
    the transaction commits."""
    live.moved(match, *fields)
    owners.owner_of(match).changed(match)
    signals.sheet_changed.send(sender=Match, match=match)


def announce_results(
    match: Match, *times: datetime.datetime | None, players: Sequence[int] = ()
) -> None:
    """Tell the apps that read finished results (ratings) what a change touched, if the
    match was or is finished; `players` when what was kept of them went with the match."""
    finished = [time for time in times if time is not None]
    if finished:
        signals.results_changed.send(
            sender=Match, preset=match.preset, since=(min(finished), match.pk), players=players
        )
