"""A table played on the site, under gunicorn: the poll that finds nothing new, and a person's
move with three `expert` bots seated.

1. An unchanged poll (`GET /play/<pk>/?v=<version>` from htmx, answered 204 without
   rendering) next to a bare view answering "ok" (bench/bare_urls.py), interleaved in the same
   run and server: the poll must reach at least 0.8 of the bare view's requests per second.
2. The response time of a person's move (`POST /play/<pk>/move/`) at a table of four where
   the other three seats are `expert` bots: the bots move on later polls, never inside the
   person's request, so the 95th percentile must stay under 300 ms.
"""

from __future__ import annotations

import http.client
import re
import statistics
import time
from urllib.parse import urlencode

from bench import harness
from bench.common import Check, Options, Section, log, markdown_table, ms, verdict

NAME = "play"
TITLE = "A table played on the site (`/play/<pk>/`)"
OK_PATH = "/bench/ok/"
POLL_TARGET = 0.8
MOVE_TARGET = 0.300  # seconds, 95th percentile
MOVES = 40


def run(options: Options) -> Section:
    harness.setup_django()
    user, table = _make_table()
    session = _session(user)
    polls = _poll_throughput(table, session, options)
    moves = _move_times(user, table, session)

    ratio = polls["poll"] / polls["ok"]
    p95 = statistics.quantiles(moves, n=100)[94]
    checks = [
        Check(
            f"unchanged poll ÷ bare 'ok' view, req/s, at least {POLL_TARGET}",
            f"{ratio:.2f}",
            ratio >= POLL_TARGET,
        ),
        Check(
            f"a person's move with three expert bots seated, p95 under {ms(MOVE_TARGET)}",
            ms(p95),
            p95 < MOVE_TARGET,
        ),
    ]
    rows = [
        ["Bare view answering ok (`/bench/ok/`)", f"**{polls['ok']:.0f}** req/s", "1.00"],
        [
            "Unchanged poll (204, nothing rendered)",
            f"**{polls['poll']:.0f}** req/s",
            f"{ratio:.2f}",
        ],
    ]
    text = "\n\n".join(
        [
            f"gunicorn, 2 sync workers, {options.threads} client threads, SQLite, DEBUG off; "
            f"{options.passes} interleaved passes of {options.requests // options.passes} "
            "requests each, the median pass shown.",
            markdown_table(["What", "Median pass", "÷ bare"], rows),
            f"{MOVES} moves of the person at a table of four (seats 2–4 `expert` bots), each a "
            "POST through gunicorn after the bots had made their moves (on polls, as in play): "
            f"median {ms(statistics.median(moves))}, 95th percentile {ms(p95)}, worst "
            f"{ms(max(moves))} — {verdict(p95 < MOVE_TARGET)}.",
        ]
    )
    return Section(NAME, TITLE, text, checks)


def _make_table():
    from django.contrib.auth import get_user_model

    from cards101.rules import PRESETS
    from play import services as play

    user = get_user_model().objects.create_user("bench-player", password="bench-password")
    table = play.create_table(
        by=user,
        preset="aaow",
        variant=PRESETS["aaow"],
        seats=["me", "expert", "expert", "expert"],
        seed=101,
    )
    return user, table


def _session(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    from django.conf import settings

    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _my_turn(table) -> None:
    """Let the bots make the moves they owe (in this process, as polls would) until it is
    the person's turn in a round being played (a new round dealt when one ends)."""
    from django.utils import timezone

    from cards101.engine import Game
    from play import services as play
    from play.models import PlayTable

    for _ in range(500):
        table.refresh_from_db()
        if table.status == PlayTable.Status.FINISHED:
            raise RuntimeError("the benchmark's match ended; seat a new table")
        game = Game.from_json(table.state)
        if not game.round_over and game.to_move == 0:
            return
        PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
        play.step(table=table)
    raise RuntimeError("the bots never gave the turn back")


def _poll_throughput(table, session: str, options: Options) -> dict[str, float]:
    from django.conf import settings

    _my_turn(table)
    table.refresh_from_db()
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}", "HX-Request": "true"}
    targets = {
        "ok": (OK_PATH, {}, 200),
        "poll": (f"/play/{table.pk}/?v={table.version}", cookie, 204),
    }
    return harness.median_rates(NAME, targets, options, ready_path=OK_PATH)


def _move_times(user, table, session: str) -> list[float]:
    from django.conf import settings

    from cards101.engine import Game

    cookie_name = settings.SESSION_COOKIE_NAME
    times = []
    with harness.gunicorn(workers=2, ready_path=OK_PATH) as server:
        conn = http.client.HTTPConnection(harness.HOST, server.port, timeout=30)
        conn.request("GET", f"/play/{table.pk}/", headers={"Cookie": f"{cookie_name}={session}"})
        response = conn.getresponse()
        response.read()
        csrf = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie") or "")[1]
        conn.close()
        cookies = f"{cookie_name}={session}; csrftoken={csrf}"
        for number in range(MOVES):
            _my_turn(table)
            table.refresh_from_db()
            move = Game.from_json(table.state).legal_moves()[0]
            body = urlencode(
                {
                    "version": table.version,
                    "kind": move.kind,
                    "card": move.card.code if move.card else "",
                    "suit": move.suit or "",
                }
            )
            headers = {
                "Cookie": cookies,
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            }
            conn = http.client.HTTPConnection(harness.HOST, server.port, timeout=30)
            began = time.perf_counter()
            conn.request("POST", f"/play/{table.pk}/move/", body, headers)
            response = conn.getresponse()
            page = response.read().decode()
            times.append(time.perf_counter() - began)
            conn.close()
            if response.status != 200 or 'class="errors"' in page:
                raise RuntimeError(f"move {number + 1} was refused:\n{page[:2000]}")
    log(f"[{NAME}] {MOVES} moves: median {ms(statistics.median(times))}")
    return times
