"""Watchers of a table fetch its board after every move; they all see the same one, so it is
rendered once a version (per language and per which hidden names the viewer may read) and
never handed to anyone who sees more: a seated player, someone allowed a hidden name."""

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims import services as claims
from play import services as play
from play.models import PlayTable
from tests.play.test_play import HTMX, game_of, new_table, until_my_turn

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden player"


def watch(client: Client, table: PlayTable, **headers) -> tuple[str, bool]:
    """The board as htmx fetches it after an event, and whether it was rendered for it. A
    visitor's fetch reads the table and its seats (who is looking), and no more, whether the
    board is rendered or not; a signed-in one reads their session and account too."""
    signed_in = settings.SESSION_COOKIE_NAME in client.cookies
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("play:table", args=[table.pk]), **HTMX, **headers)
    assert response.status_code == 200
    if not signed_in:
        assert len(queries) <= 2, [q["sql"] for q in queries]
    return response.content.decode(), bool(response.templates)


def test_every_watcher_gets_the_boards_version_rendered_once_and_the_next_one_after_a_move(
    alice,
):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = until_my_turn(table)
    first, rendered = watch(Client(), table)
    assert rendered
    assert f'data-live-version="{table.version}"' in first
    second, rendered = watch(Client(), table)
    assert second == first
    assert not rendered
    # In Russian, the same version is a board of its own.
    russian, _ = watch(Client(), table, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Ход" in russian or "ход" in russian
    assert russian != first
    # A move makes a new version: nobody is shown the old board.
    table.refresh_from_db()
    play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
    table.refresh_from_db()
    after, _ = watch(Client(), table)
    assert f'data-live-version="{table.version}"' in after
    assert after != first


def test_a_visitor_told_of_a_new_version_is_given_the_watchers_board_for_one_query(alice):
    """What every watcher's browser does after an event: fetch the board naming the version
    it shows. Once one watcher's fetch has rendered the new version, a visitor's costs the
    version's query alone; a signed-in spectator's is read as before (they might be seated)."""
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = until_my_turn(table)
    shown = table.version
    table.refresh_from_db()
    play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
    table.refresh_from_db()
    url = reverse("play:table", args=[table.pk])
    first = Client().get(url, {"v": shown}, **HTMX)
    assert first.templates and f'data-live-version="{table.version}"' in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        second = Client().get(url, {"v": shown}, **HTMX)
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert not second.templates
    assert second.content == first.content
    # In Russian it is a board of its own, rendered once as well.
    russian = Client().get(url, {"v": shown}, **HTMX, headers={"Accept-Language": "ru"})
    assert russian.templates and russian.content != first.content
    # alice, seated, fetching the same way gets her own board, with her hand.
    seated = Client()
    seated.force_login(alice)
    mine = seated.get(url, {"v": shown}, **HTMX)
    assert mine.templates and "csrfmiddlewaretoken" in mine.content.decode()


def test_a_seated_player_never_gets_the_watchers_board(alice):
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    spectators, _ = watch(Client(), table)
    assert "csrfmiddlewaretoken" not in spectators
    client = Client()
    client.force_login(alice)
    mine, _ = watch(client, table)
    hand = set(c.code for c in game_of(table).hands[0])
    assert any(f'value="{code}"' in mine for code in hand)
    assert "csrfmiddlewaretoken" in mine
    # And the watchers' board is still the one without her hand.
    again, _ = watch(Client(), table)
    assert again == spectators


def test_a_hidden_name_cached_for_strangers_is_read_by_whoever_may_see_it(
    alice, bob, django_user_model
):
    table = new_table(alice, seats=("me", "greedy"))
    claims.set_private(player=alice.player, private=True, by=alice)
    until_my_turn(table)
    stranger, _ = watch(Client(), table)
    assert HIDDEN in stranger and "alice" not in stranger
    signed_in_stranger = Client()
    signed_in_stranger.force_login(bob)
    read, _ = watch(signed_in_stranger, table)
    assert HIDDEN in read and "alice" not in read
    staff = Client()
    staff.force_login(django_user_model.objects.create_user("sam", is_staff=True))
    read, _ = watch(staff, table)
    assert "alice" in read and HIDDEN not in read


def test_a_table_with_a_move_clock_is_not_shared(alice):
    """The clock is drawn against the time of each request (the browser corrects its own
    clock by it), so a board with one is rendered for each watcher."""
    table = new_table(alice, seats=("me", "greedy"), move_seconds=30)
    until_my_turn(table)
    first, rendered_first = watch(Client(), table)
    _, rendered_second = watch(Client(), table)
    assert 'role="timer"' in first
    assert rendered_first and rendered_second
