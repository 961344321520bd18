"""A profile's figures, on hand-made matches whose answers are known, and recounted in plain
Python over random matches."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from cards101.rules import RulesError
from games.models import Entry, Match, Player, Seat
from stats.models import RatingChange
from stats.queries import Filters, predicted, summary
from tests.examples import tried
from tests.factories import make_match, record

pytestmark = pytest.mark.django_db


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


@pytest.fixture
def history(alice):
    """Four matches of alice's: three finished, one running."""
    first = make_match(alice, ["alice", "Dan"])
    record(
        first,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}},  # the big Queen in classic
        {"alice": {"hand": "QH QD"}, "Dan": {"out": "9C"}},  # a hand of Queens alone
        {"alice": {"out": "7C"}, "Dan": {"points": 102}},  # Dan over 101 in round 3
    )
    resets = make_match(alice, ["alice", "Eve"])
    record(
        resets,
        alice,
        {"alice": {"out": "7C"}, "Eve": {"points": 101}},  # Eve: exactly 101 -> 0
        {"alice": {"points": 100}, "Eve": {"out": "8C"}},  # alice: exactly 100 -> 50
        {"alice": {"out": "QC"}, "Eve": {"points": 110}},
    )
    aaow = make_match(alice, ["Dan", "alice"], "aaow")
    record(aaow, alice, {"Dan": {"out": "QS"}, "alice": {"points": 150}})
    running = make_match(alice, ["alice", "Dan"])
    record(running, alice, {"alice": {"out": "QD"}, "Dan": {"hand": "AD"}})
    return {"first": first, "resets": resets, "aaow": aaow}


def test_a_players_figures_over_every_finished_match(history):
    alice = summary(pid("alice"), Filters())
    assert (alice.matches, alice.wins, alice.losses) == (3, 2, 1)
    assert alice.win_rate == pytest.approx(2 / 3)
    assert alice.average_place == pytest.approx((1 + 1 + 0) / 3)
    assert alice.rounds == 3 + 3 + 1
    assert (alice.went_out, alice.out_with_queen, alice.out_with_big_queen) == (4, 2, 1)
    assert alice.queens_only == 1
    assert (alice.resets_101, alice.resets_100) == (0, 1)
    assert alice.average_loss_round == 1.0
    seats = Seat.objects.filter(player__name="alice")
    assert alice.best_total == min(s.total for s in seats if s.match.is_finished)
    assert alice.worst_total == max(s.total for s in seats if s.match.is_finished) == 150
    scores = Entry.objects.filter(seat__player__name="alice", round__match__status="finished")
    assert alice.average_score == pytest.approx(sum(e.score for e in scores) / 7)

    dan = summary(pid("Dan"), Filters())
    assert (dan.matches, dan.wins, dan.losses, dan.average_loss_round) == (2, 1, 1, 3.0)
    assert (dan.went_out, dan.out_with_queen, dan.out_with_big_queen) == (2, 1, 1)
    eve = summary(pid("Eve"), Filters())
    assert (eve.resets_101, eve.resets_100, eve.average_place) == (1, 0, 0.0)


def test_filters_by_preset_kind_and_period(history):
    assert summary(pid("alice"), Filters(preset="aaow")).matches == 1
    assert summary(pid("alice"), Filters(preset="classic")).matches == 2
    assert summary(pid("alice"), Filters(kind=Match.Kind.ONLINE)).matches == 0
    assert summary(pid("alice"), Filters(kind=Match.Kind.CASUAL)).matches == 3
    long_ago = timezone.now() - datetime.timedelta(days=60)
    Match.objects.filter(pk=history["aaow"].pk).update(finished_at=long_ago)
    recent = summary(pid("alice"), Filters(period="30d"))
    assert (recent.matches, recent.losses, recent.rounds) == (2, 0, 6)
    this_year = Filters(period="year").start(timezone.now())
    expected = 3 if long_ago >= this_year else 2
    assert summary(pid("alice"), Filters(period="year")).matches == expected


def test_a_player_with_no_finished_match_has_empty_figures(history):
    nobody = Player.objects.create(name="Newcomer")
    empty = summary(nobody.pk, Filters())
    assert (empty.matches, empty.rounds, empty.win_rate, empty.average_place) == (0, 0, None, None)


# --- the SQL against a plain-Python recount over random matches ----------------------------


HANDS = ["AC", "QH QD", "KH", "10S 10D", "QC", "9H", "JS QS"]
OUTS = ["QS", "QH", "7C", "9D", "QC", "KD"]


@tried(0.12, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_sql_figures_equal_a_recount_in_python(data):
    user = get_user_model().objects.get_or_create(username="recount")[0]
    try:
        play_random_matches(user, data)
        for player in Player.objects.filter(name__in=["recount", "Dan", "Eve"]):
            for filters in (Filters(), Filters(preset="classic")):
                assert summary(player.pk, filters) == recount(player, filters)
    finally:
        Match.objects.all().delete()  # each example starts again from no match


def play_random_matches(user, data):
    names = ["recount", "Dan", "Eve"]
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        table = data.draw(st.permutations(names))[: data.draw(st.integers(2, 3))]
        preset = data.draw(st.sampled_from(["classic", "conventions"]))
        match = make_match(user, table, preset)
        for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
            match.refresh_from_db()
            if match.is_finished:
                break
            out = data.draw(st.sampled_from(table))
            outcomes = {
                name: {"out": data.draw(st.sampled_from(OUTS))}
                if name == out
                else data.draw(
                    st.one_of(
                        st.builds(lambda h: {"hand": h}, st.sampled_from(HANDS)),
                        st.builds(lambda p: {"points": p}, st.integers(0, 110)),
                    )
                )
                for name in table
            }
            try:
                record(match, user, outcomes)
            except RulesError:  # a deal the rules refuse (the same card twice): not entered
                continue


def recount(player, filters):
    """The figures counted one seat and one entry at a time."""
    seats = [
        seat
        for seat in Seat.objects.filter(player=player).select_related("match")
        if seat.match.is_finished and (not filters.preset or seat.match.preset == filters.preset)
    ]
    entries = [e for s in seats for e in s.entries.all()]
    size = {s.match_id: s.match.seats.count() for s in seats}
    lost = [s.lost_in_round for s in seats if s.lost_in_round is not None]
    outs = [e for e in entries if e.kind == "out"]

    def mean(values):
        return sum(values) / len(values) if values else None

    big = [e for e in outs if e.cards == "Q" + e.round.match.options["big_queen"]]
    return type(summary(player.pk, filters))(
        matches=len(seats),
        wins=sum(1 for s in seats if s.place == 1),
        average_place=mean([(size[s.match_id] - s.place) / (size[s.match_id] - 1) for s in seats]),
        rounds=len(entries),
        average_score=mean([e.score for e in entries]),
        went_out=len(outs),
        out_with_queen=sum(1 for e in outs if e.cards.startswith("Q")),
        out_with_big_queen=len(big),
        queens_only=sum(
            1 for e in entries if e.kind == "hand" and all(c[0] == "Q" for c in e.cards.split())
        ),
        resets_101=sum(1 for e in entries if e.event == "reset_to_0"),
        resets_100=sum(1 for e in entries if e.event == "reset_to_50"),
        losses=len(lost),
        average_loss_round=mean(lost),
        best_total=min((s.total for s in seats), default=None),
        worst_total=max((s.total for s in seats), default=None),
    )


def test_wins_are_set_against_what_the_ratings_expected(history):
    alice = predicted(pid("alice"), Filters())
    changes = RatingChange.objects.filter(player__name="alice")
    assert alice.matches == 3 and alice.wins == 2
    assert alice.expected == pytest.approx(sum(c.win_chance for c in changes))
    assert alice.beat  # two wins where newcomers' chances add up to well under two
    classic = predicted(pid("alice"), Filters(preset="classic"))
    assert (classic.matches, classic.wins) == (2, 2)
