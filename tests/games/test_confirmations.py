"""A page or a button that asks before deleting or removing names the thing as a person knows
it: a match by its players and its day, or by its tournament, round and table; a person by name."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from games.models import Match
from tests.factories import record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

RUSSIAN = {"Accept-Language": "ru"}


def a_round(match, user):
    record(match, user, {"Dan": {"out": "9C"}, "alice": {"points": 10}, "Eve": {"points": 5}})
    return match.rounds.get()


def test_deleting_a_match_names_its_players_and_its_day(client, alice, match):
    client.force_login(alice)
    page = client.get(reverse("games:match_delete", args=[match.pk])).content.decode()
    today = date_format(timezone.localdate(), "DATE_FORMAT")  # as the site writes a date
    assert "<h1>Delete this match?</h1>" in page
    assert f"<strong>alice, Dan, Eve · {today}</strong>" in page
    assert f"Match {match.pk}" not in page.split("<main", 1)[1]
    russian = client.get(reverse("games:match_delete", args=[match.pk]), headers=RUSSIAN)
    assert "<h1>Удалить эту партию?</h1>" in russian.content.decode()
    assert f"Партия {match.pk}" not in russian.content.decode().split("<main", 1)[1]


def test_deleting_a_round_names_the_match_by_its_players(client, alice, match):
    round_ = a_round(match, alice)
    client.force_login(alice)
    url = reverse("games:round_delete", args=[match.pk, round_.pk])
    page = client.get(url).content.decode()
    assert "<h1>Delete round 1?</h1>" in page
    assert "<strong>alice, Dan, Eve · " in page
    assert f"Match {match.pk}" not in page.split("<main", 1)[1]
    russian = client.get(url, headers=RUSSIAN).content.decode()
    assert "Раунд будет удалён, а суммы пересчитаны." in russian


def test_the_sheet_offers_to_delete_the_last_round_as_its_page_asks(client, alice, match):
    """The link says what the page after it does: it deletes the round (no 'undo' on the sheet
    and 'delete' on the question)."""
    round_ = a_round(match, alice)
    client.force_login(alice)
    url = reverse("games:round_delete", args=[match.pk, round_.pk])
    for headers, link, question in (
        ({}, "Delete round 1", "<h1>Delete round 1?</h1>"),
        (RUSSIAN, "Удалить раунд 1", "<h1>Удалить раунд 1?</h1>"),
    ):
        sheet = client.get(match.get_absolute_url(), headers=headers).content.decode()
        assert f'<a href="{url}">{link}</a>' in sheet
        assert "Undo" not in sheet and "Отменить раунд" not in sheet
        page = client.get(url, headers=headers).content.decode()
        assert question in page and f"<title>{link} · " in page


def test_deleting_a_round_at_a_tournament_table_names_the_table(client, alice):
    tournament = make_tournament(alice)
    enter(tournament, ["Anna", "Boris", "Vera"], alice)
    table = tournaments.seat_next_round(tournament=tournament, by=alice).tables.get()
    names = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
    record(
        table.match,
        alice,
        {name: {"out": "9C"} if i == 0 else {"points": 10} for i, name in enumerate(names)},
    )
    client.force_login(alice)
    url = reverse("games:round_delete", args=[table.match.pk, table.match.rounds.get().pk])
    page = client.get(url).content.decode()
    assert f"<strong>Club night · Round 1 · Table 1: {', '.join(names)}</strong>" in page
    russian = client.get(url, headers=RUSSIAN).content.decode()
    assert "<strong>Club night · Тур 1 · Стол 1: " in russian


def test_removing_a_scorekeeper_or_a_director_asks_by_name(client, alice, bob, match):
    client.force_login(alice)
    client.post(reverse("games:scorekeepers", args=[match.pk]), {"username": "bob"})
    page = client.get(reverse("games:scorekeepers", args=[match.pk])).content.decode()
    assert 'data-confirm="Remove bob from the scorekeepers?"' in page
    tournament = make_tournament(alice)
    tournaments.add_director(tournament=tournament, username="bob")
    url = reverse("tournaments:directors", args=[tournament.pk])
    assert 'data-confirm="Remove bob from the directors?"' in client.get(url).content.decode()
    russian = client.get(url, headers=RUSSIAN).content.decode()
    assert 'data-confirm="Убрать bob из директоров?"' in russian


def test_no_page_of_a_match_names_it_by_its_number(client, alice, match):
    """'Match 139' is the database's name for it: the pages around a sheet name it by its
    players and day, or its tournament, round and table; the number stays in addresses."""
    round_ = a_round(match, alice)
    evening = datetime.datetime(2026, 11, 27, 19, 40, tzinfo=datetime.UTC)
    Match.objects.filter(pk=match.pk).update(created_at=evening)
    client.force_login(alice)
    pages = [
        match.get_absolute_url(),
        reverse("games:round_edit", args=[match.pk, round_.pk]),
        reverse("games:scorekeepers", args=[match.pk]),
        reverse("games:history", args=[match.pk]),
        reverse("games:round_delete", args=[match.pk, round_.pk]),
    ]
    for headers, number, what in (
        ({}, f"Match {match.pk}", "alice, Dan, Eve · Nov. 27, 2026"),
        (RUSSIAN, f"Партия {match.pk}", "alice, Dan, Eve · 27 ноября 2026 г."),
    ):
        for url in pages:
            page = client.get(url, headers=headers).content.decode()
            assert number not in page, url
            if url != pages[0]:
                assert f"{what} · 101</title>" in page or f"<strong>{what}</strong>" in page, url
    sheet = client.get(match.get_absolute_url(), headers=RUSSIAN).content.decode()
    assert "› Партия от 27 ноября, 19:40</p>" in sheet  # the crumb of a score sheet
    edit = client.get(pages[1], headers=RUSSIAN).content.decode()
    assert f'<a href="{match.get_absolute_url()}">← alice, Dan, Eve · 27 ноября 2026 г.</a>' in edit
