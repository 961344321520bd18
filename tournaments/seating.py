"""Seating a tournament round at tables of 3–4: Swiss by standings, avoiding repeat meetings."""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections import Counter, deque
from collections.abc import Hashable, Iterable, Iterator, Sequence

# Pure Python, no Django: services.seat_next_round loads players, standings and history from
# the database, calls seat_round and saves the tables it returns.
#
# What a good seating is. Players are numbered by their place in the standings (in round 1,
# by a shuffle drawn from the seed). A seating costs
#
#     weight × repeats + distance
#
# where `repeats` counts pairs at one table who sat together before (a pair who met twice
# counts 2) and `distance` sums |place_a − place_b| over every pair at a table. Filling the
# tables in standings order (the Swiss fill) gives the smallest distance; `weight` is one
# more than the largest distance any seating of these tables can have, so one repeat always
# costs more than any standings arrangement: fewer repeats first, then closer standings.
#
# How it is found. Start from the Swiss fill, then descend: swap two players of different
# tables, or move one from a table of k+1 to a table of k (the sizes stay the same), taking
# each table's best improving exchange with tables nearby in the fill, and with every table
# when someone there meets again. If repeats remain, simulated annealing (random swaps and
# moves from random.Random(seed)) looks further, and a second descent polishes the best
# seating it found. Up to EXACT_LIMIT players a branch and bound then tries every seating
# left that could beat it, so a small round gets the best seating there is. Work is capped
# by counts, so the result depends only on the input and the seed; the time budget is a
# safety net for a slow or busy machine.

TABLE_SIZES = (2, 3, 4)
# Up to 12 players the branch and bound always finishes inside its node cap (the worst,
# everyone having met everyone, takes about 70,000 nodes); at 13 or 14 it usually does
# unless the history is very dense, and then the annealed seating stands.
EXACT_LIMIT = 14
EXACT_NODES = 150_000
# Tables this far apart in the Swiss fill are compared when no one at either meets again.
WINDOW = 4
# Annealing steps (a few µs each), and the temperatures it starts and ends at, in repeats.
ANNEAL_STEPS = 100_000
ANNEAL_STEPS_PER_PLAYER = 1_000
HOT = 1.0
COLD = 0.02
# While annealing, a repeat weighs as much as SOFT × (number of players) places of distance:
# players may go far from their standings to stop meeting again, but not for nothing.
SOFT = 10
# Pair costs one descent may work out, per player and in all (about 0.5 µs each).
WORK_PER_PLAYER = 3_000
WORK_LIMIT = 1_500_000
DEFAULT_TIME_BUDGET = 1.5


def table_sizes(count: int, table_size: int = 4) -> list[int]:
    """The sizes of the tables for `count` players, largest first.

    With 4 or 3: as few tables of 2 as possible (only 2 and 5 players need one), then as
    many tables of the chosen size as possible, the rest of the other size (3 or 4).
    With 2: every table seats two, and one seats three when the count is odd.
    """
    if table_size not in TABLE_SIZES:
        raise ValueError(f"the table size must be 2, 3 or 4, not {table_size!r}")
    if count < 2:
        raise ValueError(f"a round needs at least 2 players, not {count}")
    if table_size == 2:
        sizes = [2] * (count // 2)
        if count % 2:
            sizes[0] = 3
        return sizes
    other = 7 - table_size  # 3 for tables of 4, 4 for tables of 3
    for pairs in range(count // 2 + 1):
        rest = count - 2 * pairs
        for chosen in range(rest // table_size, -1, -1):
            left = rest - chosen * table_size
            if left % other == 0:
                sizes = [table_size] * chosen + [other] * (left // other) + [2] * pairs
                return sorted(sizes, reverse=True)
    raise AssertionError("unreachable: an odd count has a 3 plus pairs, an even one pairs")


def repeat_meetings(
    tables: Iterable[Sequence[Hashable]], history: Iterable[Iterable[Sequence[Hashable]]]
) -> int:
    """How many pairs sit together again: each earlier meeting of a pair at a table counts."""
    met = _meetings(history)
    return sum(met[pair] for pair in _pairs(tables))


def repeated_pairs[P: Hashable](
    tables: Iterable[Sequence[P]], history: Iterable[Iterable[Sequence[P]]]
) -> list[tuple[P, P]]:
    """The pairs at these tables who sat together before, each once, in seating order."""
    met = _meetings(history)
    return [
        tuple(pair) for pair in dict.fromkeys(_pairs(tables, ordered=True)) if met[frozenset(pair)]
    ]


def _meetings(history: Iterable[Iterable[Sequence[Hashable]]]) -> Counter[frozenset[Hashable]]:
    met: Counter[frozenset[Hashable]] = Counter()
    for earlier in history:
        met.update(_pairs(earlier))
    return met


def _pairs(tables: Iterable[Sequence[Hashable]], ordered: bool = False) -> Iterator:
    for table in tables:
        seated = list(dict.fromkeys(table))
        for i, a in enumerate(seated):
            for b in seated[i + 1 :]:
                yield (a, b) if ordered else frozenset((a, b))


def seat_round[P: Hashable](
    players: Sequence[P],
    table_size: int = 4,
    seed: int | str = 0,
    standings: Sequence[P] | None = None,
    history: Iterable[Iterable[Sequence[P]]] = (),
    *,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
) -> list[list[P]]:
    """Seat one round: a list of tables, each a list of players in seat order.

    `standings` lists the same players best first (None in round 1, which is drawn at
    random from `seed`); `history` holds the earlier rounds as lists of tables, and may name
    players who have dropped out and miss late entries. Tables come best first: table 1 is
    the one where the best-placed player sits. At each table the player who has led first
    (sat in the first seat) least often sits first, ties going to the better-placed player
    (in round 1, to the one drawn earlier), and so on for the other seats.
    The same input and seed always give the same seating, unless `time_budget` seconds run
    out first (None: no time limit, the search is still bounded by its work caps).
    """
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    players = list(players)
    if len(players) < 2:
        raise ValueError(f"at least 2 players are needed to seat a round, not {len(players)}")
    repeated = [player for player, times in Counter(players).items() if times > 1]
    if repeated:
        raise ValueError(f"players listed more than once: {_listing(repeated)}")
    sizes = table_sizes(len(players), table_size)
    rng = random.Random(seed)
    if standings is None:
        # Sorted first, so that the draw depends on the seed, not on the order of `players`.
        order = sorted(players)
        rng.shuffle(order)
    else:
        order = list(standings)
        _check_standings(players, order)

    place = {player: i for i, player in enumerate(order)}
    met: list[dict[int, int]] = [{} for _ in order]
    led = [0] * len(order)
    for earlier in history:
        for table in earlier:
            seated = [place[p] for p in dict.fromkeys(table) if p in place]
            if table and table[0] in place:
                led[place[table[0]]] += 1
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    met[a][b] = met[a].get(b, 0) + 1
                    met[b][a] = met[b].get(a, 0) + 1

    search = _Search(sizes, met, rng, deadline)
    tables = search.run()
    tables.sort(key=min)
    return [[order[i] for i in sorted(table, key=lambda i: (led[i], i))] for table in tables]


def _listing(players: Iterable[Hashable]) -> str:
    return ", ".join(repr(player) for player in players)


def _check_standings(players: list, standings: list) -> None:
    repeated = [player for player, times in Counter(standings).items() if times > 1]
    if repeated:
        raise ValueError(f"the standings list players more than once: {_listing(repeated)}")
    seated = set(players)
    ranked = set(standings)
    if seated != ranked:
        missing = _listing(sorted(seated - ranked))
        extra = _listing(sorted(ranked - seated))
        raise ValueError(
            "the standings must list exactly the players being seated"
            + (f"; missing: {missing}" if missing else "")
            + (f"; not being seated: {extra}" if extra else "")
        )


class _OutOfWork(Exception):
    """The branch and bound has used its node cap or the time budget."""


class _Search:
    """The seating search over players 0..n-1, numbered by their place in the standings."""

    def __init__(
        self,
        sizes: list[int],
        met: list[dict[int, int]],
        rng: random.Random,
        deadline: float | None,
    ) -> None:
        self.sizes = sizes
        self.met = met
        self.rng = rng
        self.deadline = deadline
        self.count = len(met)
        # No pair is further apart than count - 1 places, so this beats any distance.
        self.weight = (self.count - 1) * sum(k * (k - 1) // 2 for k in sizes) + 1
        # Pair costs worked out by the local search, and how many each descent may add.
        self.work = 0
        self.work_per_descent = min(WORK_PER_PLAYER * self.count, WORK_LIMIT)
        self.tables: list[list[int]] = []
        self.table_of: list[int] = [0] * self.count
        # A player's share of their table's cost: the cost of their pairs there.
        self.share: list[int] = [0] * self.count
        self.repeats: list[int] = []
        self.table_cost: list[int] = []
        self.total = 0

    def run(self) -> list[list[int]]:
        self.tables = []
        start = 0
        for size in self.sizes:
            self.tables.append(list(range(start, start + size)))
            start += size
        self._reset()
        self._descend(range(len(self.tables)))
        if sum(self.repeats) and len(self.tables) > 1:
            self._anneal()
        if self.count <= EXACT_LIMIT:
            self._branch_and_bound()
        return [list(table) for table in self.tables]

    # --- costs ----------------------------------------------------------------------------

    def _pair_cost(self, a: int, b: int) -> int:
        return self.weight * self.met[a].get(b, 0) + abs(a - b)

    def _reset(self) -> None:
        """Rebuild the costs and counts from self.tables."""
        self.repeats = [0] * len(self.tables)
        self.table_cost = [0] * len(self.tables)
        self.total = 0
        for number in range(len(self.tables)):
            self._rescore(number)

    def _rescore(self, number: int) -> None:
        table = self.tables[number]
        met = self.met
        repeats = cost = 0
        for p in table:
            self.table_of[p] = number
            self.share[p] = sum(self._pair_cost(p, q) for q in table if q != p)
            repeats += sum(met[p].get(q, 0) for q in table if q != p)
            cost += self.share[p]
        self.work += len(table) * len(table)
        self.repeats[number] = repeats // 2
        self.total += cost // 2 - self.table_cost[number]
        self.table_cost[number] = cost // 2

    # --- local search ---------------------------------------------------------------------

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def _best_exchange(self, a: int, b: int) -> tuple[int, int, int]:
        """The best swap or move between tables a and b: (change in cost, i, j).

        i and j are seats at a and b; j = -1 moves a's player i to b, i = -1 moves b's
        player j to a. A change of 0 means nothing helps.
        """
        first, second = self.tables[a], self.tables[b]
        weight, met, share = self.weight, self.met, self.share
        cross = []
        for p in first:
            met_p = met[p]
            cross.append([weight * met_p.get(q, 0) + abs(p - q) for q in second])
        self.work += len(first) * len(second)
        rows = [sum(row) for row in cross]
        columns = [sum(column) for column in zip(*cross, strict=True)]
        best, best_i, best_j = 0, -1, -1
        for i, p in enumerate(first):
            # Swapping p and q: q joins a without p, p joins b without q.
            base = rows[i] - share[p]
            row = cross[i]
            for j, q in enumerate(second):
                change = base + columns[j] - share[q] - 2 * row[j]
                if change < best:
                    best, best_i, best_j = change, i, j
        if len(first) == len(second) + 1:
            for i, p in enumerate(first):
                change = rows[i] - share[p]
                if change < best:
                    best, best_i, best_j = change, i, -1
        elif len(second) == len(first) + 1:
            for j, q in enumerate(second):
                change = columns[j] - share[q]
                if change < best:
                    best, best_i, best_j = change, -1, j
        return best, best_i, best_j

    def _exchange(self, a: int, b: int, i: int, j: int) -> None:
        first, second = self.tables[a], self.tables[b]
        if j == -1:
            second.append(first.pop(i))
        elif i == -1:
            first.append(second.pop(j))
        else:
            first[i], second[j] = second[j], first[i]
        self._rescore(a)
        self._rescore(b)

    def _improve(self, a: int) -> int | None:
        """Make the best improving exchange of table a with another; return that table."""
        tables = len(self.tables)
        near = [b for b in range(max(0, a - WINDOW), min(tables, a + WINDOW + 1)) if b != a]
        # Someone who meets again may have to go far; one who does not only moves nearby.
        for candidates in (near, range(tables)) if self.repeats[a] else (near,):
            best, best_b, best_i, best_j = 0, -1, -1, -1
            for b in candidates:
                if b == a:
                    continue
                change, i, j = self._best_exchange(a, b)
                if change < best:
                    best, best_b, best_i, best_j = change, b, i, j
            if best < 0:
                self._exchange(a, best_b, best_i, best_j)
                return best_b
        return None

    def _descend(self, tables: Iterable[int]) -> None:
        """Improve until no table in reach of the changed ones has a better exchange."""
        queue = deque(tables)
        queued = set(queue)
        limit = self.work + self.work_per_descent
        while queue and self.work < limit and not self._out_of_time():
            a = queue.popleft()
            queued.discard(a)
            b = self._improve(a)
            if b is not None:
                for number in (a, b):
                    if number not in queued:
                        queue.append(number)
                        queued.add(number)

    def _anneal(self) -> None:
        """Simulated annealing on repeats, then a descent from the best seating it saw.

        A step swaps a random player with one at another table (nearby half the time), or
        moves them there when the sizes allow it; it stops early once nobody meets again.
        """
        rng, met, tables, table_of = self.rng, self.met, self.tables, self.table_of
        count, number_of_tables = self.count, len(tables)
        soft = count * SOFT
        repeats = sum(self.repeats)
        distance = self.total - self.weight * repeats
        best = (repeats, distance)
        best_tables = [list(table) for table in tables]
        steps = min(ANNEAL_STEPS, ANNEAL_STEPS_PER_PLAYER * count)
        temperature = soft * HOT
        cooling = (COLD / HOT) ** (1 / steps)
        random_number, randrange, exp = rng.random, rng.randrange, math.exp
        for step in range(steps):
            if step % 1024 == 0 and (not best[0] or self._out_of_time()):
                break
            temperature *= cooling
            p = randrange(count)
            a = table_of[p]
            if random_number() < 0.5:
                b = randrange(max(0, a - 2 * WINDOW), min(number_of_tables, a + 2 * WINDOW + 1))
            else:
                b = randrange(number_of_tables)
            if b == a:
                continue
            first, second = tables[a], tables[b]
            met_p = met[p]
            j = randrange(len(second) + (len(first) == len(second) + 1))
            if j == len(second):
                # p moves to b: p leaves a's other players and meets all of b's.
                gained = sum(met_p.get(x, 0) for x in second)
                lost = sum(met_p.get(x, 0) for x in first if x != p)
                change_repeats = gained - lost
                change_distance = sum(abs(p - x) for x in second) - sum(
                    abs(p - x) for x in first if x != p
                )
            else:
                q = second[j]
                met_q = met[q]
                change_repeats = change_distance = 0
                for x in first:
                    if x != p:
                        change_repeats += met_q.get(x, 0) - met_p.get(x, 0)
                        change_distance += abs(q - x) - abs(p - x)
                for y in second:
                    if y != q:
                        change_repeats += met_p.get(y, 0) - met_q.get(y, 0)
                        change_distance += abs(p - y) - abs(q - y)
            change = soft * change_repeats + change_distance
            if change > 0 and random_number() >= exp(-change / temperature):
                continue
            if j == len(second):
                first.remove(p)
                second.append(p)
                table_of[p] = b
            else:
                i = first.index(p)
                first[i], second[j] = q, p
                table_of[p], table_of[q] = b, a
            repeats += change_repeats
            distance += change_distance
            # Only a fall in repeats copies the seating: there are at most `repeats` of them.
            if repeats < best[0]:
                best = (repeats, distance)
                best_tables = [list(table) for table in tables]
        if (repeats, distance) > best:
            self.tables = best_tables
        self._reset()
        self._descend(range(len(self.tables)))

    # --- exact search for small rounds ------------------------------------------------------

    def _branch_and_bound(self) -> None:
        """Try every seating, pruning partial ones that already cost more than the best."""
        count = self.count
        pair = [[self._pair_cost(a, b) for b in range(count)] for a in range(count)]
        left = Counter(self.sizes)
        # Distinct places are at least 1 apart, so k players cost at least k(k²-1)/6.
        least = {k: k * (k * k - 1) // 6 for k in left}
        seated = [False] * count
        tables: list[list[int]] = []
        best_cost, best_tables = self.total, None
        nodes = 0

        def floor() -> int:
            return sum(least[k] * n for k, n in left.items())

        def open_table(cost: int) -> None:
            nonlocal best_cost, best_tables
            first = next((p for p in range(count) if not seated[p]), None)
            if first is None:
                if cost < best_cost:
                    best_cost, best_tables = cost, [list(table) for table in tables]
                return
            seated[first] = True
            for size in sorted(left, reverse=True):
                if not left[size]:
                    continue
                left[size] -= 1
                tables.append([first])
                fill(size - 1, first + 1, cost, cost + floor())
                tables.pop()
                left[size] += 1
            seated[first] = False

        def fill(need: int, start: int, cost: int, bound: int) -> None:
            nonlocal nodes
            if not need:
                open_table(cost)
                return
            table = tables[-1]
            for p in range(start, count):
                if seated[p]:
                    continue
                nodes += 1
                if nodes % 1024 == 0 and (nodes > EXACT_NODES or self._out_of_time()):
                    raise _OutOfWork
                added = sum(pair[p][q] for q in table)
                if bound + added >= best_cost:
                    continue
                seated[p] = True
                table.append(p)
                fill(need - 1, p + 1, cost + added, bound + added)
                table.pop()
                seated[p] = False

        # Out of nodes or time, the best seating found so far stands.
        with contextlib.suppress(_OutOfWork):
            open_table(0)
        if best_tables is not None:
            self.tables = best_tables
            self._reset()
