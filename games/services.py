"""The only place that writes matches: lock, load, call the rules library, save, in one
transaction, moving the match's version.

Locks are taken in one order everywhere: the match's owner (a tournament's row), then the
matches themselves by ascending id. Players are keyed by seat position, never by name.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cards101.rules import PRESETS, RulesError, Variant, parse_cards, score_match
from cards101.rules.scoring import RoundResult
from core import live
from core.names import sort_key
from core.validators import name_problem, normalize_name
from games import owners, signals
from games.models import Correction, Entry, Match, Player, Round, Seat

# An outcome as the score sheet sends it: {"out": "QS"}, {"hand": "9H AC"} or {"points": 17}.
Outcome = Mapping[str, Any]
# Every player's outcome of one round, keyed by seat position.
Outcomes = Mapping[int, Outcome]


class RoundConflict(Exception):
    """The sheet changed since the form was made (or the form was sent twice): not saved.

    `repeat` is true when what was sent is already saved (a double click), so the form
    need not be kept.
    """

    def __init__(self, message: str, *, repeat: bool = False) -> None:
        super().__init__(message)
        self.repeat = repeat


class NotAllowed(Exception):
    """This user may not make this change; the message says why."""


# --- creating matches ----------------------------------------------------------------------


def create_match(
    *,
    created_by,
    players: Sequence[Player],
    preset: str,
    variant: Variant,
    kind: str = Match.Kind.CASUAL,
    rematch_of: Match | None = None,
    deal_limit: int | None = None,
) -> Match:
    """Seat the players in the given order under the given rules."""
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


def players_for_names(names: Sequence[str], *, added_by) -> list[Player]:
    """The players a scorekeeper (`added_by`) means by these names.

    Their own username is their own player. Another account's username is that account's
    player only when the account counts `added_by`'s tables (`counts_for`); otherwise nobody's
    record changes without them: the seat goes to a guest of `added_by` with that name, and the
    account is asked to confirm that the guest is them (`signals.account_named`: the claims
    app opens a link). Any other
    name is a guest of `added_by`: a name already used by their guests is the same guest; two
    guests may share a name only as two different people at different tables, never at one.
    """
    players: list[Player] = []
    with transaction.atomic():  # a guest and the link asking its account, together
        for name in map(normalize_name, names):
            account = (
                Player.objects.filter(user__username__iexact=name).select_related("user").first()
            )
            players.append(
                _seated(account, added_by, players) if account else _guest(name, added_by, players)
            )
    return players


def counts_for(user, by) -> bool:
    """Do tables kept by `by` count on `user`'s record? Their own do; someone else's once an
    app says so (`signals.tables_counted`: the claims app, once the user has confirmed that one
    of `by`'s guests was them, so they know each other)."""
    if user.pk == by.pk:
        return True
    answers = signals.tables_counted.send(sender=Player, user=user, by=by)
    return any(counted for _receiver, counted in answers)


def _seated(account: Player, by, taken: Sequence[Player]) -> Player:
    """The account's player when it counts `by`'s tables, else a guest standing in for it until
    the account confirms."""
    if counts_for(account.user, by):
        return account
    stand_in = _guest(account.user.get_username(), by, taken, private=account.private)
    signals.account_named.send(sender=Player, guest=stand_in, user=account.user, by=by)
    return stand_in


def _guest(name: str, added_by, taken: Sequence[Player], private: bool = False) -> Player:
    """`added_by`'s guest of this name (a new one if they have none free). A guest standing in
    for an account that hides its name is hidden as well (claims.services.set_private)."""
    return (
        Player.objects.filter(user=None, is_bot=False, added_by=added_by, name__iexact=name)
        .exclude(pk__in=[player.pk for player in taken])
        .order_by("pk")
        .first()
    ) or Player.objects.create(name=name, added_by=added_by, private=private)


def own_player(user) -> Player:
    """The account's player (every account has one; made here if an old account lacks it)."""
    return Player.objects.get_or_create(user=user, defaults={"name": user.get_username()})[0]


def known_player_names(user) -> list[str]:
    """Names to suggest when seating a match: people this user has sat with, and their guests."""
    names = (
        Player.objects.filter(Q(added_by=user) | Q(seats__match__seats__player__user=user))
        .order_by()  # sorted below, once the duplicates are gone
        .values_list("name", flat=True)
    )
    return sorted(set(names), key=sort_key)


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


# --- the match itself ----------------------------------------------------------------------


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
            username, _("Enter the username of the account that should keep score.")
        )
        if user.pk == match.created_by_id:
            raise NotAllowed(_("You created this match, so you can already keep its score."))
        match.scorekeepers.add(user)
        mark_changed(match)
    return user


def account_named(username: str, empty: str):
    """The account with this username (any case); NotAllowed saying what is wrong otherwise,
    `empty` when nothing was typed."""
    username = username.strip()
    if not username:
        raise NotAllowed(empty)
    # Checked before the lookup, and looked up as usernames are kept (NFKC): "ａｌｉｃｅ" is alice.
    problem = name_problem(username)
    if problem:
        raise NotAllowed(problem)
    username = normalize_name(username)
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise NotAllowed(_("There is no account called “%(name)s”.") % {"name": username})
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
        match.version += 1
        match.save(update_fields=["rated", "version", "updated_at"])
        _changed(match)
        announce_results(match, match.finished_at)


def close_match(*, match: Match, by) -> None:
    """End a match by hand (a tournament director closing a table); ranked as it stands."""
    _set_closed_early(match, True)


def reopen_match(*, match: Match, by) -> None:
    """Undo closing by hand: the match goes on where it stopped."""
    _set_closed_early(match, False)


def _set_closed_early(match: Match, closed: bool) -> None:
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        match.closed_early = closed
        _rescore(match, seats, _load_rounds(match))


def lock_results(*, matches: Iterable[Match]) -> None:
    """Fix finished matches' results as finished (a tournament round closing): a later
    correction may change their places but not make them unfinished."""
    for match in lock_matches(matches):
        if not match.is_finished:
            raise RoundConflict(_("%(match)s has not finished.") % {"match": match})
        match.result_locked = True
        match.save(update_fields=["result_locked"])
        mark_changed(match)


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


# --- rounds --------------------------------------------------------------------------------


def record_round(*, match: Match, outcomes: Outcomes, version: int, by) -> Round:
    """Add the next round, with each seat's outcome, to the match as it was at `version`."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = _load_rounds(match)
        if match.version != version:
            last = rounds[-1] if rounds else None
            if last and last[0].entered_by_id == by.pk and _same(last[1], outcomes):
                raise RoundConflict(
                    _("Round %(number)s has already been saved.") % {"number": len(rounds)},
                    repeat=True,
                )
            raise RoundConflict(
                _(
                    "The sheet changed while you were entering this round, so it was not "
                    "saved. Here it is now; your round is still in the form: check it and "
                    "save again."
                )
            )
        if match.is_finished:
            raise RoundConflict(_("The match is over; no more rounds can be entered."))
        new = Round.objects.create(match=match, number=len(rounds) + 1, entered_by=by)
        rounds.append((new, dict(outcomes)))
        _rescore(match, _seats(match), rounds)
    return new


def change_round(
    *, match: Match, round_id: int, version: int, outcomes: Outcomes, by
) -> Round | None:
    """Replace the outcomes of an entered round; everything after it is recomputed and the
    change is kept with who made it. Returns None when nothing changed."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = _load_rounds(match)
        index = _find_round(rounds, round_id, version, outcomes, deleting=False)
        changed, before = rounds[index]
        if _same(before, outcomes):
            return None
        old = list(rounds)
        rounds[index] = (changed, dict(outcomes))
        seats = _seats(match)
        _check_nobody_returns(match, seats, old, rounds, first_later=index + 1)
        changed.entered_by = by
        changed.version += 1
        changed.save(update_fields=["entered_by", "version", "updated_at"])
        _rescore(match, seats, rounds)
        _keep_correction(match, changed, Correction.Action.CHANGED, by, before, outcomes)
    return changed


def delete_round(*, match: Match, round_id: int, version: int, by) -> int:
    """Remove a round; later rounds move up one number, everything is recomputed and the
    deletion is kept with who made it. Returns the deleted round's number."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = _load_rounds(match)
        index = _find_round(rounds, round_id, version, None, deleting=True)
        old = list(rounds)
        doomed, before = rounds.pop(index)
        seats = _seats(match)
        _check_nobody_returns(match, seats, old, rounds, first_later=index)
        _keep_correction(match, doomed, Correction.Action.DELETED, by, before)
        doomed.delete()
        # One by one in ascending order, so no two rounds ever share a number.
        for later, _outcomes in rounds[index:]:
            later.number -= 1
            later.save(update_fields=["number"])
        _rescore(match, seats, rounds)
    return doomed.number


def store_played_round(*, match: Match, outcomes: Outcomes, cut: bool = False) -> Round:
    """Add a round played on the site: its table holds the table's lock and its moves were
    checked by the engine, so no person's rights are asked. A round the engine `cut` at its
    move limit is kept as cut: it need not end the way the rules end rounds."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        rounds = _load_rounds(match)
        new = Round.objects.create(match=match, number=len(rounds) + 1, entered_by=None, cut=cut)
        rounds.append((new, dict(outcomes)))
        _rescore(match, _seats(match), rounds)
    return new


def store_history(
    *, match: Match, rounds: Sequence[Outcomes], finished_at: datetime.datetime, by
) -> None:
    """Enter a whole match played earlier (an import, the demo's history) in one go, dated
    when it finished: a new match of the creator's, which its rounds must finish."""
    with transaction.atomic():
        match = _lock(match)
        if by.pk != match.created_by_id:
            raise NotAllowed(_("Only the match's creator can enter its history."))
        if match.rounds.exists():
            raise RoundConflict(_("This match has rounds already."))
        stored = []
        for number, outcomes in enumerate(rounds, start=1):
            new = Round.objects.create(match=match, number=number, entered_by=by)
            stored.append((new, dict(outcomes)))
        _rescore(match, _seats(match), stored, finished_at=finished_at)
        if not match.is_finished:
            raise RoundConflict(_("These rounds do not finish the match; nothing was saved."))


def preview_round(*, match: Match, outcomes: Outcomes, round_id: int | None = None) -> RoundResult:
    """What a new round (or the round `round_id`) would score with these outcomes, saving
    nothing."""
    loaded = _load_rounds(match)
    rounds = [outcome for _round, outcome in loaded]
    ids = [round_.pk for round_, _outcome in loaded]
    if round_id in ids:
        index = ids.index(round_id)
        rounds = [*rounds[:index], dict(outcomes)]
    else:
        index = len(rounds)
        rounds.append(dict(outcomes))
    keys = list(match.seats.order_by("position").values_list("position", flat=True))
    return score_match(match.variant, keys, rounds, cut=_cut(loaded[:index])).rounds[index]


def round_outcomes(round_: Round) -> dict[int, Outcome]:
    """A round's outcomes as entered, keyed by seat position (its entries prefetched)."""
    return {e.seat.position: entry_outcome(e) for e in round_.entries.all()}


def entry_outcome(entry: Entry) -> Outcome:
    if entry.kind == Entry.Kind.POINTS:
        return {"points": entry.points}
    return {entry.kind: entry.cards}


# --- inside the transaction ----------------------------------------------------------------


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


def mark_changed(match: Match) -> None:
    """Move the version that cached pages and forms key on (the match is locked)."""
    match.version += 1
    match.save(update_fields=["version", "updated_at"])
    _changed(match)


def _changed(match: Match) -> None:
    """After the match's version moved: its owner's moves too, and the browsers watching the
    sheet hear of it once the transaction commits."""
    owners.owner_of(match).changed(match)
    live.announce(Match, match.pk, match.version)


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.order_by("position"))


RoundRows = list[tuple[Round, dict[int, Outcome]]]


def _cut(rounds: RoundRows) -> list[int]:
    """The indices of the rounds a played table cut at the engine's move limit."""
    return [index for index, (round_, _outcomes) in enumerate(rounds) if round_.cut]


def _load_rounds(match: Match) -> RoundRows:
    """Every round of the match with the outcomes as entered, keyed by seat position."""
    rounds = match.rounds.order_by("number").prefetch_related("entries__seat")
    return [(r, round_outcomes(r)) for r in rounds]


def _find_round(
    rounds: RoundRows, round_id: int, version: int, outcomes: Outcomes | None, *, deleting: bool
) -> int:
    """The index of the round a form was made on, if it is still as the form saw it."""
    for index, (round_, current) in enumerate(rounds):
        if round_.pk != round_id:
            continue
        if round_.version == version:
            return index
        if outcomes is not None and _same(current, outcomes):
            raise RoundConflict(
                _("Round %(number)s has already been saved.") % {"number": round_.number},
                repeat=True,
            )
        if deleting:
            message = _(
                "Round %(number)s has been changed by someone else meanwhile, so it was not "
                "deleted. Here it is now."
            )
        else:
            message = _(
                "Round %(number)s has been changed by someone else meanwhile, so your change "
                "was not saved. Here it is now; your change is still in the form."
            )
        raise RoundConflict(message % {"number": round_.number})
    if deleting:
        raise RoundConflict(_("This round has already been deleted."), repeat=True)
    raise RoundConflict(_("This round has been deleted meanwhile, so your change was not saved."))


def _keep_correction(
    match: Match, round_: Round, action: str, by, before: Outcomes, after: Outcomes | None = None
) -> None:
    """Keep who changed or deleted an entered round, when, and its outcomes before and after
    (in the same transaction as the change)."""
    if not match.corrected:
        match.corrected = True
        match.save(update_fields=["corrected"])
    Correction.objects.create(
        match=match,
        # A deleted round is gone; its number says which it was.
        round=round_ if action == Correction.Action.CHANGED else None,
        number=round_.number,
        action=action,
        by=by,
        before=_stored(before),
        after=None if after is None else _stored(after),
    )


def _same(entered: Outcomes, sent: Outcomes) -> bool:
    """Whether two rounds' outcomes are the same as stored (card order and notation aside)."""
    try:
        return _stored(entered) == _stored(sent)
    except (RulesError, KeyError, TypeError):
        return False


def _stored(outcomes: Outcomes) -> dict[str, dict[str, Any]]:
    """Outcomes as kept in the corrections trail: {"<position>": {kind: value}}."""
    stored = {}
    for position, outcome in outcomes.items():
        kind, cards, points = _as_entered(outcome)
        stored[str(position)] = {kind: points if kind == Entry.Kind.POINTS else cards}
    return dict(sorted(stored.items()))


def _check_nobody_returns(
    match: Match, seats: list[Seat], old: RoundRows, new: RoundRows, *, first_later: int
) -> None:
    """A change that would bring a player who lost back into play cannot stand while later
    rounds were played without them: say which rounds must go first."""
    later = new[first_later:]
    if not later:
        return
    keys = [seat.position for seat in seats]
    variant = match.variant
    before = score_match(variant, keys, [o for _r, o in old], cut=_cut(old))
    try:
        kept = new[:first_later]
        after = score_match(variant, keys, [o for _r, o in kept], cut=_cut(kept))
    except RulesError:
        return  # the change itself breaks a rule; _rescore reports it
    back = [
        seat
        for seat in seats
        if before.lost_in.get(seat.position, len(old)) < first_later + (len(old) - len(new))
        and seat.position not in after.lost_in
    ]
    if not back:
        return
    names = ", ".join(str(seat.player) for seat in back)
    first, last = later[0][0].number, later[-1][0].number
    rounds = str(first) if first == last else f"{first}–{last}"
    raise RoundConflict(
        _(
            "This would bring %(names)s back into play, but round %(rounds)s was played "
            "without them: delete the later rounds first, from the last one."
        )
        % {"names": names, "rounds": rounds}
    )


def _rescore(
    match: Match,
    seats: list[Seat],
    rounds: RoundRows,
    *,
    finished_at: datetime.datetime | None = None,
) -> None:
    """Score every round from scratch and store scores, totals, events, places and status;
    move the match's version."""
    by_position = {seat.position: seat for seat in seats}
    result = score_match(
        match.variant,
        list(by_position),
        [outcome for _round, outcome in rounds],
        cut=_cut(rounds),
    )
    Entry.objects.filter(round__match=match).delete()
    entries = []
    scored_rows = []  # what the sheet shows, as Match.scored_rows keeps it
    for (round_, outcomes), scored in zip(rounds, result.rounds, strict=True):
        events = dict(scored.events)
        cells: dict[int, list] = {}
        for position, outcome in outcomes.items():
            kind, cards, points = _as_entered(outcome)
            entry = Entry(
                round=round_,
                seat=by_position[position],
                kind=kind,
                cards=cards,
                points=points,
                score=scored.scores[position],
                total=scored.totals[position],
                event=events.get(position, ""),
            )
            entries.append(entry)
            cells[position] = [entry.seat_id, kind, entry.score, entry.total, entry.event]
        scored_rows.append([round_.pk, round_.number, [cells.get(p) for p in sorted(by_position)]])
    Entry.objects.bulk_create(entries)
    place_of = {key: place for place, group in _places(result.standings) for key in group}
    for seat in seats:
        seat.total = result.totals[seat.position]
        seat.place = place_of[seat.position]
        lost = result.lost_in.get(seat.position)
        seat.lost_in_round = None if lost is None else lost + 1
    Seat.objects.bulk_update(seats, ["total", "place", "lost_in_round"])
    ended = (
        result.finished
        or match.closed_early
        or (match.deal_limit is not None and len(rounds) >= match.deal_limit)
    )
    if match.result_locked and not ended:
        raise RoundConflict(
            _(
                "This table's tournament round is closed, so a correction must leave the "
                "match finished; nothing was saved."
            )
        )
    match.status = Match.Status.FINISHED if ended else Match.Status.RUNNING
    finished_before = match.finished_at
    if not ended:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = finished_at or timezone.now()
    match.scored_rows = scored_rows
    match.version += 1
    match.save(
        update_fields=[
            "status",
            "closed_early",
            "finished_at",
            "scored_rows",
            "version",
            "updated_at",
        ]
    )
    _changed(match)
    announce_results(match, finished_before, match.finished_at)


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


def _places(standings: list[list[Any]]) -> list[tuple[int, list[Any]]]:
    """Competition ranking: two tied for first are both 1st, the next is 3rd."""
    places, place = [], 1
    for group in standings:
        places.append((place, group))
        place += len(group)
    return places


def _as_entered(outcome: Outcome) -> tuple[str, str, int | None]:
    """The outcome in storage form: kind, card codes, points."""
    if "points" in outcome:
        return Entry.Kind.POINTS, "", outcome["points"]
    kind = "out" if "out" in outcome else "hand"
    return kind, " ".join(card.code for card in parse_cards(outcome[kind])), None


# Preferences


def set_large_print(*, user, large: bool) -> Player:
    """The account's large print on or off (games.large_print reads it at each login). No page
    cached for others shows it, so no version moves."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=own_player(user).pk)
        if player.large_print != large:
            player.large_print = large
            player.save(update_fields=["large_print"])
    return player
