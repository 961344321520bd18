"""Nothing unconfirmed counts: a tournament table whose round waits for a second person's
confirmation moves no rating and is on no profile until it is confirmed (and a correction that
makes it wait again takes it back out)."""

import pytest

from stats.models import RatingChange
from stats.queries import Filters
from tests.factories import change, counts_tables_of, record
from tests.games.test_confirm_rounds import FIRST, OTHER, confirm
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def one_deal_table(alice, bob, carol):
    """A table whose match ends after one deal, at a night whose results are confirmed."""
    counts_tables_of(bob, alice)
    counts_tables_of(carol, alice)
    tournament = make_tournament(
        alice, confirm_results=True, rounds_planned=1, match_end="deals", deals_per_match=1
    )
    enter(tournament, ["bob", "carol", "Dan", "Eve"], alice)
    return tournaments.seat_next_round(tournament=tournament, by=alice).tables.get().match


def rating_changes() -> int:
    return RatingChange.objects.count()


def test_a_finished_table_whose_round_waits_moves_no_rating(alice, bob, carol):
    table = one_deal_table(alice, bob, carol)
    record(table, bob, FIRST)
    table.refresh_from_db()
    assert table.is_finished and table.unconfirmed_rounds == 1
    assert rating_changes() == 0

    confirm(table, carol)
    assert rating_changes() == 4  # confirmed: its four players' ratings move


def test_a_correction_that_makes_the_round_wait_again_takes_the_rating_back(alice, bob, carol):
    table = one_deal_table(alice, bob, carol)
    record(table, bob, FIRST)
    confirm(table, carol)
    assert rating_changes() == 4
    change(table, bob, 1, OTHER)  # bob's correction waits for someone else again
    assert rating_changes() == 0
    confirm(table, carol)
    assert rating_changes() == 4


def test_a_waiting_round_is_on_no_profile(alice, bob, carol):
    table = one_deal_table(alice, bob, carol)
    record(table, bob, FIRST)
    assert not Filters().matches().filter(pk=table.pk).exists()
    confirm(table, carol)
    assert Filters().matches().filter(pk=table.pk).exists()
