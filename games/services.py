"""The only place that writes matches: load, call the rules library, save, in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import Entry, Match, Player, Round, Seat
from games.rules import PRESETS, Variant, parse_cards, score_match

# An outcome as the score sheet sends it: {"out": "QS"}, {"hand": "9H AC"} or {"points": 17}.
Outcome = Mapping[str, Any]


class RoundConflict(Exception):
    """The round was changed by someone else meanwhile (or the form was sent twice)."""


def create_match(
    *,
    created_by,
    players: Sequence[Player],
    preset: str,
    variant: Variant,
    rematch_of: Match | None = None,
    deal_limit: int | None = None,
    players_keep_score: bool = False,
) -> Match:
    """Seat the players in the given order under the given rules."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    names = [player.name for player in players]
    # score_match validates the player count, unique names and that the deck can deal.
    score_match(variant, names, [])
    with transaction.atomic():
        match = Match.objects.create(
            preset=preset,
            options=variant.as_dict(),
            created_by=created_by,
            rematch_of=rematch_of,
            deal_limit=deal_limit,
            players_keep_score=players_keep_score,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=position)
            for position, player in enumerate(players)
        )
    return match


def start_match(*, created_by, names: Sequence[str], preset: str, variant: Variant) -> Match:
    """A new match for these names: accounts by username, otherwise the creator's guests."""
    with transaction.atomic():
        players = players_for_names(names, added_by=created_by)
        return create_match(created_by=created_by, players=players, preset=preset, variant=variant)


def players_for_names(names: Sequence[str], *, added_by) -> list[Player]:
    """A registered player when the name is their username, else the creator's guest."""
    players = []
    for name in names:
        player = Player.objects.filter(user__username__iexact=name).first()
        if player is None:
            player = Player.objects.filter(
                user=None, added_by=added_by, name__iexact=name
            ).first() or Player.objects.create(name=name, added_by=added_by)
        players.append(player)
    return players


def known_player_names(user) -> list[str]:
    """Names to suggest when seating a match: people this user has sat with, and their guests."""
    names = Player.objects.filter(
        Q(added_by=user) | Q(seats__match__seats__player__user=user)
    ).values_list("name", flat=True)
    return sorted(set(names), key=str.casefold)


def close_match(*, match: Match, by) -> None:
    """End a match by hand (a tournament director closing a table); ranked as it stands."""
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        match.closed_early = True
        match.save(update_fields=["closed_early"])
        _rescore(match, seats, _load_rounds(match, seats))


def reopen_match(*, match: Match, by) -> None:
    """Undo closing by hand: the match goes on where it stopped."""
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        match.closed_early = False
        match.save(update_fields=["closed_early"])
        _rescore(match, seats, _load_rounds(match, seats))


def rematch(*, match: Match, created_by) -> Match:
    """A new match with the same players, seats and rules."""
    seats = match.seats.select_related("player").order_by("position")
    return create_match(
        created_by=created_by,
        players=[seat.player for seat in seats],
        preset=match.preset,
        variant=match.variant,
        rematch_of=match,
    )


def record_round(*, match: Match, number: int, outcomes: Mapping[str, Outcome], by) -> Round:
    """Add round `number` (must be the next one) with each player's outcome, by name."""
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        rounds = _load_rounds(match, seats)
        if match.is_finished:
            raise RoundConflict(_("The match is over; no more rounds can be entered."))
        if number != len(rounds) + 1:
            raise RoundConflict(
                _("Round %(number)s has already been entered, so this form was not saved.")
                % {"number": number}
            )
        new = Round.objects.create(match=match, number=number, entered_by=by)
        rounds.append((new, dict(outcomes)))
        _rescore(match, seats, rounds)
    return new


def change_round(*, match: Match, number: int, outcomes: Mapping[str, Outcome], by) -> Round:
    """Replace the outcomes of an earlier round; everything after it is recomputed."""
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        rounds = _load_rounds(match, seats)
        if not 1 <= number <= len(rounds):
            raise RoundConflict(_("Round %(number)s does not exist.") % {"number": number})
        changed = rounds[number - 1][0]
        changed.entered_by = by
        changed.save(update_fields=["entered_by", "updated_at"])
        rounds[number - 1] = (changed, dict(outcomes))
        _rescore(match, seats, rounds)
    return changed


def delete_round(*, match: Match, number: int, by) -> None:
    """Remove a round; later rounds move up one number and everything is recomputed."""
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        rounds = _load_rounds(match, seats)
        if not 1 <= number <= len(rounds):
            raise RoundConflict(_("Round %(number)s does not exist.") % {"number": number})
        # Removing a round can make a later one impossible (a player who lost there
        # would now play on); _rescore then raises and the transaction rolls back.
        doomed, _outcomes = rounds.pop(number - 1)
        doomed.delete()
        # One by one in ascending order, so no two rounds ever share a number.
        for later, _outcomes in rounds[number - 1 :]:
            later.number -= 1
            later.save(update_fields=["number"])
        _rescore(match, seats, rounds)


def _lock(match: Match) -> Match:
    # Row lock: two scorekeepers saving at once are applied one after the other.
    return Match.objects.select_for_update().get(pk=match.pk)


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("player").order_by("position"))


def _load_rounds(match: Match, seats: list[Seat]) -> list[tuple[Round, dict[str, Outcome]]]:
    """Every round of the match with the outcomes as entered, keyed by player name."""
    names = {seat.pk: seat.player.name for seat in seats}
    rounds = list(match.rounds.order_by("number").prefetch_related("entries"))
    return [(r, {names[e.seat_id]: entry_outcome(e) for e in r.entries.all()}) for r in rounds]


def entry_outcome(entry: Entry) -> Outcome:
    if entry.kind == Entry.Kind.POINTS:
        return {"points": entry.points}
    return {entry.kind: entry.cards}


def _rescore(
    match: Match, seats: list[Seat], rounds: list[tuple[Round, dict[str, Outcome]]]
) -> None:
    """Score every round from scratch and store scores, totals, events, places and status."""
    by_name = {seat.player.name: seat for seat in seats}
    result = score_match(match.variant, list(by_name), [outcome for _round, outcome in rounds])
    Entry.objects.filter(round__match=match).delete()
    entries = []
    for (round_, outcomes), scored in zip(rounds, result.rounds, strict=True):
        events = dict(scored.events)
        for name, outcome in outcomes.items():
            kind, cards, points = _as_entered(outcome)
            entries.append(
                Entry(
                    round=round_,
                    seat=by_name[name],
                    kind=kind,
                    cards=cards,
                    points=points,
                    score=scored.scores[name],
                    total=scored.totals[name],
                    event=events.get(name, ""),
                )
            )
    Entry.objects.bulk_create(entries)
    place_of = {name: place for place, group in _places(result.standings) for name in group}
    for seat in seats:
        name = seat.player.name
        seat.total = result.totals[name]
        seat.place = place_of[name]
        lost = result.lost_in.get(name)
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
    match.save(update_fields=["status", "updated_at"])


def _places(standings: list[list[str]]) -> list[tuple[int, list[str]]]:
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


def preview_round(*, match: Match, number: int, outcomes: Mapping[str, Outcome]):
    """What round `number` would score with these outcomes, saving nothing."""
    seats = _seats(match)
    rounds = [outcome for _round, outcome in _load_rounds(match, seats)]
    if number <= len(rounds):
        rounds[number - 1] = dict(outcomes)
        rounds = rounds[:number]
    else:
        rounds.append(dict(outcomes))
    result = score_match(match.variant, [seat.player.name for seat in seats], rounds)
    return result.rounds[number - 1]
