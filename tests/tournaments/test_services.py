"""Running a tournament through its services: entrants, seating, closing, integrity."""

import pytest

from games import services as games
from games.models import Match, Seat
from tests.factories import at_once, change, play_out
from tests.tournaments.factories import enter, make_tournament, seated, second_round_of_eight
from tournaments import queries, services
from tournaments.models import Entrant, Tournament, TournamentRound
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


def test_ten_players_are_seated_at_tables_of_four_three_and_three(alice, tournament):
    enter(tournament, [f"P{i}" for i in range(10)], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    sizes = sorted(len(names) for names in seated(round_))
    assert sizes == [3, 3, 4]
    assert sorted(name for names in seated(round_) for name in names) == [
        f"P{i}" for i in range(10)
    ]
    assert round_.seed  # recorded, so the seating can be reproduced


def test_only_checked_in_players_are_seated(alice, tournament):
    enter(tournament, ["A", "B", "C"], alice)
    enter(tournament, ["Late"], alice, checked_in=False)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    assert "Late" not in [name for names in seated(round_) for name in names]


def test_a_round_cannot_be_seated_while_the_last_one_is_open(alice, tournament):
    enter(tournament, ["A", "B", "C", "D"], alice)
    services.seat_next_round(tournament=tournament, by=alice)
    with pytest.raises(TournamentError, match="still being played"):
        services.seat_next_round(tournament=tournament, by=alice)


def test_closing_a_round_needs_every_table_finished(alice, tournament):
    enter(tournament, ["A", "B", "C", "D", "E", "F"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    first, second = [t.match for t in round_.tables.order_by("number")]
    play_out(first, alice)
    with pytest.raises(TournamentError, match="have not finished: 2"):
        services.close_round(round_=round_, by=alice)
    services.close_table(table=second.table, by=alice)
    services.close_round(round_=round_, by=alice)
    assert TournamentRound.objects.get().is_closed


def test_standings_follow_a_corrected_table_at_once(alice, tournament):
    enter(tournament, ["A", "B", "C"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    match = round_.tables.get().match
    play_out(match, alice, winner_index=0)
    winner = match.seats.get(position=0).player_id
    assert queries.standings_of(tournament)[0].player == winner
    # The scorekeeper corrects the deal: the second seat went out instead.
    seats = list(match.seats.select_related("player").order_by("position"))
    change(
        match,
        alice,
        1,
        {
            seats[0].player.name: {"points": 140},
            seats[1].player.name: {"out": "7C"},
            seats[2].player.name: {"points": 140},
        },
    )
    assert queries.standings_of(tournament)[0].player == seats[1].player_id


def test_later_rounds_avoid_repeat_meetings_and_the_final_seats_the_top(alice, tournament):
    tournament.final_table_size = 4
    tournament.save()
    # 16 players at 4 tables of 4 can meet 3 new players each in round 2.
    names = [f"P{i}" for i in range(16)]
    enter(tournament, names, alice)
    for _ in range(2):
        round_ = services.seat_next_round(tournament=tournament, by=alice)
        for table in round_.tables.all():
            play_out(table.match, alice)
        services.close_round(round_=round_, by=alice)
    first, second = [seated(r) for r in TournamentRound.objects.order_by("number")]
    met = {frozenset((a, b)) for table in first for a in table for b in table if a != b}
    again = {frozenset((a, b)) for table in second for a in table for b in table if a != b}
    assert not met & again
    final = services.seat_next_round(tournament=tournament, by=alice)
    assert final.is_final
    top = [line.player for line in queries.standings_of(tournament)][:4]
    assert sorted(s.player_id for s in final.tables.get().match.seats.all()) == sorted(top)
    for table in final.tables.all():
        play_out(table.match, alice)
    services.close_round(round_=final, by=alice)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    with pytest.raises(TournamentError, match="Every round"):
        services.seat_next_round(tournament=tournament, by=alice)


def test_a_dropped_player_keeps_their_results_and_is_not_seated_again(alice, tournament):
    enter(tournament, ["A", "B", "C", "D"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    for table in round_.tables.all():
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    dropped = Entrant.objects.get(player__name="D")
    services.drop(entrant=dropped)
    second = services.seat_next_round(tournament=tournament, by=alice)
    assert "D" not in [name for names in seated(second) for name in names]
    lines = {line.player: line for line in queries.standings_of(tournament)}
    assert lines[dropped.player_id].tables == 1


def test_a_late_entry_joins_from_the_next_round(alice, tournament):
    enter(tournament, ["A", "B", "C"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    (late,) = enter(tournament, ["Late"], alice)
    assert late.joined_round == 2
    play_out(round_.tables.get().match, alice)
    services.close_round(round_=round_, by=alice)
    second = services.seat_next_round(tournament=tournament, by=alice)
    assert "Late" in [name for names in seated(second) for name in names]


def test_a_round_is_seated_again_only_until_its_first_score(alice, tournament):
    enter(tournament, [f"P{i}" for i in range(8)], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    old_matches = [t.match_id for t in round_.tables.all()]
    again = services.reseat_round(round_=round_, by=alice)
    assert again.number == 1
    assert not Match.objects.filter(pk__in=old_matches).exists()
    play_out(again.tables.first().match, alice)
    with pytest.raises(TournamentError, match="cannot be seated again"):
        services.reseat_round(round_=again, by=alice)


def test_two_players_swap_seats_before_any_score(alice, tournament):
    enter(tournament, [f"P{i}" for i in range(8)], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    a, b = seated(round_)[0][0], seated(round_)[1][0]
    ids = dict(tournament.entrants.values_list("player__name", "player_id"))
    services.swap_players(round_=round_, first=ids[a], second=ids[b])
    assert seated(round_)[0][0] == b and seated(round_)[1][0] == a
    play_out(round_.tables.first().match, alice)
    with pytest.raises(TournamentError, match="seats are fixed"):
        services.swap_players(round_=round_, first=ids[a], second=ids[b])


def test_import_adds_every_new_name_and_reports_the_names_it_skipped(alice, tournament):
    services.add_entrants(tournament=tournament, names=["Vera"], by=alice)
    added = services.import_entrants(
        tournament=tournament,
        text="name,checked_in\nAnna,yes\nanna,no\nBoris,no\nvera,yes\n",
        by=alice,
    )
    assert [(e.player.name, e.checked_in) for e in added.entrants] == [
        ("Anna", True),
        ("Boris", False),
    ]
    assert added.skipped == ["anna", "Vera"]  # twice in the list; entered already
    plain = services.import_entrants(tournament=tournament, text="Gleb\nZoya\n", by=alice)
    assert [e.player.name for e in plain.entrants] == ["Gleb", "Zoya"]
    assert plain.skipped == []


def test_a_bad_line_still_adds_nobody(alice, tournament):
    with pytest.raises(TournamentError, match="Line 3: checked_in must be yes or no"):
        services.import_entrants(
            tournament=tournament, text="name,checked_in\nAnna,yes\nBoris,maybe\n", by=alice
        )
    assert not tournament.entrants.exists()


def test_check_in_everyone_checks_in_all_but_those_who_dropped_out(alice, tournament):
    enter(tournament, ["Anna", "Boris"], alice, checked_in=False)
    (gone,) = enter(tournament, ["Vera"], alice, checked_in=False)
    services.drop(entrant=gone)
    version = Tournament.objects.get(pk=tournament.pk).version
    assert services.check_in_everyone(tournament=tournament) == 2
    assert sorted(
        tournament.entrants.filter(checked_in=True).values_list("player__name", flat=True)
    ) == [
        "Anna",
        "Boris",
    ]
    assert Tournament.objects.get(pk=tournament.pk).version > version
    assert services.check_in_everyone(tournament=tournament) == 0


def test_latecomers_join_round_1_when_it_is_seated_again_before_any_score(alice, tournament):
    enter(tournament, [f"P{i}" for i in range(8)], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    (late,) = enter(tournament, ["Late"], alice)
    assert late.joined_round == 2  # the round is seated: they wait for the next one...
    round_ = services.reseat_round(round_=round_, by=alice)
    seated = set(
        Seat.objects.filter(match__table__round=round_).values_list("player__name", flat=True)
    )
    assert "Late" in seated and len(seated) == 9  # ...unless it is seated again
    late.refresh_from_db()
    assert late.joined_round == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no players"),
        ("name,checked_in\nAnna,maybe\n", "checked_in must be yes or no"),
        ("name\n" + "x" * 41 + "\n", "at most 40 characters"),
        ("name,checked_in\n,yes\n", "Line 2 has no name"),
    ],
)
def test_a_bad_import_says_which_line_is_wrong(alice, tournament, text, message):
    with pytest.raises(TournamentError, match=message):
        services.import_entrants(tournament=tournament, text=text, by=alice)
    assert not tournament.entrants.exists()


@pytest.mark.django_db(transaction=True)
def test_two_directors_seating_at_once_make_one_seating(alice, bob):
    tournament = make_tournament(alice)
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, [f"P{i}" for i in range(12)], alice)
    results = at_once(
        *(
            lambda user=user: services.seat_next_round(tournament=tournament, by=user)
            for user in (alice, bob)
        )
    )
    outcomes = [str(r) if isinstance(r, TournamentError) else "seated" for r in results]
    assert sorted(outcomes)[-1] == "seated"
    assert outcomes.count("seated") == 1
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert Match.objects.filter(table__round__tournament=tournament).count() == 3


def test_a_table_of_a_closed_round_cannot_be_reopened(alice, tournament):
    enter(tournament, ["A", "B", "C"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    table = round_.tables.get()
    services.close_table(table=table, by=alice)
    services.close_round(round_=round_, by=alice)
    table.round.refresh_from_db()
    with pytest.raises(TournamentError, match="cannot be reopened"):
        services.reopen_table(table=table, by=alice)


def test_a_closed_rounds_table_can_be_corrected_but_not_reopened_by_a_correction(alice, tournament):
    enter(tournament, ["A", "B", "C"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    match = round_.tables.get().match
    play_out(match, alice, winner_index=0)
    services.close_round(round_=round_, by=alice)
    seats = list(match.seats.select_related("player").order_by("position"))
    names = [seat.player.name for seat in seats]
    # A correction that leaves the match finished counts at once...
    change(
        match,
        alice,
        1,
        {names[0]: {"points": 140}, names[1]: {"out": "7C"}, names[2]: {"points": 140}},
    )
    assert queries.standings_of(tournament)[0].player == seats[1].player_id
    # ...one that would make the match unfinished is refused and changes nothing.
    with pytest.raises(games.RoundConflict, match="must leave the match finished"):
        change(
            match,
            alice,
            1,
            {names[0]: {"points": 5}, names[1]: {"out": "7C"}, names[2]: {"points": 7}},
        )
    match.refresh_from_db()
    assert match.is_finished
    assert queries.standings_of(tournament)[0].player == seats[1].player_id


# --- meeting again -----------------------------------------------------------------------


def test_a_swap_that_makes_players_meet_again_is_asked_about_first(alice, tournament):
    first, second = second_round_of_eight(alice, tournament)
    ids = dict(tournament.entrants.values_list("player__name", "player_id"))
    met = seated(first)
    # Two tables of four after two tables of four: each new table has two from each old one
    # (the fewest repeats there can be). A player of old table 1 swapped for one of old table
    # 2 joins two more old table-mates.
    table_a, table_b = seated(second)
    assert sorted(sum(p in met[0] for p in table) for table in (table_a, table_b)) == [2, 2]
    mover = next(p for p in table_a if p in met[0])
    target = next(p for p in table_b if p in met[1])
    before = seated(second)
    with pytest.raises(services.RepeatMeetings) as warning:
        services.swap_players(round_=second, first=ids[mover], second=ids[target], confirmed=False)
    assert seated(second) == before  # nothing moved
    assert any(mover in pair for pair in warning.value.pairs)
    assert "would meet again" in str(warning.value)
    services.swap_players(round_=second, first=ids[mover], second=ids[target], confirmed=True)
    assert seated(second) != before


def test_a_seating_again_with_repeats_is_shown_and_kept_only_once_confirmed(alice, tournament):
    # Three players can only sit together again.
    enter(tournament, ["A", "B", "C"], alice)
    first = services.seat_next_round(tournament=tournament, by=alice)
    play_out(first.tables.get().match, alice)
    services.close_round(round_=first, by=alice)
    second = services.seat_next_round(tournament=tournament, by=alice)
    with pytest.raises(services.RepeatMeetings) as warning:
        services.reseat_round(round_=second, by=alice, confirmed=False)
    assert TournamentRound.objects.get(pk=second.pk)  # the round as it was
    assert len(warning.value.pairs) == 3 and warning.value.seed is not None
    again = services.reseat_round(round_=second, by=alice, seed=warning.value.seed)
    assert again.seed == warning.value.seed
    assert sorted(seated(again)[0]) == ["A", "B", "C"]
