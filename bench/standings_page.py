"""The public tournament page and the projector: SQL queries per page, and requests per second
at club scale.

1. Tournaments of 8, 20 and 40 players over 1, 2 and 4 closed rounds, built through the
   services as a director would (every table played out: in one deal at a table of three, in
   two at a table of four, whose cards cannot hold three losing hands at once). The count must
   not grow with the players or the rounds.
2. A 120-player tournament in its 5th round (four closed, the fifth half played) under
   gunicorn: the public page and the projector next to the bare 30-row view (targets: at least
   0.5 of it each), and the page's unchanged refresh (htmx with the version it shows, answered
   204) next to the bare "ok" view (at least 0.8), in the same run and server.
"""

from __future__ import annotations

from bench import harness
from bench.common import Check, Options, Section, log, markdown_table

BARE_PATH = "/bench/bare/"
OK_PATH = "/bench/ok/"
CLUB = (120, 5)  # players, rounds
PAGE_TARGET = 0.5
POLL_TARGET = 0.8

NAME = "standings_page"
TITLE = "The tournament page with its standings (`GET /tournaments/<pk>/`)"
SIZES = ((8, 1), (8, 4), (20, 2), (40, 1), (40, 4))


def run(options: Options) -> Section:
    harness.setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for players, rounds in SIZES:
        pk, user = _tournament(players, rounds)
        for visitor in ("anonymous", "director"):
            client = Client(HTTP_HOST=harness.HOST)
            if visitor == "director":
                client.force_login(user)
            url = f"/tournaments/{pk}/"
            client.get(url)
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url)
            if response.status_code != 200 or response.content.count(b"<tr") < players:
                raise RuntimeError(f"unexpected tournament page for {players} players")
            count = counts[visitor, players, rounds] = len(captured.captured_queries)
            log(f"[{NAME}] {visitor:9} {players:3} players, {rounds} rounds: {count} queries")

    club_pk, club_version = _club_tournament()
    rates = _throughput(club_pk, club_version, options)

    checks = []
    for visitor in ("anonymous", "director"):
        numbers = [counts[visitor, p, r] for p, r in SIZES]
        text = " / ".join(map(str, numbers))
        checks.append(
            Check(
                f"{visitor}: queries do not grow with players or rounds",
                text,
                len(set(numbers)) == 1,
            )
        )
    page_ratio = rates["page"] / rates["bare"]
    projector_ratio = rates["projector"] / rates["bare"]
    poll_ratio = rates["poll"] / rates["ok"]
    checks += [
        Check(
            f"{CLUB[0]} players, round {CLUB[1]}: public page ÷ bare 30-row view, req/s, "
            f"at least {PAGE_TARGET}",
            f"{page_ratio:.2f}",
            page_ratio >= PAGE_TARGET,
        ),
        Check(
            f"{CLUB[0]} players, round {CLUB[1]}: projector ÷ bare 30-row view, req/s, "
            f"at least {PAGE_TARGET}",
            f"{projector_ratio:.2f}",
            projector_ratio >= PAGE_TARGET,
        ),
        Check(
            f"the page's unchanged refresh (204) ÷ bare 'ok' view, req/s, at least {POLL_TARGET}",
            f"{poll_ratio:.2f}",
            poll_ratio >= POLL_TARGET,
        ),
    ]
    rate_table = markdown_table(
        ["What", "Median pass", "÷ yardstick"],
        [
            ["Bare view, 30-row table (`/bench/bare/`)", f"**{rates['bare']:.0f}** req/s", "1.00"],
            [
                f"Public page, {CLUB[0]} players in round {CLUB[1]}",
                f"**{rates['page']:.0f}** req/s",
                f"{page_ratio:.2f}",
            ],
            [
                "Projector, the same tournament",
                f"**{rates['projector']:.0f}** req/s",
                f"{projector_ratio:.2f}",
            ],
            ["Bare view answering ok (`/bench/ok/`)", f"**{rates['ok']:.0f}** req/s", "1.00"],
            [
                "The page's unchanged refresh (204)",
                f"**{rates['poll']:.0f}** req/s",
                f"{poll_ratio:.2f}",
            ],
        ],
    )
    table = markdown_table(
        ["Players", "Closed rounds", "Anonymous visitor", "Director"],
        [[p, r, counts["anonymous", p, r], counts["director", p, r]] for p, r in SIZES],
    )
    markdown = f"""\
Counted with `django.test.utils.CaptureQueriesContext` around a `django.test.Client` GET of the
tournament page (after one uncounted GET), which shows the standings with their tie-breaks and
every round's tables with their players and totals. The standings are computed afresh on each
view from the finished tables (so a corrected score counts at once), in a fixed number of
queries: the tables with their seats, the deals each player won, the entrants.

{table}

At club scale, under gunicorn (2 sync workers, {options.threads} client threads, SQLite, DEBUG
off, the local-memory cache; {options.passes} interleaved passes, the median pass shown): a
{CLUB[0]}-player tournament in round {CLUB[1]}, four rounds closed and half the tables of the
fifth played. The public page serves its standings and the current round's tables from a
fragment cached on the tournament's version; the projector shows a page of standings lines
(12 then, 16 now) and the round's tables; a refresh naming the current version is answered 204
without rendering.

{rate_table}
"""
    return Section(NAME, TITLE, markdown, checks)


def _tournament(players: int, rounds: int, planned: int | None = None) -> tuple[int, object]:
    from django.contrib.auth import get_user_model

    from cards101.rules import PRESETS
    from tournaments import services
    from tournaments.standings import DEFAULT_POINTS

    user, _created = get_user_model().objects.get_or_create(username="director")
    tournament = services.create_tournament(
        created_by=user,
        variant=PRESETS["classic"],
        name=f"{players} players, {rounds} rounds",
        date="2026-11-22",
        preset="classic",
        rounds_planned=planned or rounds,
        table_size=4,
        match_end="played_out",
        points_by_place={str(k): [float(p) for p in v] for k, v in DEFAULT_POINTS.items()},
        tie_breaks=["penalty_total", "deals_won", "opponents_points", "head_to_head"],
    )
    services.add_entrants(
        tournament=tournament,
        names=[f"T{tournament.pk}-{i}" for i in range(players)],
        by=user,
        checked_in=True,
    )
    for _number in range(rounds):
        round_ = services.seat_next_round(tournament=tournament, by=user)
        for table in round_.tables.select_related("match"):
            _play_out(table.match, user)
        services.close_round(round_=round_, by=user)
    return tournament.pk, user


def _play_out(match, user) -> None:
    """The match played to its end: one seat goes out, the others go over 101."""
    from games import services as games

    seats = list(match.seats.select_related("player").order_by("position"))
    for points in [110] if len(seats) < 4 else [60, 50]:
        outcomes = {
            seat.position: {"out": "7C"} if index == 0 else {"points": points + index}
            for index, seat in enumerate(seats)
        }
        match.refresh_from_db()
        games.record_round(match=match, outcomes=outcomes, version=match.version, by=user)


def _club_tournament() -> tuple[int, int]:
    """A tournament of CLUB[0] players in round CLUB[1]: the earlier rounds closed, half the
    tables of the last one played."""
    from tournaments import services
    from tournaments.models import Tournament

    players, rounds = CLUB
    pk, user = _tournament(players, rounds - 1, planned=rounds)
    tournament = Tournament.objects.get(pk=pk)
    round_ = services.seat_next_round(tournament=tournament, by=user)
    tables = list(round_.tables.select_related("match"))
    for table in tables[: len(tables) // 2]:
        _play_out(table.match, user)
    log(f"[{NAME}] club: {players} players, round {rounds} ({len(tables)} tables) ready")
    return pk, Tournament.objects.get(pk=pk).version


def _throughput(pk: int, version: int, options: Options) -> dict[str, float]:
    targets = {
        "bare": (BARE_PATH, {}, 200),
        "page": (f"/tournaments/{pk}/", {}, 200),
        "projector": (f"/tournaments/{pk}/projector/", {}, 200),
        "ok": (OK_PATH, {}, 200),
        "poll": (f"/tournaments/{pk}/?v={version}", {"HX-Request": "true"}, 204),
    }
    return harness.median_rates(NAME, targets, options, ready_path=OK_PATH)
