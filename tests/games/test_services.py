"""The write path: every change rescores the whole match in one transaction."""

import pytest

from cards101.rules import PRESETS, RulesError
from games import services
from games.models import Entry, Match, Round
from stats.models import Rating
from tests.factories import by_seat, change, counts_tables_of, delete, make_match, play_out, record

pytestmark = pytest.mark.django_db


def totals(match):
    return {seat.player.name: seat.total for seat in match.seats.select_related("player")}


def test_a_recorded_round_stores_scores_totals_and_events(alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"points": 17}},
        {
            "alice": {"hand": "KD"},
            "Dan": {"out": "7C"},
            "Eve": {"hand": "AS AH AD AC 10S 10H 10D 10C"},
        },
    )
    entries = Entry.objects.filter(round__number=2).select_related("seat__player")
    by_name = {e.seat.player.name: e for e in entries}
    assert by_name["alice"].score == 4
    assert by_name["alice"].total == -36
    assert by_name["Eve"].score == 84
    assert by_name["Eve"].total == 0  # 17 + 84 = 101 resets to 0
    assert by_name["Eve"].event == "reset_to_0"
    assert totals(match) == {"alice": -36, "Dan": 11, "Eve": 0}


def test_the_same_round_posted_twice_is_refused_and_saves_nothing(alice, match):
    outcomes = by_seat(
        match, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}}
    )
    version = match.version
    services.record_round(match=match, outcomes=outcomes, version=version, by=alice)
    with pytest.raises(services.RoundConflict, match="Round 1 has already been saved") as caught:
        services.record_round(match=match, outcomes=outcomes, version=version, by=alice)
    assert caught.value.repeat
    assert match.rounds.count() == 1
    assert totals(match) == {"alice": -40, "Dan": 11, "Eve": 4}


def test_a_round_that_breaks_the_rules_saves_nothing(alice, match):
    with pytest.raises(RulesError, match="given twice"):
        record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "QS"}, "Eve": {"hand": "KH"}})
    assert not Round.objects.exists()
    assert not Entry.objects.exists()


def test_changing_an_earlier_round_recomputes_every_later_total(alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}},
        {"alice": {"hand": "10H"}, "Dan": {"out": "9C"}, "Eve": {"hand": "JH"}},
    )
    change(match, alice, 1, {"alice": {"hand": "AH"}, "Dan": {"hand": "AC"}, "Eve": {"out": "KH"}})
    assert totals(match) == {"alice": 21, "Dan": 11, "Eve": 2}
    last = Entry.objects.get(round__number=2, seat__player__name="alice")
    assert last.total == 21


def test_deleting_a_round_renumbers_the_later_ones(alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}},
        {"alice": {"hand": "10H"}, "Dan": {"out": "9C"}, "Eve": {"hand": "JH"}},
        {"alice": {"hand": "7H"}, "Dan": {"hand": "8C"}, "Eve": {"out": "9H"}},
    )
    delete(match, alice, 1)
    assert list(match.rounds.values_list("number", flat=True)) == [1, 2]
    assert totals(match) == {"alice": 17, "Dan": 8, "Eve": 2}


def test_deleting_a_round_that_later_rounds_depend_on_says_which_must_go_first(alice):
    # Under "last survivor" Eve loses in round 1 and sits out round 2; without round 1
    # she would be back in play, but round 2 was played without her.
    match = make_match(alice, ["alice", "Dan", "Eve"], "classic")
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 120}},
        {"alice": {"out": "QH"}, "Dan": {"hand": "AD"}},
    )
    message = "bring Eve back into play, but round 2 was played without them"
    with pytest.raises(services.RoundConflict, match=message):
        delete(match, alice, 1)
    assert match.rounds.count() == 2
    assert totals(match) == {"alice": -60, "Dan": 22, "Eve": 120}


def test_a_match_ends_when_its_rules_say_so_with_places(alice):
    match = make_match(alice, ["alice", "Dan"], "aaow")
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"points": 150}})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    places = {
        s.player.name: (s.place, s.lost_in_round) for s in match.seats.select_related("player")
    }
    assert places == {"alice": (1, None), "Dan": (2, 1)}


def test_a_rematch_seats_the_same_players_under_the_same_rules(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"], "conventions", reset_at_101=False)
    new = services.rematch(match=match, by=alice)
    assert [s.player.name for s in new.seats.order_by("position")] == ["alice", "Dan", "Eve"]
    assert new.variant == match.variant
    assert new.rematch_of == match


def test_an_account_name_links_the_seat_to_the_account_and_guests_are_reused(alice, bob):
    counts_tables_of(bob, alice)  # bob sits at alice's tables (tests/claims/test_consent.py)
    first = make_match(alice, ["alice", "BOB", "Dan"])
    second = make_match(alice, ["alice", "bob", "dan"])
    seat_players = lambda m: [s.player for s in m.seats.order_by("position")]  # noqa: E731
    assert seat_players(first)[1].user == bob
    assert seat_players(first)[2] == seat_players(second)[2]
    assert seat_players(first)[2].is_guest


def test_deleting_a_round_that_does_not_exist_says_so(alice, match):
    with pytest.raises(services.RoundConflict, match="already been deleted"):
        services.delete_round(match=match, round_id=12345, version=1, by=alice)


def test_deleting_the_first_of_many_rounds_keeps_their_order(alice, match):
    hands = ["AC", "KH", "10D", "9S", "8C", "7D", "JH"]
    record(
        match,
        alice,
        *({"alice": {"out": "QS"}, "Dan": {"hand": hand}, "Eve": {"hand": "6H"}} for hand in hands),
    )
    delete(match, alice, 1)
    dan = Entry.objects.filter(seat__player__name="Dan").order_by("round__number")
    assert list(dan.values_list("round__number", "cards")) == list(enumerate(hands[1:], start=1))


def two_deal_match(alice):
    """A classic match of alice and Dan that ends after two deals."""
    players = services.players_for_names(["alice", "Dan"], added_by=alice)
    return services.create_match(
        created_by=alice,
        players=players,
        preset="classic",
        variant=PRESETS["classic"],
        deal_limit=2,
    )


def test_a_match_with_a_deal_limit_ends_after_that_many_deals(alice):
    match = two_deal_match(alice)
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}},
        {"alice": {"hand": "KH"}, "Dan": {"out": "9C"}},
    )
    match.refresh_from_db()
    assert match.is_finished
    with pytest.raises(services.RoundConflict, match="The match is over"):
        record(match, alice, {"alice": {"hand": "KD"}, "Dan": {"out": "9D"}})
    # Deleting a deal reopens it: the limit is not reached any more.
    delete(match, alice, 2)
    match.refresh_from_db()
    assert not match.is_finished


def test_a_match_closed_by_hand_is_ranked_as_it_stands_and_can_reopen(alice, match):
    record(match, alice, {"alice": {"hand": "AC"}, "Dan": {"out": "QS"}, "Eve": {"hand": "KH"}})
    services.close_match(match=match, by=alice)
    match.refresh_from_db()
    assert match.is_finished
    places = dict(match.seats.values_list("player__name", "place"))
    assert places == {"Dan": 1, "Eve": 2, "alice": 3}
    services.reopen_match(match=match, by=alice)
    match.refresh_from_db()
    assert not match.is_finished


def test_a_match_knows_when_it_finished_through_corrections_and_reopening(alice):
    match = two_deal_match(alice)
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}})
    match.refresh_from_db()
    assert match.finished_at is None
    record(match, alice, {"alice": {"hand": "KH"}, "Dan": {"out": "9C"}})
    match.refresh_from_db()
    finished_at = match.finished_at
    assert finished_at is not None and finished_at >= match.created_at
    # A correction that leaves it finished keeps the time it finished.
    change(match, alice, 1, {"alice": {"out": "QH"}, "Dan": {"hand": "AD"}})
    match.refresh_from_db()
    assert match.is_finished and match.finished_at == finished_at
    # Running again (a deal deleted), it has not finished; finishing again sets a new time.
    delete(match, alice, 2)
    match.refresh_from_db()
    assert match.finished_at is None
    record(match, alice, {"alice": {"hand": "KH"}, "Dan": {"out": "9C"}})
    match.refresh_from_db()
    assert match.finished_at is not None and match.finished_at >= finished_at


def test_an_account_seated_by_someone_else_may_leave_the_match(alice, bob):
    counts_tables_of(bob, alice)
    match = make_match(alice, ["alice", "bob", "Dan"])
    play_out(match, alice, winner_index=1)
    assert Rating.objects.filter(player__user=bob).exists()
    guest = services.leave_match(match=match, by=bob)
    assert (guest.name, guest.user, guest.added_by) == ("bob", None, alice)
    assert [s.player.name for s in match.seats.order_by("position")] == ["alice", "bob", "Dan"]
    assert not Match.objects.for_user(bob).filter(pk=match.pk).exists()
    # The match's result, and its rating, go with the seat.
    assert not Rating.objects.filter(player__user=bob, matches__gt=0).exists()
    assert Rating.objects.get(player=guest).matches == 1
    with pytest.raises(services.NotAllowed, match="no seat"):
        services.leave_match(match=match, by=bob)
    with pytest.raises(services.NotAllowed, match="delete it instead"):
        services.leave_match(match=match, by=alice)


def test_a_played_round_cut_at_the_move_limit_is_kept_and_later_rounds_score_on(alice, match):
    # Nobody went out: only a round the engine cut may end so, never one a person enters.
    cut = {0: {"hand": "10C"}, 1: {"hand": "KD"}, 2: {"hand": "JH KH"}}
    with pytest.raises(RulesError, match="here nobody did"):
        services.store_played_round(match=match, outcomes=cut)
    services.store_played_round(match=match, outcomes=cut, cut=True)
    match.refresh_from_db()
    assert list(match.rounds.values_list("cut", flat=True)) == [True]
    services.record_round(
        match=match,
        outcomes={0: {"out": "9S"}, 1: {"hand": "KS"}, 2: {"hand": "6H"}},
        version=match.version,
        by=alice,
    )
    totals = list(match.seats.order_by("position").values_list("total", flat=True))
    assert totals == [10, 8, 12]
    with pytest.raises(RulesError, match="here nobody did"):
        match.refresh_from_db()
        services.record_round(match=match, outcomes=cut, version=match.version, by=alice)


def test_without_the_claims_app_a_named_account_sits_as_a_guest_and_nobody_is_asked(
    monkeypatch, alice, bob
):
    # games answers for itself when no app listens to its signals (claims not installed): the
    # account is not put on a table it did not agree to, and nothing else is written.
    from claims.models import Claim
    from games import signals

    for signal in (signals.account_named, signals.tables_counted, signals.stand_ins_waiting):
        monkeypatch.setattr(signal, "receivers", [])
    first = make_match(alice, ["alice", "bob"])
    again = services.rematch(match=first, by=alice)
    for match in (first, again):
        seated = [seat.player for seat in match.seats.order_by("position")]
        assert seated[0].user == alice
        assert (seated[1].name, seated[1].is_guest, seated[1].added_by) == ("bob", True, alice)
    assert not services.counts_for(bob, alice)
    assert not Claim.objects.exists()
