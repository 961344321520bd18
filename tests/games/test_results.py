"""games.results: how each player finished each finished match, for standings and statistics."""

import pytest

from games.models import Match
from games.results import finished_results
from tests.factories import make_match, record

pytestmark = pytest.mark.django_db


def test_each_seat_of_a_finished_match_with_place_total_loss_and_rounds_gone_out(
    alice, django_assert_num_queries
):
    done = make_match(alice, ["alice", "Dan", "Eve"], "classic")
    record(
        done,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 60}},
        {"alice": {"hand": "KH"}, "Dan": {"out": "9C"}, "Eve": {"points": 50}},
        {"alice": {"out": "QH"}, "Dan": {"points": 110}},
    )
    running = make_match(alice, ["alice", "Dan"], "classic")
    record(running, alice, {"alice": {"out": "QD"}, "Dan": {"hand": "AD"}})

    with django_assert_num_queries(2):
        results = finished_results(Match.objects.all())
    assert list(results) == [done.pk]
    seen = {
        (r.position, r.place, r.total, r.lost_in_round, r.lost, r.went_out)
        for r in results[done.pk]
    }
    # classic: Q♠ out -40; Q♥ out -20; A♣ 11, K♥ 4; Eve over 101 in round 2, Dan in round 3.
    assert seen == {
        (0, 1, -40 + 4 - 20, None, False, 2),
        (1, 2, 11 + 0 + 110, 3, True, 1),
        (2, 3, 110, 2, True, 0),
    }
    assert [r.position for r in results[done.pk]] == [0, 1, 2]


def test_without_counting_outs_it_takes_one_query(alice, django_assert_num_queries):
    done = make_match(alice, ["alice", "Dan"], "classic")
    record(done, alice, {"alice": {"out": "7C"}, "Dan": {"points": 102}})
    with django_assert_num_queries(1):
        results = finished_results(Match.objects.all(), count_outs=False)
    assert [(r.place, r.went_out) for r in results[done.pk]] == [(1, 0), (2, 0)]
