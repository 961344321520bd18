"""Results a club can trust: rights from the tournament, closed rounds and finished
tournaments guarded, guests who share a name, and the lock every table change takes."""

import threading

import pytest
from django.db import connection
from django.urls import reverse

from games import owners
from games import services as games
from games.models import Correction, Match, Player
from tests.factories import change, delete, play_out, record, round_at
from tests.tournaments.factories import enter, make_tournament
from tournaments import queries, services
from tournaments.models import Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


@pytest.fixture
def carols_match(alice, bob, carol, tournament):
    """Round 1 of a one-round tournament: carol and two guests at one table; bob co-directs."""
    services.update_tournament(tournament=tournament, variant=tournament.variant, rounds_planned=1)
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, ["carol", "G1", "G2"], alice)
    return services.seat_next_round(tournament=tournament, by=alice).tables.get().match


def test_a_removed_co_director_no_longer_keeps_score(alice, bob, tournament, carols_match):
    assert owners.may_change(carols_match, bob)
    services.remove_director(tournament=tournament, user=bob)
    carols_match = Match.objects.get(pk=carols_match.pk)
    assert not owners.may_change(carols_match, bob)
    with pytest.raises(games.NotAllowed, match="Only the players at this table"):
        play_out(carols_match, bob)
    assert not carols_match.rounds.exists()


def test_a_director_who_seated_a_round_and_was_removed_cannot_add_scorekeepers(
    client, alice, bob, carol, tournament
):
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, ["carol", "G1", "G2"], alice)
    match = services.seat_next_round(tournament=tournament, by=bob).tables.get().match
    services.remove_director(tournament=tournament, user=bob)
    client.force_login(bob)
    response = client.post(
        reverse("games:scorekeepers", args=[match.pk]), {"username": "carol"}, follow=True
    )
    assert "A tournament table&#x27;s score is kept by its players and directors." in (
        response.content.decode()
    )
    assert not match.scorekeepers.exists()
    with pytest.raises(games.NotAllowed):
        games.add_scorekeeper(match=match, username="carol", by=bob)


def test_a_seated_player_keeps_score_only_while_the_round_is_open(
    alice, carol, tournament, carols_match
):
    play_out(carols_match, carol)
    round_ = tournament.rounds.get()
    services.close_round(round_=round_, by=alice)  # the last round: the tournament finishes
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    before = list(carols_match.seats.order_by("position").values_list("total", flat=True))
    with pytest.raises(games.NotAllowed, match="finished"):
        change(
            carols_match,
            carol,
            1,
            {"carol": {"points": 140}, "G1": {"out": "9C"}, "G2": {"points": 140}},
        )
    with pytest.raises(games.NotAllowed, match="finished"):
        delete(carols_match, carol, 1)
    services.reopen_tournament(tournament=tournament, by=alice)
    # Reopened: the round is still closed, so carol still may not; a director may.
    with pytest.raises(games.NotAllowed, match="Round 1 is closed"):
        delete(carols_match, carol, 1)
    after = list(carols_match.seats.order_by("position").values_list("total", flat=True))
    assert after == before
    change(
        carols_match,
        alice,
        1,
        {"carol": {"points": 140}, "G1": {"out": "9C"}, "G2": {"points": 140}},
    )
    assert Correction.objects.get().by == alice
    services.finish_tournament(tournament=tournament, by=alice)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_finished_tournament_refuses_new_points_and_tie_breaks(alice, tournament, carols_match):
    play_out(carols_match, alice)
    services.close_round(round_=tournament.rounds.get(), by=alice)
    tournament.refresh_from_db()
    with pytest.raises(TournamentError, match="reopens it"):
        services.update_tournament(
            tournament=tournament,
            variant=tournament.variant,
            points_by_place={"3": [0.0, 1.5, 3.0], "4": [3.0, 2.0, 1.0, 0.0], "2": [3.0, 0.0]},
        )
    with pytest.raises(TournamentError, match="reopens it"):
        services.update_tournament(
            tournament=tournament, variant=tournament.variant, tie_breaks=["deals_won"]
        )
    tournament.refresh_from_db()
    assert tournament.points_by_place["3"] == [3.0, 1.5, 0.0]
    # The name may still be corrected.
    services.update_tournament(tournament=tournament, variant=tournament.variant, name="Cup")


def test_the_finished_page_offers_directors_a_reopen_and_then_a_finish(
    client, alice, tournament, carols_match
):
    play_out(carols_match, alice)
    services.close_round(round_=tournament.rounds.get(), by=alice)
    client.force_login(alice)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Reopen for corrections" in page
    client.post(reverse("tournaments:reopen", args=[tournament.pk]))
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Finish the tournament again" in page
    client.post(reverse("tournaments:finish", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_two_guests_called_max_are_seated_and_scored_apart(alice, bob):
    tournament = make_tournament(alice)
    # Two directors each add their own guest "Max": two different people.
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, ["Max", "Ann"], alice)
    enter(tournament, ["Max", "Ben"], bob)
    assert Player.objects.filter(name="Max").count() == 2
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    for table in round_.tables.all():
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    standings = queries.standings_of(tournament)
    assert len({line.player for line in standings}) == 4
    maxes = set(Player.objects.filter(name="Max").values_list("pk", flat=True))
    assert maxes <= {line.player for line in standings}


def test_a_table_holding_two_guests_called_max_can_be_scored(alice):
    tournament = make_tournament(alice, table_size=4)
    enter(tournament, ["Max", "Ann"], alice)
    second_max = Player.objects.create(name="Max", added_by=alice)
    from tournaments.models import Entrant

    Entrant.objects.create(tournament=tournament, player=second_max, checked_in=True)
    Entrant.objects.create(
        tournament=tournament,
        player=Player.objects.create(name="Cat", added_by=alice),
        checked_in=True,
    )
    match = services.seat_next_round(tournament=tournament, by=alice).tables.get().match
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    assert names.count("Max") == 2
    play_out(match, alice)
    match.refresh_from_db()
    assert match.is_finished
    assert sorted(match.seats.values_list("place", flat=True)) == [1, 2, 3, 4]


def test_every_tournament_change_and_every_table_change_moves_its_version(
    alice, carol, tournament, carols_match
):
    seen = [Tournament.objects.get(pk=tournament.pk).version]
    play_out(carols_match, carol)
    seen.append(Tournament.objects.get(pk=tournament.pk).version)
    services.close_round(round_=tournament.rounds.get(), by=alice)
    seen.append(Tournament.objects.get(pk=tournament.pk).version)
    services.reopen_tournament(tournament=tournament, by=alice)
    seen.append(Tournament.objects.get(pk=tournament.pk).version)
    assert seen == sorted(set(seen))


@pytest.mark.django_db(transaction=True)
def test_closing_a_round_waits_for_a_deal_being_deleted_and_then_refuses(alice, carol):
    from django.db import transaction

    tournament = make_tournament(alice)
    enter(tournament, ["carol", "G1", "G2"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    match = round_.tables.get().match
    play_out(match, carol)
    doomed = round_at(match, 1)
    deleted, release, results = threading.Event(), threading.Event(), {}

    def remove():
        # carol deletes the deal and, before her transaction commits, the director closes.
        try:
            with transaction.atomic():
                games.delete_round(
                    match=match, round_id=doomed.pk, version=doomed.version, by=carol
                )
                deleted.set()
                release.wait(10)
        finally:
            connection.close()

    def close():
        deleted.wait(10)
        try:
            services.close_round(round_=round_, by=alice)
            results["close"] = "closed"
        except TournamentError as error:
            results["close"] = str(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=remove), threading.Thread(target=close)]
    for thread in threads:
        thread.start()
    deleted.wait(10)
    threads[1].join(timeout=0.5)
    waited = threads[1].is_alive()  # closing waits for the table's lock
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert waited
    assert results["close"] == "These tables have not finished: 1. Close them by hand or wait."
    round_.refresh_from_db()
    assert not round_.is_closed
    assert not match.rounds.exists()


def test_a_swap_moves_both_matches_versions(alice, tournament):
    enter(tournament, ["A", "B", "C", "D", "E", "F"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    first, second = [t.match for t in round_.tables.order_by("number")]
    a = first.seats.get(position=0).player_id
    b = second.seats.get(position=1).player_id
    services.swap_players(round_=round_, first=a, second=b)
    first_after, second_after = (Match.objects.get(pk=m.pk) for m in (first, second))
    assert first_after.version > first.version and second_after.version > second.version
    assert first_after.seats.get(position=0).player_id == b
    record(first_after, alice, by_seat_names(first_after))


def by_seat_names(match):
    """A legal deal for this match written by player name."""
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    return {
        name: {"out": "9C"} if index == 0 else {"hand": ["7C", "8C", "10C"][index - 1]}
        for index, name in enumerate(names)
    }


def test_a_seated_player_reads_why_a_closed_rounds_table_is_not_theirs_to_change(
    client, alice, carol, tournament
):
    enter(tournament, ["carol", "G1", "G2", "G3", "G4", "G5"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    for table in round_.tables.all():
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    match = Match.objects.filter(table__round=round_, seats__player__user=carol).get()
    client.force_login(carol)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Round 1 is closed: only the tournament&#x27;s directors can change its tables." in page
    assert reverse("games:round_edit", args=[match.pk, round_at(match, 1).pk]) not in page
    edit = client.get(reverse("games:round_edit", args=[match.pk, round_at(match, 1).pk]))
    assert edit.status_code == 403
