"""Ratings follow every finished result as it changes, and always equal a full rebuild."""

import datetime
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from claims import queries as claim_queries
from claims import services as claims
from games import services
from games.models import Match, Player
from stats.models import Rating, RatingChange
from stats.ratings import NEWCOMER, rate
from tests.factories import change, delete, make_match, play_out, record

pytestmark = pytest.mark.django_db


def ratings() -> dict[str, tuple[float, float, int]]:
    return {
        r.player.name: (r.mu, r.sigma, r.matches) for r in Rating.objects.select_related("player")
    }


def history() -> list[tuple]:
    return list(
        RatingChange.objects.order_by("finished_at", "match_id", "player_id").values_list(
            "pool__preset",
            "match_id",
            "player_id",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "matches_after",
        )
    )


def assert_equals_a_rebuild():
    kept = (ratings(), history())
    call_command("ratings", "--rebuild", stdout=StringIO())
    assert (ratings(), history()) == kept


def test_a_finished_match_moves_its_players_ratings_from_their_places(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 60}})
    assert not RatingChange.objects.exists()  # running: not rated yet
    record(match, alice, {"alice": {"points": 142}, "Dan": {"out": "7C"}, "Eve": {"points": 50}})
    places = dict(match.seats.values_list("player_id", "place"))
    expected = rate({}, places)
    ids = dict(Player.objects.values_list("name", "pk"))
    assert ratings() == {
        name: (expected[ids[name]].mu, expected[ids[name]].sigma, 1)
        for name in ("alice", "Dan", "Eve")
    }
    changes = RatingChange.objects.filter(match=match)
    assert {c.before for c in changes} == {NEWCOMER}
    assert {c.finished_at for c in changes} == {match.finished_at}
    assert Rating.objects.get(player__name="Dan").shown > 1500


def test_players_tied_in_a_match_move_the_same_way(alice):
    # Both go over 101 in the same deal with the same total: tied for second.
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "7C"}, "Dan": {"points": 110}, "Eve": {"points": 110}})
    assert dict(match.seats.values_list("player__name", "place")) == {
        "alice": 1,
        "Dan": 2,
        "Eve": 2,
    }
    dan, eve = Rating.objects.get(player__name="Dan"), Rating.objects.get(player__name="Eve")
    assert (dan.mu, dan.sigma) == (eve.mu, eve.sigma)


def test_each_preset_is_its_own_pool_and_house_rules_count_in_their_preset(alice):
    play_out(make_match(alice, ["alice", "Dan"]), alice)
    play_out(make_match(alice, ["alice", "Dan"], reset_at_100=False), alice)
    aaow = make_match(alice, ["alice", "Dan"], "aaow")
    record(aaow, alice, {"alice": {"out": "QS"}, "Dan": {"points": 150}})
    counts = dict(
        Rating.objects.filter(player__name="alice").values_list("pool__preset", "matches")
    )
    assert counts == {"classic": 2, "aaow": 1}


def test_a_correction_to_an_earlier_match_rates_every_later_match_again(alice):
    first = make_match(alice, ["alice", "Dan", "Eve"])
    play_out(first, alice, winner_index=0)
    second = make_match(alice, ["alice", "Dan", "Eve"])
    play_out(second, alice, winner_index=1)
    before = history()
    # The first match's last deal was entered wrong: Eve went out, not alice.
    change(
        first, alice, 1, {"alice": {"points": 102}, "Dan": {"points": 103}, "Eve": {"out": "7C"}}
    )
    after = history()
    assert after != before
    # The second match's changes start from the corrected first match.
    eve_first = next(c for c in after if c[1] == first.pk and c[2] == player_id("Eve"))
    eve_second = next(c for c in after if c[1] == second.pk and c[2] == player_id("Eve"))
    assert eve_second[3:5] == eve_first[5:7]
    assert_equals_a_rebuild()


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def test_deleting_reopening_and_unrating_a_match_take_it_out_of_the_ratings(alice):
    kept = make_match(alice, ["alice", "Dan"])
    play_out(kept, alice)
    gone = make_match(alice, ["alice", "Dan"])
    play_out(gone, alice, winner_index=1)
    reopened = services.create_match(
        created_by=alice,
        players=list(Player.objects.filter(name__in=["alice", "Dan"]).order_by("pk")),
        preset="classic",
        variant=kept.variant,
        deal_limit=1,
    )
    record(reopened, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}})
    unrated = make_match(alice, ["alice", "Eve"])
    play_out(unrated, alice)
    assert Rating.objects.get(player__name="alice").matches == 4

    services.delete_match(match=gone, by=alice)
    delete(reopened, alice, 1)
    services.set_rated(match=unrated, rated=False, by=alice)
    assert Rating.objects.get(player__name="alice").matches == 1
    assert not Rating.objects.filter(player__name="Eve").exists()  # her only match
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == {kept.pk}
    assert_equals_a_rebuild()
    services.set_rated(match=unrated, rated=True, by=alice)
    assert Rating.objects.get(player__name="Eve").matches == 1


def test_only_the_creator_marks_a_match_unrated(alice, bob):
    match = make_match(alice, ["alice", "bob"])
    with pytest.raises(services.NotAllowed, match="creator"):
        services.set_rated(match=match, rated=False, by=bob)
    match.refresh_from_db()
    assert match.rated


@pytest.mark.parametrize("seed", [101, 7])
def test_ratings_after_random_corrections_deletions_reopenings_and_merges_equal_a_rebuild(
    alice, bob, seed
):
    rng = random.Random(seed)
    names = ["alice", "Dan", "Eve", "Fay"]
    matches = []
    for number in range(10):
        # bob plays too, never with Fay, so that Fay may turn out to be bob.
        table = rng.sample(["bob", "alice", "Eve"] if number % 3 == 2 else names, 2)
        table += rng.sample([n for n in names if n not in table], rng.choice([0, 1]))
        match = make_match(alice, table, "classic", reset_at_100=rng.choice([True, False]))
        play_out(match, alice, winner_index=rng.randrange(len(table)))
        matches.append(match)
    merged = False
    for _ in range(8):
        match = rng.choice(matches)
        if not Match.objects.filter(pk=match.pk).exists():
            continue
        action = rng.choice(["correct", "reopen", "delete", "unrate", "merge"])
        fay = Player.objects.filter(name="Fay").first()
        if (
            action == "merge"
            and fay is not None
            and not claim_queries.sat_together(fay, bob.player)
        ):
            claim = claims.ask(guest=fay, by=bob)
            claims.decide(claim=claim, approve=True, by=alice)
            merged = True
        elif action == "merge":
            continue
        elif action == "delete":
            services.delete_match(match=match, by=alice)
        elif action == "unrate":
            services.set_rated(match=match, rated=not match.rated, by=alice)
            match.refresh_from_db()
        else:
            # The last deal (the one that ended the match) won by someone else: changed in
            # place, or deleted (the match runs again) and entered again.
            seats = match.seats.count()
            winner = rng.randrange(seats)
            points = 102 if seats < 4 else 42
            outcomes = {
                seat: {"out": "7C"} if seat == winner else {"points": points + seat}
                for seat in range(seats)
            }
            round_ = match.rounds.order_by("number").last()
            if action == "correct":
                services.change_round(
                    match=match,
                    round_id=round_.pk,
                    version=round_.version,
                    outcomes=outcomes,
                    by=alice,
                )
            else:
                delete(match, alice, round_.number)
                match.refresh_from_db()
                services.record_round(
                    match=match, outcomes=outcomes, version=match.version, by=alice
                )
        assert_equals_a_rebuild()
    assert merged  # the seeds are chosen so that Fay turns out to be bob along the way


def test_the_rebuild_command_reports_what_it_rated_and_needs_to_be_asked(alice):
    play_out(make_match(alice, ["alice", "Dan"]), alice)
    out = StringIO()
    call_command("ratings", "--rebuild", stdout=out)
    assert "classic: 1 matches rated" in out.getvalue()
    with pytest.raises(CommandError, match="--rebuild"):
        call_command("ratings", stdout=StringIO())


def test_deleting_a_players_latest_match_gives_back_the_rating_before_it(alice):
    first = make_match(alice, ["alice", "Dan"])
    play_out(first, alice)
    after_first = ratings()
    latest = make_match(alice, ["alice", "Dan", "Eve"])
    play_out(latest, alice, winner_index=2)
    assert ratings() != after_first
    services.delete_match(match=latest, by=alice)
    assert ratings() == after_first  # Eve, whose only match it was, has no rating
    assert_equals_a_rebuild()


def test_a_match_entered_later_with_an_earlier_date_is_rated_in_its_place(alice, bob):
    alice_dan = services.players_for_names(["alice", "Dan"], added_by=alice)
    recent = make_match(alice, ["alice", "Dan"])
    play_out(recent, alice, winner_index=1)
    old = services.create_match(
        created_by=alice, players=alice_dan, preset="classic", variant=recent.variant
    )
    last_year = recent.finished_at - datetime.timedelta(days=365)
    rounds = [{0: {"out": "7C"}, 1: {"points": 102}}]
    with pytest.raises(services.NotAllowed):
        services.store_history(match=old, rounds=rounds, finished_at=last_year, by=bob)
    with pytest.raises(services.RoundConflict, match="do not finish"):
        services.store_history(
            match=old,
            rounds=[{0: {"out": "7C"}, 1: {"points": 10}}],
            finished_at=last_year,
            by=alice,
        )
    assert not old.rounds.exists()
    services.store_history(match=old, rounds=rounds, finished_at=last_year, by=alice)
    old.refresh_from_db()
    assert old.is_finished and old.finished_at == last_year
    # The old match comes first: the recent one now starts from it.
    first, second = (
        RatingChange.objects.filter(player__name="alice")
        .order_by("finished_at")
        .values_list("match_id", "mu_after", "mu_before")
    )
    assert (first[0], second[0]) == (old.pk, recent.pk) and second[2] == first[1]
    assert_equals_a_rebuild()
