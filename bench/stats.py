"""Player statistics: SQL queries of a profile, the leaderboard and a head-to-head page as the
history grows; a profile's requests per second with 2,000 finished matches next to the bare
30-row view; `manage.py ratings --rebuild` over 100,000 four-player matches.

The histories are written in bulk (matches, seats with their places and totals, a few rounds
each), as an import would leave them, rather than through the services one round at a time,
which would take hours at these sizes; the ratings are then built by the rebuild itself.
"""

from __future__ import annotations

import random
import statistics
import time

from bench import harness
from bench.common import Check, Options, Section, log, markdown_table

NAME = "stats"
TITLE = "Player statistics: profiles, the leaderboard, head-to-head, the ratings rebuild"
BARE_PATH = "/bench/bare/"
SIZES = (50, 500, 2000)  # finished matches of the profiled player
REBUILD_MATCHES = 100_000
PROFILE_TARGET = 0.5
REBUILD_TARGET = 60.0  # seconds
PEOPLE = 40


def run(options: Options) -> Section:
    harness.setup_django()
    from django.core.management import call_command

    counts = {}
    profiled = None
    made = 0
    for size in SIZES:
        profiled = _history(size - made, start=made, profiled=profiled)
        made = size
        call_command("ratings", "--rebuild", stdout=_Null())
        counts[size] = _count_queries(profiled)
        log(f"[{NAME}] {size} matches: queries {counts[size]}")
    rates = _throughput(profiled, options)
    ratio = rates["profile"] / rates["bare"]

    _history(REBUILD_MATCHES - made, start=made, profiled=profiled, seats=4)
    started = time.perf_counter()
    call_command("ratings", "--rebuild", stdout=_Null())
    rebuild = time.perf_counter() - started
    log(f"[{NAME}] rebuilt {REBUILD_MATCHES} matches in {rebuild:.1f} s")

    checks = [
        Check(
            f"{page}: queries do not grow with the matches",
            " / ".join(str(counts[size][page]) for size in SIZES),
            len({counts[size][page] for size in SIZES}) == 1,
        )
        for page in ("profile", "profile (cached)", "leaderboard", "head-to-head")
    ]
    checks.append(
        Check(
            f"profile with {SIZES[-1]:,} matches ÷ bare 30-row view, req/s, at least "
            f"{PROFILE_TARGET}",
            f"{ratio:.2f}",
            ratio >= PROFILE_TARGET,
        )
    )
    checks.append(
        Check(
            f"`ratings --rebuild` over {REBUILD_MATCHES:,} four-player matches, under "
            f"{REBUILD_TARGET:.0f} s",
            f"{rebuild:.1f} s",
            rebuild < REBUILD_TARGET,
        )
    )
    table = markdown_table(
        ["Finished matches", "Profile", "Profile (cached)", "Leaderboard", "Head-to-head"],
        [[size, *(counts[size][page] for page in counts[size])] for size in SIZES],
    )
    loads = markdown_table(
        ["What", "Median pass", "÷ bare"],
        [
            ["Bare 30-row view (`/bench/bare/`)", f"**{rates['bare']:.0f}** req/s", "1.00"],
            [
                f"A profile with {SIZES[-1]:,} matches (cached, as most views are)",
                f"**{rates['profile']:.0f}** req/s",
                f"{ratio:.2f}",
            ],
            [
                f"A profile with {SIZES[-1]:,} matches, every view a first view",
                f"**{rates['profile-uncached']:.0f}** req/s",
                f"{rates['profile-uncached'] / rates['bare']:.2f}",
            ],
        ],
    )
    markdown = f"""\
Queries counted with `CaptureQueriesContext` around a test-client GET (a first view, then the
same page again from the cache); the profiled player has {SIZES[0]}, {SIZES[1]} and
{SIZES[2]:,} finished matches at tables of 2 to 4 among {PEOPLE} people.

{table}

gunicorn, 2 sync workers, {options.threads} client threads, SQLite, DEBUG off; interleaved passes
of {options.requests // options.passes} requests, the median pass shown. A profile is cached
until a finished result changes anywhere; the uncached figure empties the cache every time.

{loads}

`manage.py ratings --rebuild` over {REBUILD_MATCHES:,} finished four-player matches of one
preset (openskill Plackett–Luce, each match's win chances too): **{rebuild:.1f} s**,
{rebuild / REBUILD_MATCHES * 1000:.2f} ms a match, reading the places and writing
{4 * REBUILD_MATCHES:,} rating changes.
"""
    return Section(NAME, TITLE, markdown, checks)


class _Null:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


def _history(count: int, *, start: int, profiled, seats: int | None = None):
    """`count` finished classic matches written in bulk, the profiled player at each (when
    `seats` is None: tables of 2 to 4) or at none (the rebuild's filler, tables of `seats`)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from cards101.rules import PRESETS
    from games.models import Entry, Match, Player, Round, Seat

    user, _ = get_user_model().objects.get_or_create(username="bench-stats")
    people = list(Player.objects.filter(name__startswith="Bench person").order_by("pk"))
    if not people:
        people = Player.objects.bulk_create(
            Player(name=f"Bench person {n}", added_by=user) for n in range(PEOPLE)
        )
    profiled = profiled or people[0]
    rng = random.Random(start)
    options = PRESETS["classic"].as_dict()
    began = timezone.now() - datetime.timedelta(days=400)
    batch = 5000
    for first in range(0, count, batch):
        size = min(batch, count - first)
        with transaction.atomic():
            matches = Match.objects.bulk_create(
                Match(
                    kind=Match.Kind.CASUAL,
                    preset="classic",
                    options=options,
                    status=Match.Status.FINISHED,
                    created_by=user,
                    finished_at=began + datetime.timedelta(minutes=start + first + n),
                )
                for n in range(size)
            )
            seat_rows, tables = [], []
            for match in matches:
                if seats is None:
                    table = [profiled, *rng.sample(people[1:], rng.choice((1, 2, 2, 3)))]
                else:
                    table = rng.sample(people[1:], seats)
                rng.shuffle(table)
                places = list(range(1, len(table) + 1))
                rng.shuffle(places)
                tables.append((match, table, places))
                seat_rows += [
                    Seat(
                        match=match,
                        player=player,
                        position=position,
                        place=place,
                        total=rng.randrange(-40, 150),
                        lost_in_round=None if place == 1 else rng.randrange(3, 9),
                    )
                    for position, (player, place) in enumerate(zip(table, places, strict=True))
                ]
            Seat.objects.bulk_create(seat_rows, batch_size=2000)
            if seats is None:
                _rounds(tables, rng, Round, Entry, Seat)
    return profiled


def _rounds(tables, rng, Round, Entry, Seat) -> None:
    """A few rounds a match, for the figures that count rounds: the winner goes out in each."""
    rounds = Round.objects.bulk_create(
        [Round(match=match, number=n) for match, _table, _places in tables for n in (1, 2, 3)],
        batch_size=2000,
    )
    by_match = {}
    for round_ in rounds:
        by_match.setdefault(round_.match_id, []).append(round_)
    seat_of = {
        (seat.match_id, seat.player_id): seat
        for seat in Seat.objects.filter(match__in=[match for match, _t, _p in tables])
    }
    entries = []
    for match, table, places in tables:
        for round_ in by_match[match.pk]:
            for player, place in zip(table, places, strict=True):
                out = place == 1
                entries.append(
                    Entry(
                        round=round_,
                        seat=seat_of[match.pk, player.pk],
                        kind=Entry.Kind.OUT if out else Entry.Kind.HAND,
                        cards=rng.choice(("QS", "QH", "7C"))
                        if out
                        else rng.choice(("AC", "QD QH", "KH 10S")),
                        score=-20 if out else rng.randrange(0, 30),
                        total=0,
                    )
                )
    Entry.objects.bulk_create(entries, batch_size=2000)


def _count_queries(profiled) -> dict[str, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Player

    other = (
        Player.objects.filter(seats__match__seats__player=profiled).exclude(pk=profiled.pk).first()
    )
    pages = {
        "profile": f"/players/{profiled.pk}/",
        "profile (cached)": f"/players/{profiled.pk}/",
        "leaderboard": "/players/?least=1",
        "head-to-head": f"/players/{profiled.pk}/vs/{other.pk}/",
    }
    from django.core.cache import cache

    cache.clear()
    counts = {}
    client = Client(HTTP_HOST=harness.HOST)
    for page, url in pages.items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url} answered {response.status_code}")
        counts[page] = len(captured.captured_queries)
    return counts


def _throughput(profiled, options: Options) -> dict[str, float]:
    path = f"/players/{profiled.pk}/"
    per_pass = max(1, options.requests // options.passes)
    rates: dict[str, list[float]] = {"bare": [], "profile": [], "profile-uncached": []}
    for extra, targets in (
        ({}, {"bare": BARE_PATH, "profile": path}),
        ({"BENCH_CACHE": "dummy"}, {"profile-uncached": path}),
    ):
        with harness.gunicorn(workers=2, ready_path=BARE_PATH, extra_env=extra) as server:
            for url in targets.values():
                harness.load(server.port, url, min(options.warmup, 50), options.threads, {})
            for number in range(1, options.passes + 1):
                for name, url in targets.items():
                    requests = per_pass if name != "profile-uncached" else max(1, per_pass // 10)
                    result = harness.load(server.port, url, requests, options.threads, {})
                    if not result.ok:
                        raise RuntimeError(f"{name}: {dict(result.statuses)} {server.log_tail()}")
                    rates[name].append(result.per_second)
                    log(
                        f"[{NAME}] pass {number}/{options.passes} {name:16} {result.requests} x "
                        f"GET {url}: {result.per_second:6.1f} req/s"
                    )
    return {name: statistics.median(values) for name, values in rates.items()}
