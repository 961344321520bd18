"""A player who hides their name (or shows it again) moves the cached pages that show them, and
no others: another table's spectators' board, another match's sheet and another player's
profile stay in the cache for everyone, while every page with the player on it is read anew."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from play.models import PlayTable
from tests.factories import counts_tables_of, make_match, play_out
from tests.play.test_play import new_table, until_my_turn
from tests.play.test_watched_board import watch
from tests.tournaments.factories import make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden player"


def sheet(client: Client, match) -> tuple[str, bool]:
    """A score sheet as a visitor reads it, and whether it came from the cache: its sheet,
    standings and names are cached fragments, so read from the cache it costs one query (the
    match, for its version) and renders none of them."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    rendered = {template.name for template in response.templates}
    cached = len(queries) == 1 and "games/_sheet_table.html" not in rendered
    return response.content.decode(), cached


def profile(client: Client, player) -> tuple[str, bool]:
    response = client.get(reverse("stats:profile", args=[player.pk]))
    rendered = {template.name for template in response.templates}
    return response.content.decode(), "stats/_profile_body.html" not in rendered


@pytest.fixture
def bobs_evening(alice, bob, carol):
    """bob at alice's score sheet, at a table of his own against a bot, and in alice's
    tournament; carol's sheet and table, where bob is not."""
    counts_tables_of(bob, alice)
    with_bob = make_match(alice, ["alice", "bob", "Dan"])
    play_out(with_bob, alice)
    bobs_table = new_table(bob, seats=("me", "greedy"))
    tournament = make_tournament(alice)
    tournaments.register(tournament=tournament, user=bob)
    without_bob = make_match(carol, ["carol", "Vera", "Gleb"])
    play_out(without_bob, carol)
    carols_table = new_table(carol, seats=("me", "greedy"))
    for table in (bobs_table, carols_table):
        until_my_turn(table)
    return with_bob, bobs_table, tournament, without_bob, carols_table


def hide(user) -> None:
    client = Client()
    client.force_login(user)
    client.post(reverse("claims:privacy"), {"private": "on"})


def test_hiding_leaves_other_pages_in_the_cache_and_reaches_every_page_showing_the_name(
    bob, carol, bobs_evening
):
    with_bob, bobs_table, tournament, without_bob, carols_table = bobs_evening
    visitor = Client()
    # Every page read once: in the cache, each with bob's name where he is.
    assert ">bob<" in sheet(visitor, with_bob)[0].replace("bob </", "bob<")
    assert "bob" in watch(visitor, bobs_table)[0]
    assert "bob" in visitor.get(tournament.get_absolute_url()).content.decode()
    assert "bob" in profile(visitor, bob.player)[0]
    sheet(visitor, without_bob)
    watch(visitor, carols_table)
    profile(visitor, carol.player)
    assert sheet(visitor, without_bob)[1] and profile(visitor, carol.player)[1]

    hide(bob)

    # carol's sheet, table and profile are still read from the cache...
    page, cached = sheet(visitor, without_bob)
    assert cached and "carol" in page
    board, rendered = watch(visitor, carols_table)
    assert not rendered and "carol" in board
    page, cached = profile(visitor, carol.player)
    assert cached and "carol" in page
    # ...and every page with bob on it says "Hidden player", nowhere "bob".
    for page in (
        sheet(visitor, with_bob)[0],
        visitor.get(reverse("games:match_live", args=[with_bob.pk])).content.decode(),
        watch(visitor, PlayTable.objects.get(pk=bobs_table.pk))[0],
        visitor.get(tournament.get_absolute_url()).content.decode(),
        visitor.get(reverse("tournaments:projector", args=[tournament.pk])).content.decode(),
        profile(visitor, with_bob.created_by.player)[0],  # alice's: bob is her opponent
    ):
        assert HIDDEN in page and "bob" not in page.replace("bob-", "")


def test_showing_ones_name_again_reaches_the_pages_cached_while_it_was_hidden(bob, bobs_evening):
    with_bob, bobs_table, tournament, _without_bob, _carols_table = bobs_evening
    hide(bob)
    visitor = Client()
    assert "bob" not in sheet(visitor, with_bob)[0]
    assert "bob" not in watch(visitor, bobs_table)[0]
    client = Client()
    client.force_login(bob)
    client.post(reverse("claims:privacy"), {})
    assert ">bob<" in sheet(visitor, with_bob)[0].replace("bob </", "bob<")
    assert "bob" in watch(visitor, bobs_table)[0]
    assert "bob" in visitor.get(tournament.get_absolute_url()).content.decode()
