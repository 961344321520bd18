"""Every page of the site (the URL walk of tests/test_every_page.py over tests/world.py) with
carol hiding her name: a stranger, signed in or not, never reads it, in a page, an htmx
fragment, an export, a redirect or a file's name; whoever may see it never reads "Hidden
player"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse

from claims import services as claims
from tests.test_every_page import visits
from tests.world import World, build_world

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden player"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """tests/world.py with carol hiding her name: she plays at alice's sheets (bob keeps score
    at one), in alice's tournaments and at tables of her own against a bot, and waits at a
    public table in the lobby. lena has never played with her."""
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), transaction.atomic(), fast:
        built = build_world()
        carol = built.users["carol"]
        claims.set_private(player=built.people["carol"], private=True, by=carol)
        yield built
        transaction.set_rollback(True)


def client_of(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def everything_read(response) -> str:
    """What a page gives whoever asked: its body, where it redirects, the file it names."""
    return " ".join(
        (
            response.content.decode(errors="replace"),
            response.get("Location", ""),
            response.get("Content-Disposition", ""),
        )
    )


def test_no_page_export_or_redirect_shows_a_hidden_name_to_a_stranger(world):
    """Every URL of the site, as a visitor and as lena (signed in, never at carol's table),
    in full and as an htmx fragment: carol's name is nowhere, "Hidden player" where she sits."""
    found, hidden_on = [], set()
    for who in (None, world.users["lena"]):
        client = client_of(who)
        for path in visits(world):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                read = everything_read(client.get(path, **headers))
                if "carol" in read.casefold():
                    found.append(f"{who or 'a visitor'} reads carol at {path} {headers}")
                if HIDDEN in read:
                    hidden_on.add(path)
    assert found == [], "\n".join(found)
    # She is there, hidden: on the sheets, the tournaments, the tables, the lists and files.
    for path in (
        world.matches["finished"].get_absolute_url(),
        reverse("games:match_live", args=[world.matches["running"].pk]),
        reverse("games:match_list"),
        world.tournaments["finished"].get_absolute_url(),
        reverse("tournaments:projector", args=[world.tournaments["running"].pk]),
        reverse("tournaments:standings_csv", args=[world.tournaments["finished"].pk]),
        reverse("tournaments:results_csv", args=[world.tournaments["finished"].pk]),
        reverse("play:lobby"),
        world.tables["match_over"].get_absolute_url(),
        # The coach's review of her match, and its marks beside the replay.
        reverse("coach:table_review", args=[world.tables["match_over"].pk]),
        reverse("play:replay", args=[world.tables["match_over"].pk, 1]),
        reverse("stats:leaderboard_csv"),
        reverse("stats:profile", args=[world.guest.pk]),  # Anna's: carol is her opponent
        reverse("stats:profile", args=[world.people["carol"].pk]),
    ):
        assert path in hidden_on, path


def test_whoever_may_see_the_name_reads_it_on_every_page(world):
    """alice (her tables' creator and table-mate, her tournaments' director), bob (a scorekeeper
    of a sheet she plays at), sam (staff) and carol herself never meet "Hidden player"."""
    found, named_on = [], {}
    for role in ("alice", "bob", "sam", "carol"):
        client = client_of(world.users[role])
        named_on[role] = set()
        for path in visits(world):
            # Her own profile says what the others see.
            read = everything_read(client.get(path)).replace(f"sees “{HIDDEN}”", "")
            if HIDDEN in read:
                found.append(f"{role} reads {HIDDEN!r} at {path}")
            if "carol" in read:
                named_on[role].add(path)
    assert found == [], "\n".join(found)
    for role in ("alice", "bob", "sam", "carol"):
        assert world.matches["running"].get_absolute_url() in named_on[role]
        assert reverse("stats:profile", args=[world.people["carol"].pk]) in named_on[role]
        assert world.tournaments["finished"].get_absolute_url() in named_on[role]
