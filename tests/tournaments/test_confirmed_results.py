"""A tournament with confirmed results: a table counts in the standings, the round's close, the
tables' results and the projector only once every round of it is confirmed."""

import csv
import io

import pytest
from django.urls import reverse

from games import services as games
from games.models import Round
from tests.factories import counts_tables_of, play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import queries, services
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


def seated(alice, bob, carol, *, confirm=True):
    """Round 1 of alice's tournament: bob and carol at table 1 with two guests, four guests at
    table 2."""
    counts_tables_of(bob, alice)
    tournament = make_tournament(alice, confirm_results=confirm)
    enter(tournament, ["bob", "carol", "Dan", "Eve", "P1", "P2", "P3", "P4"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    ours = next(t for t in round_.tables.all() if t.match.seats.filter(player__user=bob).exists())
    if not ours.match.seats.filter(player__user=carol).exists():
        # Seat carol beside bob: the seating is drawn, the test needs them at one table.
        other = round_.tables.exclude(pk=ours.pk).get()
        carol_id = other.match.seats.get(player__user=carol).player_id
        guest = ours.match.seats.exclude(player__user__isnull=False).first().player_id
        services.swap_players(round_=round_, first=carol_id, second=guest)
    return tournament, round_, round_.tables.get(pk=ours.pk)


def confirm_all(match, user):
    for round_ in match.rounds.filter(confirmed_at__isnull=True):
        games.confirm_round(match=match, round_id=round_.pk, by=user)


def points(tournament):
    return {line.player: line.points for line in queries.standings_of(tournament) if line.tables}


def test_a_played_out_table_counts_only_once_its_rounds_are_confirmed(alice, bob, carol):
    tournament, _round, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    assert table.match.is_finished and not table.match.is_done
    assert points(tournament) == {}

    confirm_all(table.match, carol)

    table.match.refresh_from_db()
    assert table.match.is_done
    winner = table.match.seats.get(position=0).player_id
    assert points(tournament)[winner] == 3


def test_without_the_option_a_table_counts_as_it_finishes(alice, bob, carol):
    tournament, _round, table = seated(alice, bob, carol, confirm=False)
    play_out(table.match, bob)
    assert table.match.is_done
    assert len(points(tournament)) == 4


def test_a_round_does_not_close_while_a_table_has_rounds_to_confirm(alice, bob, carol):
    _tournament, round_, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    for other in round_.tables.exclude(pk=table.pk):
        play_out(other.match, alice)  # the director's rounds count at once
    with pytest.raises(TournamentError, match=f"wait for confirmation: {table.number}\\."):
        services.close_round(round_=round_, by=alice)
    confirm_all(table.match, carol)
    services.close_round(round_=round_, by=alice)


def test_the_round_page_and_the_projector_mark_the_tables_with_rounds_to_confirm(
    client, alice, bob, carol
):
    tournament, _round, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    client.force_login(alice)
    page = client.get(reverse("tournaments:round", args=[tournament.pk, 1])).content.decode()
    assert "2 rounds to confirm" in page
    assert "Rounds wait for confirmation at: Table" in page
    assert "Close the round" not in page
    projector = client.get(reverse("tournaments:projector", args=[tournament.pk]))
    assert "2 rounds to confirm" in projector.content.decode()

    confirm_all(table.match, carol)
    page = client.get(reverse("tournaments:round", args=[tournament.pk, 1])).content.decode()
    assert "to confirm" not in page


def test_the_tables_csv_leaves_a_waiting_table_unfinished(client, alice, bob, carol):
    tournament, _round, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    response = client.get(reverse("tournaments:results_csv", args=[tournament.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    ours = [row for row in rows[1:] if row[1] == str(table.number)]
    assert {row[-1] for row in ours} == {"no"} and {row[5] for row in ours} == {""}


def test_switching_the_option_off_mid_round_counts_the_waiting_rounds(alice, bob, carol):
    tournament, _round, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    services.update_tournament(
        tournament=tournament, variant=tournament.variant, confirm_results=False
    )
    table.match.refresh_from_db()
    assert not table.match.confirm_results and table.match.is_done
    assert len(points(tournament)) == 4


def test_switching_the_option_on_mid_round_leaves_earlier_rounds_counted(alice, bob, carol):
    tournament, _round, table = seated(alice, bob, carol, confirm=False)
    match = table.match
    seats = list(match.seats.order_by("position"))
    outcomes = {
        s.position: {"out": "7C"} if i == 0 else {"points": 10} for i, s in enumerate(seats)
    }
    games.record_round(match=match, outcomes=outcomes, version=match.version, by=bob)
    services.update_tournament(
        tournament=tournament, variant=tournament.variant, confirm_results=True
    )
    match.refresh_from_db()
    assert match.confirm_results and match.unconfirmed_rounds == 0
    games.record_round(match=match, outcomes=outcomes, version=match.version, by=bob)
    match.refresh_from_db()
    assert match.unconfirmed_rounds == 1


def test_only_confirmed_rounds_are_counted_where_rounds_are_read(alice, bob, carol):
    """Round.objects.counted() is what the clubs' awards read: a waiting round is not in it."""
    _tournament, _round, table = seated(alice, bob, carol)
    play_out(table.match, bob)
    entered = set(table.match.rounds.values_list("pk", flat=True))
    assert not Round.objects.filter(pk__in=entered).counted().exists()

    confirm_all(table.match, carol)

    assert set(Round.objects.filter(pk__in=entered).counted().values_list("pk", flat=True)) == (
        entered
    )
