"""Lists of players from the spreadsheets directors have (Excel in Russian saves ";"-separated
Windows-1251 "CSV"), read and shown before anyone is added; the site's own CSVs open in
Russian Excel and read back in."""

import csv
import io

import pytest
from django.urls import reverse

from tests.factories import play_out
from tests.tournaments.factories import confirm_import, enter, import_file, read_file
from tournaments import services

pytestmark = pytest.mark.django_db


def page_of(response) -> str:
    return response.content.decode()


def test_a_russian_excel_file_is_read_and_shown_before_anyone_is_added(client, alice, tournament):
    client.force_login(alice)
    content = "Имя;На месте\r\nАнна;да\r\nБорис;нет\r\n".encode("cp1251")
    preview = read_file(client, tournament, content, filename="игроки.csv")
    page = page_of(preview)
    assert "2 players read from игроки.csv" in page
    assert "Cells separated by semicolons" in page and "encoding Windows-1251" in page
    assert "header line skipped: Имя | На месте" in page
    assert '<li>Анна <span class="badge">checked in</span></li>' in page
    assert "<li>Борис</li>" in page
    assert not tournament.entrants.exists()  # nothing until the director confirms

    page = page_of(confirm_import(client, tournament, preview))
    assert "2 players imported." in page
    assert {(e.player.name, e.checked_in) for e in tournament.entrants.all()} == {
        ("Анна", True),
        ("Борис", False),
    }


@pytest.mark.parametrize(
    ("content", "separator", "encoding"),
    [
        ("\ufeffФИО;Клуб\nАнна Петрова;Туз\nБорис;Туз\n".encode(), "semicolons", "UTF-8 (BOM)"),
        ("name,club\nАнна Петрова,Туз\nБорис,Туз\n".encode(), "commas", "UTF-8"),
        ("Игрок\tКлуб\nАнна Петрова\tТуз\nБорис\tТуз\n".encode("cp1251"), "tabs", "Windows-1251"),
        ("Анна Петрова\nБорис\n".encode("cp1251"), "commas", "Windows-1251"),
        ("Имя\tКлуб\r\nАнна Петрова\tТуз\r\nБорис\tТуз\r\n".encode("utf-16"), "tabs", "UTF-16"),
    ],
    ids=["utf-8 bom ;", "utf-8 ,", "cp1251 tab", "names alone", "excel unicode text"],
)
def test_any_separator_and_encoding_a_spreadsheet_writes_is_read(
    client, alice, tournament, content, separator, encoding
):
    client.force_login(alice)
    page = page_of(read_file(client, tournament, content))
    assert f"Cells separated by {separator}" in page and f"encoding {encoding}" in page
    assert "2 players read from players.csv" in page
    page = page_of(import_file(client, tournament, content))
    assert "2 players imported." in page
    assert sorted(e.player.name for e in tournament.entrants.all()) == ["Анна Петрова", "Борис"]


def test_a_list_changed_between_the_preview_and_the_confirmation_is_checked_again(
    client, alice, tournament
):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[tournament.pk])
    response = client.post(
        url,
        {"form": "import_confirm", "text": "name\nАнна\nB\x01ob\n", "separator": ","},
        follow=True,
    )
    assert "Line 3: This contains a control character" in page_of(response)
    response = client.post(url, {"form": "import_confirm", "text": "Анна", "separator": "|"})
    assert "The list was not sent whole; choose the file again." in page_of(response)
    assert not tournament.entrants.exists()


def test_exports_open_in_russian_excel_and_the_site_reads_its_own_export_back(
    client, alice, tournament
):
    # Halves for the places, so that the file holds fractions.
    tournament.points_by_place = {"4": [3.5, 2.0, 1.5, 0.0]}
    tournament.save(update_fields=["points_by_place"])
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    play_out(round_.tables.get().match, alice)
    client.force_login(alice)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    url = reverse("tournaments:standings_csv", args=[tournament.pk])
    assert f'href="{url}?sep=semicolon"' in page  # the Russian page links the ";" file
    assert f'href="{url}"' in client.get(tournament.get_absolute_url()).content.decode()

    data = client.get(url, {"sep": "semicolon"}, HTTP_ACCEPT_LANGUAGE="ru").content
    assert data.startswith("\ufeff".encode())  # Excel reads it as UTF-8
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Место", "Игрок", "Очки"]
    assert sorted(row[1] for row in rows[1:]) == ["Анна", "Борис", "Вера", "Глеб"]
    # Excel in Russian reads "3,5" as a number ("3.5" would be a date or text); the ","-file
    # keeps "3.5".
    assert sorted(row[2] for row in rows[1:]) == ["0", "1,5", "2", "3,5"]
    assert all("." not in cell for row in rows[1:] for cell in row)
    english = client.get(url).content.decode("utf-8-sig")
    assert sorted(row[2] for row in list(csv.reader(io.StringIO(english)))[1:]) == [
        "0",
        "1.5",
        "2",
        "3.5",
    ]

    other = services.create_tournament(
        created_by=alice,
        variant=tournament.variant,
        **{
            field: getattr(tournament, field)
            for field in ("name", "date", "preset", "rounds_planned", "table_size", "match_end")
        },
        points_by_place=tournament.points_by_place,
        tie_breaks=tournament.tie_breaks,
    )
    page = page_of(import_file(client, other, data))
    assert "4 players imported." in page
    assert sorted(e.player.name for e in other.entrants.all()) == ["Анна", "Борис", "Вера", "Глеб"]
