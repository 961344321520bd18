"""The lobby of live play, in English and Russian: my tables by name (or by their players),
whose move it is at each, and those where it is mine first; naming a table."""

import datetime
import itertools
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable
from tests.play.test_play import new_table, table_form_data, until_my_turn

pytestmark = pytest.mark.django_db

RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def section(body: str, marker: str) -> str:
    """The part of the page from `marker` to the end of its section."""
    start = body.index(marker)
    return body[start : body.index("</section>", start)]


def my_move_table(user, **changes):
    table = new_table(user, seats=("me", "greedy"), **changes)
    until_my_turn(table)
    table.refresh_from_db()
    return table


def bots_move_table(user, **changes):
    """A table where a bot is to move (the server's move not yet due)."""
    for seed in itertools.count():
        game = Game.new(PRESETS["classic"], players=2, seed=seed)
        if game.to_move == 1:
            table = new_table(user, seats=("me", "greedy"), seed=seed, **changes)
            PlayTable.objects.filter(pk=table.pk).update(server_moves_at=None)
            table.refresh_from_db()
            return table
    raise AssertionError("unreachable")


@pytest.mark.parametrize(
    ("headers", "your_move", "to_move", "waiting"),
    [
        (EN, "Your move", "Greedy bot to move", "waiting for players"),
        (RU, "Ваш ход", "Ходит Жадный бот", "ждёт игроков"),
    ],
)
def test_the_lobby_lists_my_tables_by_name_with_whose_move_it_is_mine_first(
    client, alice, headers, your_move, to_move, waiting
):
    theirs = bots_move_table(alice)
    waiting_table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"], name="Friday"
    )
    mine = my_move_table(alice)
    PlayTable.objects.filter(pk=mine.pk).update(name="Evening with the bots")
    # The table where it is my move moved longest ago, yet comes first.
    PlayTable.objects.filter(pk=mine.pk).update(
        updated_at=timezone.now() - datetime.timedelta(days=1)
    )
    client.force_login(alice)
    body = client.get(reverse("play:lobby"), **headers).content.decode()
    mine_section = section(body, 'id="mine-title"')
    rows = mine_section.split('<li class="match-row')[1:]
    assert [re.search(r'href="([^"]+)"', row)[1] for row in rows] == [
        mine.get_absolute_url(),
        waiting_table.get_absolute_url(),
        theirs.get_absolute_url(),
    ]
    assert " my-move" in rows[0] and "Evening with the bots" in rows[0] and your_move in rows[0]
    assert "Friday" in rows[1] and waiting in rows[1]
    assert to_move in rows[2] and your_move not in rows[2]
    # A table without a name is called by its players.
    assert re.search(r"alice</span> · <span class=\"pname\" title=\"[^\"]+\">", rows[2])


def test_a_table_is_named_on_the_new_table_page_and_keeps_its_name_for_a_rematch(client, alice):
    client.force_login(alice)
    page = client.get(reverse("play:new"), **RU).content.decode()
    assert "Название стола" in page
    client.post(reverse("play:new"), table_form_data(name="  Пятничный   стол "))
    table = PlayTable.objects.get()
    assert table.name == "Пятничный стол"
    body = client.get(table.get_absolute_url()).content.decode()
    assert "<title>Пятничный стол · Play · 101</title>" in body
    # A name hiding an invisible character is refused, and says which.
    response = client.post(reverse("play:new"), table_form_data(name="Стол\u00ad"))
    assert "invisible character (U+00AD)" in response.content.decode()
    assert PlayTable.objects.count() == 1


def test_a_table_without_a_name_is_called_by_the_day_and_hour_it_was_made(client, alice):
    """Not by its id ("Table 139"): people tell tables apart by when they sat down."""
    table = new_table(alice)
    evening = datetime.datetime(2026, 11, 27, 19, 40, tzinfo=datetime.UTC)
    PlayTable.objects.filter(pk=table.pk).update(created_at=evening)
    table.refresh_from_db()
    assert str(table) == "Table of 27 November, 19:40"
    with translation.override("ru"):
        assert str(table) == "Стол от 27 ноября, 19:40"
    client.force_login(alice)
    page = client.get(table.get_absolute_url(), **RU).content.decode()
    assert "<title>Стол от 27 ноября, 19:40 · " in page
    assert f"Стол {table.pk}" not in page and f"Table {table.pk}" not in page
