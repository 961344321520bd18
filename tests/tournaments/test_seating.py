"""Seating rounds: table sizes, Swiss order, no repeat meetings, first seats; no database."""

import itertools
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from tests.examples import tried
from tournaments.seating import repeat_meetings, seat_round, table_sizes

CAST = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
ROOT = Path(__file__).resolve().parents[2]
SMALL_ROUNDS = tried(1)
LARGE_ROUNDS = tried(0.25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- helpers written from the rules in seating.py, without its code ------------------------


def seated_once(tables, players) -> bool:
    seated = [player for table in tables for player in table]
    return sorted(seated) == sorted(players)


def sizes_of(tables) -> list[int]:
    return sorted((len(table) for table in tables), reverse=True)


def distance(tables, standings) -> int:
    """The documented standings cost: |place_a - place_b| summed over every pair at a table."""
    place = {player: i for i, player in enumerate(standings)}
    return sum(abs(place[a] - place[b]) for table in tables for a, b in pairs(table))


def pairs(table):
    return itertools.combinations(table, 2)


def meetings(history) -> Counter:
    """How often each pair (a frozenset) has sat at one table."""
    return Counter(
        frozenset(pair) for earlier in history for table in earlier for pair in pairs(table)
    )


def seatings(players, sizes):
    """Every way to seat `players` at tables of these sizes, tables in no particular order."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [player for player in rest if player not in others]
            for seating in seatings(left, left_sizes):
                yield [[first, *others], *seating]


def random_round(rng: random.Random, players) -> list[list]:
    """An earlier round at tables of random sizes from 2 to 4, in random seat order."""
    players = list(players)
    rng.shuffle(players)
    tables = []
    while players:
        size = min(len(players), rng.choice((2, 3, 4)))
        tables.append(players[:size])
        players = players[size:]
    return tables


def played_history(players, rounds: int, table_size: int = 4, seed: int = 0) -> tuple:
    """Rounds seated by seat_round itself, with standings reshuffled by made-up results."""
    rng = random.Random(seed)
    points = dict.fromkeys(players, 0)
    history: list = []
    standings = None
    for number in range(rounds):
        tables = seat_round(
            players, table_size=table_size, seed=number, standings=standings, history=history
        )
        history.append(tables)
        for table in tables:
            finish = list(table)
            rng.shuffle(finish)
            for score, player in enumerate(reversed(finish)):
                points[player] += score
        luck = {player: rng.random() for player in players}
        standings = sorted(players, key=lambda player: (-points[player], luck[player]))
    return standings, history


# --- table sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "table_size", "sizes"),
    [
        (2, 4, [2]),
        (3, 4, [3]),
        (4, 4, [4]),
        (5, 4, [3, 2]),
        (6, 4, [3, 3]),
        (7, 4, [4, 3]),
        (8, 4, [4, 4]),
        (9, 4, [3, 3, 3]),
        (10, 4, [4, 3, 3]),
        (11, 4, [4, 4, 3]),
        (4, 3, [4]),
        (5, 3, [3, 2]),
        (8, 3, [4, 4]),
        (10, 3, [4, 3, 3]),
        (12, 3, [3, 3, 3, 3]),
        (2, 2, [2]),
        (3, 2, [3]),
        (6, 2, [2, 2, 2]),
        (7, 2, [3, 2, 2]),
    ],
)
def test_table_sizes_follow_the_rule_of_the_issue(count, table_size, sizes):
    assert table_sizes(count, table_size) == sizes


@pytest.mark.parametrize("table_size", [3, 4])
def test_table_sizes_use_fewest_pairs_then_most_tables_of_the_chosen_size(table_size):
    other = 7 - table_size
    for count in range(2, 80):
        ways = [
            (pairs, -chosen, [table_size] * chosen + [other] * rest + [2] * pairs)
            for pairs in range(count // 2 + 1)
            for chosen in range(count // table_size + 1)
            for rest in range(count // other + 1)
            if 2 * pairs + table_size * chosen + other * rest == count
        ]
        best = min(ways)[2]
        assert table_sizes(count, table_size) == sorted(best, reverse=True), count


def test_only_two_and_five_players_need_a_table_of_two():
    for table_size in (3, 4):
        needing_pairs = [n for n in range(2, 100) if 2 in table_sizes(n, table_size)]
        assert needing_pairs == [2, 5]


def test_a_table_size_other_than_2_3_or_4_is_refused():
    with pytest.raises(ValueError, match="table size must be 2, 3 or 4, not 5"):
        table_sizes(10, 5)
    with pytest.raises(ValueError, match="table size must be 2, 3 or 4"):
        seat_round(CAST, table_size=6)


def test_table_sizes_need_two_players():
    with pytest.raises(ValueError, match="at least 2 players"):
        table_sizes(1, 4)


# --- every round ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 9, 10, 11, 13, 17, 50])
@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_every_player_is_seated_once_at_tables_of_the_allowed_sizes(count, table_size):
    players = list(range(100, 100 + count))
    standings, history = played_history(players, 2, table_size)
    tables = seat_round(players, table_size, seed=3, standings=standings, history=history)
    assert seated_once(tables, players)
    assert sizes_of(tables) == table_sizes(count, table_size)


def test_five_players_sit_at_a_three_and_a_two():
    tables = seat_round(CAST[:5], seed=1)
    assert sizes_of(tables) == [3, 2]


def test_two_players_share_one_table():
    assert seat_round(["alice", "bob"], seed=1) in (
        [["alice", "bob"]],
        [["bob", "alice"]],
    )


# --- round 1 ----------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_first_round():
    players = [f"player {n}" for n in range(30)]
    assert seat_round(players, seed=42) == seat_round(players, seed=42)


def test_another_seed_usually_gives_another_first_round():
    players = [f"player {n}" for n in range(12)]
    drawn = {str(seat_round(players, seed=seed)) for seed in range(20)}
    assert len(drawn) >= 18


def test_the_first_round_does_not_depend_on_the_order_players_are_listed_in():
    players = list(range(20))
    listed_otherwise = list(reversed(players))
    assert seat_round(players, seed=7) == seat_round(listed_otherwise, seed=7)


def test_the_first_round_is_drawn_at_random_not_in_the_order_listed():
    players = list(range(40))
    tables = seat_round(players, seed=5)
    assert [sorted(table) for table in tables] != [players[i : i + 4] for i in range(0, 40, 4)]


def test_the_same_seed_gives_the_same_seating_in_another_process():
    # String ids hash differently in every process; the seating must not follow the hashes.
    code = (
        "from tournaments.seating import seat_round\n"
        "players = [f'p{n}' for n in range(21)]\n"
        "history = [[players[i:i + 3] for i in range(0, 21, 3)]]\n"
        "print(seat_round(players, seed=9, history=history))\n"
        "print(seat_round(players, seed=9, standings=players[::-1], history=history))\n"
    )
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        result = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


# --- later rounds: Swiss order ----------------------------------------------------------------


def test_with_no_history_the_leaders_sit_together_at_table_one():
    tables = seat_round(CAST, seed=1, standings=CAST)
    assert [sorted(table) for table in tables] == [sorted(CAST[:4]), sorted(CAST[4:])]


def test_with_no_history_a_large_round_is_filled_in_standings_order():
    players = list(range(1000))
    standings = random.Random(1).sample(players, len(players))
    tables = seat_round(players, seed=1, standings=standings)
    assert [sorted(table) for table in tables] == [
        sorted(standings[i : i + 4]) for i in range(0, 1000, 4)
    ]


def test_two_leaders_who_have_met_are_split_and_the_next_three_sit_together():
    alice, bob, carol, dave, erin, *_ = CAST
    history = [[[alice, bob], [carol, "frank"], [dave, "grace"], [erin, "heidi"]]]
    tables = seat_round(CAST, seed=1, standings=CAST, history=history)
    assert repeat_meetings(tables, history) == 0
    assert any({carol, dave, erin} < set(table) for table in tables)


def test_tables_come_in_standings_order():
    players = list(range(40))
    standings, history = played_history(players, 3)
    tables = seat_round(players, seed=1, standings=standings, history=history)
    place = {player: i for i, player in enumerate(standings)}
    best_at_each = [min(place[player] for player in table) for table in tables]
    assert best_at_each == sorted(best_at_each)
    assert best_at_each[0] == 0


# --- later rounds: no repeat meetings ---------------------------------------------------------


def small_cases():
    rng = random.Random(2024)
    cases = []
    for count in range(3, 13):
        for table_size in (4, 3, 2):
            # 12 players have up to 15,400 seatings to go through: fewer cases there.
            for _ in range(5 if count <= 10 else 2):
                players = [f"p{n:02}" for n in range(count)]
                rounds = rng.randint(1, 5)
                # Dropped players (x..) appear in history only; some players are late entries.
                veterans = rng.sample(players, rng.randint(max(1, count - 3), count))
                dropped = [f"x{n}" for n in range(rng.randint(0, 2))]
                history = [random_round(rng, veterans + dropped) for _ in range(rounds)]
                standings = rng.sample(players, count)
                cases.append((players, table_size, standings, history))
    return cases


@pytest.mark.parametrize(("players", "table_size", "standings", "history"), small_cases())
def test_small_rounds_get_the_best_seating_there_is(players, table_size, standings, history):
    tables = seat_round(players, table_size, seed=1, standings=standings, history=history)
    assert seated_once(tables, players)
    assert sizes_of(tables) == table_sizes(len(players), table_size)
    met = meetings(history)
    every = [
        (
            sum(met[frozenset(pair)] for table in seating for pair in pairs(table)),
            distance(seating, standings),
        )
        for seating in seatings(standings, table_sizes(len(players), table_size))
    ]
    fewest = min(repeats for repeats, _ in every)
    # Whenever a seating without repeats exists, there are none; else as few as can be.
    assert repeat_meetings(tables, history) == fewest
    # And among those, players as close in the standings as can be.
    closest = min(spread for repeats, spread in every if repeats == fewest)
    assert distance(tables, standings) == closest


def test_players_who_have_all_met_get_the_fewest_repeats_possible_and_quickly():
    players = list(range(9))
    history = [[list(pair)] for pair in itertools.combinations(players, 2)]
    history.append([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    start = time.perf_counter()
    tables = seat_round(players, seed=1, standings=players, history=history)
    assert time.perf_counter() - start < 1.5
    fewest = min(repeat_meetings(seating, history) for seating in seatings(players, [3, 3, 3]))
    assert fewest == 9
    assert repeat_meetings(tables, history) == fewest


def test_a_large_round_where_everyone_has_met_still_finishes_in_time():
    players = list(range(200))
    history = [[list(pair) for pair in itertools.combinations(players, 2)]]
    start = time.perf_counter()
    tables = seat_round(players, seed=1, standings=players, history=history)
    assert time.perf_counter() - start < 2.5
    assert seated_once(tables, players)
    assert sizes_of(tables) == table_sizes(200, 4)


def test_a_tiny_time_budget_still_gives_a_valid_seating():
    players = list(range(300))
    standings, history = played_history(players, 2)
    history.append([list(pair) for pair in itertools.combinations(players[:60], 2)])
    start = time.perf_counter()
    tables = seat_round(players, seed=1, standings=standings, history=history, time_budget=0.01)
    assert time.perf_counter() - start < 1.0
    assert seated_once(tables, players)
    assert sizes_of(tables) == table_sizes(300, 4)


def test_a_field_of_400_avoids_every_repeat_after_six_rounds():
    players = list(range(400))
    standings, history = played_history(players, 6, seed=4)
    swiss = [standings[i : i + 4] for i in range(0, 400, 4)]
    assert repeat_meetings(swiss, history) > 0
    start = time.perf_counter()
    tables = seat_round(players, seed=1, standings=standings, history=history)
    assert time.perf_counter() - start < 2.0
    assert repeat_meetings(tables, history) == 0


# --- dropped players and late entries ---------------------------------------------------------


def test_players_who_dropped_out_may_appear_in_history():
    alice, bob, carol, dave, erin, frank, *_ = CAST
    history = [[[alice, bob, "zoe", "yuri"], [carol, dave, "zoe"]], [["yuri", erin, frank]]]
    tables = seat_round(CAST[:6], seed=1, standings=CAST[:6], history=history)
    assert seated_once(tables, CAST[:6])
    assert repeat_meetings(tables, history) == 0


def test_late_entries_are_seated_with_everyone_else():
    history = [[CAST[:2], CAST[2:4]]]
    tables = seat_round(CAST, seed=1, standings=CAST[::-1], history=history)
    assert seated_once(tables, CAST)
    assert repeat_meetings(tables, history) == 0


# --- who leads first --------------------------------------------------------------------------


def test_the_player_who_has_led_least_often_sits_first():
    alice, bob, carol, dave = CAST[:4]
    history = [[[alice, bob, carol, dave]], [[bob, alice, dave, carol]], [[carol, dave]]]
    tables = seat_round([alice, bob, carol, dave], seed=1, standings=[alice, bob, carol, dave])
    assert tables == [[alice, bob, carol, dave]]
    tables = seat_round(
        [alice, bob, carol, dave], seed=1, standings=[alice, bob, carol, dave], history=history
    )
    # dave never led; alice, bob and carol led once each, in standings order after him.
    assert tables == [[dave, alice, bob, carol]]


def test_everyone_leads_first_in_turn_at_a_table_that_keeps_meeting():
    players = CAST[:4]
    history: list = []
    leaders = []
    for number in range(4):
        tables = seat_round(players, seed=number, standings=players, history=history)
        leaders.append(tables[0][0])
        history.append(tables)
    assert sorted(leaders) == sorted(players)


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [[], ["alice"]])
def test_fewer_than_two_players_cannot_be_seated(players):
    with pytest.raises(ValueError, match="at least 2 players are needed"):
        seat_round(players, seed=1)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="players listed more than once: 'bob'"):
        seat_round(["alice", "bob", "carol", "bob"], seed=1)


def test_standings_missing_a_player_are_refused():
    with pytest.raises(ValueError, match=r"standings must list exactly .* missing: 'dave'"):
        seat_round(CAST[:4], seed=1, standings=CAST[:3])


def test_standings_naming_someone_not_playing_are_refused():
    with pytest.raises(ValueError, match="not being seated: 'erin'"):
        seat_round(CAST[:4], seed=1, standings=CAST[:5])


def test_standings_naming_a_player_twice_are_refused():
    with pytest.raises(ValueError, match="standings list players more than once: 'alice'"):
        seat_round(CAST[:4], seed=1, standings=["alice", "bob", "carol", "alice"])


# --- repeat_meetings ---------------------------------------------------------------------------


def test_repeat_meetings_counts_every_earlier_meeting():
    alice, bob, carol, dave = CAST[:4]
    history = [[[alice, bob, carol]], [[alice, bob]], [[carol, dave]]]
    assert repeat_meetings([[alice, bob], [carol]], history) == 2
    assert repeat_meetings([[alice, bob, carol, dave]], history) == 2 + 1 + 1 + 1
    assert repeat_meetings([[alice, dave], [bob, carol]], history) == 1


# --- properties -------------------------------------------------------------------------------


@st.composite
def rounds_to_seat(draw, counts):
    count = draw(counts)
    table_size = draw(st.sampled_from([4, 3, 2]))
    rng = draw(st.randoms(use_true_random=False))
    players = [f"p{n}" for n in range(count)]
    if draw(st.booleans()):
        standings, history = played_history(
            players, draw(st.integers(0, 3)), table_size, draw(st.integers(0, 99))
        )
        standings = standings or rng.sample(players, count)
    else:
        rounds = draw(st.integers(0, 6))
        history = [random_round(rng, players) for _ in range(rounds)]
        standings = rng.sample(players, count)
    # A few drop out and a few enter late.
    dropped = rng.sample(players, min(count - 3, draw(st.integers(0, 3))))
    players = [player for player in players if player not in dropped]
    players += [f"late{n}" for n in range(draw(st.integers(0, 3)))]
    standings = [player for player in standings if player not in dropped]
    standings += players[len(standings) :]
    if not history:
        standings = draw(st.sampled_from([None, standings]))
    return players, table_size, standings, history


def check_seating(players, table_size, standings, history):
    tables = seat_round(players, table_size, 11, standings, history, time_budget=None)
    assert seated_once(tables, players)
    assert sizes_of(tables) == table_sizes(len(players), table_size)
    again = seat_round(players, table_size, 11, standings, history, time_budget=None)
    assert again == tables


@SMALL_ROUNDS
@given(rounds_to_seat(st.integers(3, 24)))
def test_small_random_rounds_seat_everyone_once_the_same_way_each_time(round_to_seat):
    check_seating(*round_to_seat)


@LARGE_ROUNDS
@given(rounds_to_seat(st.integers(25, 200)))
def test_large_random_rounds_seat_everyone_once_the_same_way_each_time(round_to_seat):
    check_seating(*round_to_seat)
