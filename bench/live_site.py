"""The site's side of bench/live.py, run in a process of its own with the environment of the
stack being measured (`python -m bench.live_site COMMAND`): it makes the accounts and tables
through the services and prints what the benchmark needs as JSON on stdout.

    people              two accounts at one 2-seat table (the table, their session cookies)
    bots COUNT DELAY    COUNT 4-seat tables of greedy bots (the creator resigns, the site plays
                        the seat), each first due at a random time within DELAY seconds
"""

from __future__ import annotations

import datetime
import json
import random
import secrets
import sys

import django


def people() -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from cards101.rules import PRESETS
    from play import services as play

    users = get_user_model().objects
    tag = secrets.token_hex(3)
    alice = users.create_user(f"bench-alice-{tag}", password=secrets.token_urlsafe(16))
    bob = users.create_user(f"bench-bob-{tag}", password=secrets.token_urlsafe(16))
    # A match to 1,000 points, so that one table lasts the whole measurement (the rules make
    # no difference to how a move travels).
    table = play.create_table(
        by=alice,
        preset="aaow",
        variant=PRESETS["aaow"].replace(lose_over=1000),
        seats=["me", "open"],
        seed=101,
    )
    play.join(table=table, user=bob, invite=table.invite)
    sessions = []
    for user in (alice, bob):
        # A client of each one's own: logging bob in on alice's would end her session.
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    return {
        "table": table.pk,
        "cookie": settings.SESSION_COOKIE_NAME,
        "sessions": sessions,
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
    }


def bots(count: int, delay: float) -> dict:
    from django.contrib.auth import get_user_model

    from cards101.rules import PRESETS
    from play import services as play

    host = get_user_model().objects.create_user(
        f"bench-host-{secrets.token_hex(3)}", password=secrets.token_urlsafe(16)
    )
    spread = random.Random(101)
    tables = []
    for number in range(count):
        table = play.create_table(
            by=host,
            preset="aaow",
            variant=PRESETS["aaow"],
            seats=["me", "greedy", "greedy", "greedy"],
            seed=number,
        )
        table.refresh_from_db()
        # Resigning leaves the seat to the site's stand-in: a table only the server moves.
        play.leave(table=table, user=host, status=table.status)
        # Each table's first move at its own moment, so that the tables do not move in step.
        play.put_aside(table.pk, datetime.timedelta(seconds=spread.uniform(0, delay)))
        tables.append(table.pk)
    return {"tables": tables}


def main(argv: list[str]) -> None:
    django.setup()
    command, *args = argv
    if command == "people":
        result = people()
    elif command == "bots":
        result = bots(int(args[0]), float(args[1]))
    else:
        raise SystemExit(f"unknown command {command!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
