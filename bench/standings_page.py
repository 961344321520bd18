"""The public tournament page (standings and every round's tables): SQL queries per page.

Tournaments of 8, 20 and 40 players over 1, 2 and 4 closed rounds, built through the
services as a director would (every table played out: in one deal at a table of three, in
two at a table of four, whose cards cannot hold three losing hands at once). The count must
not grow with the players or the rounds.
"""

from __future__ import annotations

from bench import harness
from bench.common import Check, Options, Section, log, markdown_table

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
"""
    return Section(NAME, TITLE, markdown, checks)


def _tournament(players: int, rounds: int) -> tuple[int, object]:
    from django.contrib.auth import get_user_model

    from games import services as games
    from games.rules import PRESETS
    from tournaments import services
    from tournaments.standings import DEFAULT_POINTS

    user, _created = get_user_model().objects.get_or_create(username="director")
    tournament = services.create_tournament(
        created_by=user,
        variant=PRESETS["classic"],
        name=f"{players} players, {rounds} rounds",
        date="2026-11-22",
        preset="classic",
        rounds_planned=rounds,
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
            seats = list(table.match.seats.select_related("player").order_by("position"))
            for points in [110] if len(seats) < 4 else [60, 50]:
                outcomes = {
                    seat.position: {"out": "7C"} if index == 0 else {"points": points + index}
                    for index, seat in enumerate(seats)
                }
                table.match.refresh_from_db()
                games.record_round(
                    match=table.match, outcomes=outcomes, version=table.match.version, by=user
                )
        services.close_round(round_=round_, by=user)
    return tournament.pk, user
