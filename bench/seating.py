"""`seat_round` for 1,000 players after 9 rounds: the time, and the repeat meetings it leaves.

Pure Python, no database. Rounds 1–9 are seated by `seat_round` itself, with results made up
between rounds (a random finishing order at each table, points 3-2-1-0) so that the standings
move the way a Swiss tournament's do; round 10 is then timed.
"""

from __future__ import annotations

import random
import statistics

from bench.common import Check, Options, Section, log, markdown_table, ms, time_calls
from tournaments.seating import repeat_meetings, seat_round, table_sizes

NAME = "seating"
TITLE = "Seating a 1,000-player round after 9 rounds (`seat_round`)"
PLAYERS = 1000
ROUNDS = 9
TABLE_SIZE = 4
RUNS = 5
WARMUP = 1
TARGET = 2.0  # seconds for one seating
SEED = 2024


def play(players: list[int], rounds: int) -> tuple[list[int], list[list[list[int]]]]:
    """Seat `rounds` rounds with made-up results; the standings and history after them."""
    rng = random.Random(SEED)
    points = dict.fromkeys(players, 0)
    history: list[list[list[int]]] = []
    standings = None
    for number in range(1, rounds + 1):
        tables = seat_round(players, TABLE_SIZE, seed=number, standings=standings, history=history)
        history.append(tables)
        for table in tables:
            finish = list(table)
            rng.shuffle(finish)
            for score, player in enumerate(reversed(finish)):
                points[player] += score
        # Ties in points are drawn, as a tournament's tie-breaks would split them.
        tie_break = {player: rng.random() for player in players}
        standings = sorted(players, key=lambda player: (-points[player], tie_break[player]))
    assert standings is not None
    return standings, history


def spread(tables: list[list[int]], standings: list[int]) -> float:
    """The mean gap between the best and the worst standings place at a table."""
    place = {player: i for i, player in enumerate(standings)}
    return statistics.mean(
        max(place[p] for p in table) - min(place[p] for p in table) for table in tables
    )


def run(options: Options) -> Section:
    players = list(range(1, PLAYERS + 1))
    log(f"[{NAME}] seating rounds 1–{ROUNDS} of {PLAYERS} players for the history")
    standings, history = play(players, ROUNDS)
    seed = ROUNDS + 1
    sizes = table_sizes(PLAYERS, TABLE_SIZE)
    swiss: list[list[int]] = []
    for size in sizes:
        start = sum(len(table) for table in swiss)
        swiss.append(standings[start : start + size])

    seatings = []

    def seat() -> None:
        seatings.append(seat_round(players, TABLE_SIZE, seed, standings, history))

    log(f"[{NAME}] seat_round: round {seed}, {RUNS} timed runs")
    timings = time_calls(seat, RUNS, warmup=WARMUP)
    tables = seatings[-1]
    repeats = repeat_meetings(tables, history)
    swiss_repeats = repeat_meetings(swiss, history)
    seated = sorted(p for table in tables for p in table) == players
    sizes_ok = sorted((len(table) for table in tables), reverse=True) == sizes
    same = all(seating == tables for seating in seatings)
    log(
        f"[{NAME}] median {ms(timings.median)}, best {ms(timings.best)}, "
        f"worst {ms(timings.worst)}; {repeats} repeat meetings (Swiss fill: {swiss_repeats})"
    )
    checks = [
        Check(
            f"seats {PLAYERS:,} players after {ROUNDS} rounds in under {TARGET:.0f} s (median)",
            ms(timings.median),
            timings.median < TARGET,
        ),
        Check(
            f"repeat meetings left (a plain Swiss fill would leave {swiss_repeats})",
            str(repeats),
            repeats == 0,
        ),
        Check(
            "everyone seated once, at tables of 4, the same seating every run",
            f"seated={seated}, sizes={sizes_ok}, same={same}",
            seated and sizes_ok and same,
        ),
    ]
    for check in checks:
        log(f"[{NAME}] {check.what}: {check.measured} -> {'ok' if check.ok else 'FAILED'}")

    table = markdown_table(
        ["Runs (N)", "Median", "Best", "Worst", "Repeats left", "Swiss fill's repeats"],
        [
            [
                timings.runs,
                ms(timings.median),
                ms(timings.best),
                ms(timings.worst),
                repeats,
                swiss_repeats,
            ]
        ],
    )
    markdown = f"""\
`tournaments.seating.seat_round(players, {TABLE_SIZE}, seed, standings, history)` for
{PLAYERS:,} players ({len(sizes)} tables of 4) in round {seed}, called in-process N = {RUNS}
times after {WARMUP} untimed warm-up call (`time.perf_counter` around each call, default
time budget of the search). The history is rounds 1–{ROUNDS} as `seat_round` seated them,
with made-up results between rounds (each table's finishing order drawn at random, 3-2-1-0
points, ties in points drawn), so players who met often stand close in the standings, where
a Swiss fill would seat them together again. Target: under {TARGET:.0f} s.

{table}

Filling the tables in standings order would seat {swiss_repeats} pairs who have met before;
`seat_round` leaves {repeats}. Avoiding them costs some standings order: the best and worst
player at a table are {spread(tables, standings):.1f} places apart on average, against
{spread(swiss, standings):.1f} for the Swiss fill."""
    return Section(NAME, TITLE, markdown, checks)
