"""No CSV export hands a spreadsheet a formula, whichever separator the spreadsheet splits on:
"," (English Excel), ";" (Russian Excel, LibreOffice in comma-decimal languages) or a tab. A
name holding ";=" would otherwise start a cell of its own in a file whose cells are split on
","."""

import csv
import io

import pytest
from django.urls import reverse

from core.exports import SafeWriter
from games.models import Player
from tests.factories import make_match, play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

# Names a player can type (nothing invisible, no control character) that hold a formula after
# a separator, or start with one; the quotes try to end a quoted cell early.
NAMES = [
    "x;=cmd|' /C calc'!A0",
    "y,+cmd|' /C calc'!A0",
    'z;"=HYPERLINK(""http://x"",""y"")"',
    "w; @SUM(1+1)",
    '=HYPERLINK("http://x","y")',
    "-2+3",
]
FORMULA_STARTS = ("=", "+", "-", "@")
SEPARATORS = [",", ";", "\t"]


@pytest.fixture
def played(alice):
    """A tournament table of the four first names and a casual match of the others, finished:
    every name is in the standings, the tables and the leaderboard."""
    tournament = make_tournament(alice)
    enter(tournament, NAMES[:4], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    table = round_.tables.get()
    play_out(table.match, alice)
    services.close_table(table=table, by=alice)
    play_out(make_match(alice, ["alice", *NAMES[4:]]), alice)
    return tournament


def exports(tournament) -> list[str]:
    player = Player.objects.get(name=NAMES[0])
    return [
        reverse("tournaments:standings_csv", args=[tournament.pk]),
        reverse("tournaments:results_csv", args=[tournament.pk]),
        reverse("stats:leaderboard_csv"),
        reverse("stats:player_csv", args=[player.pk]),
    ]


def is_number(cell: str) -> bool:
    """A number as the file writes it: "-1.5", or "-1,5" in the ";"-file."""
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("written_with", [{}, {"sep": "semicolon"}])
def test_no_cell_of_any_export_starts_a_formula_whatever_the_spreadsheet_splits_on(
    client, played, written_with
):
    for url in exports(played):
        response = client.get(url, written_with)
        assert response.status_code == 200
        text = response.content.decode("utf-8-sig")
        for separator in SEPARATORS:
            cells = [
                cell
                for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator)
                for cell in row
            ]
            formulas = [
                cell for cell in cells if cell.startswith(FORMULA_STARTS) and not is_number(cell)
            ]
            assert formulas == [], f"{url} {written_with} split on {separator!r}"


@pytest.mark.parametrize("written_with", [({}, ","), ({"sep": "semicolon"}, ";")])
def test_the_names_are_whole_cells_when_read_with_the_files_own_separator(
    client, played, written_with
):
    query, separator = written_with
    url = reverse("tournaments:standings_csv", args=[played.pk])
    text = client.get(url, query).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))
    names = sorted(row[1] for row in rows[1:])
    # Each name is one cell, the formula in it made inert by a quote mark before it.
    assert names == sorted(
        [
            "x;'=cmd|' /C calc'!A0",
            "y,'+cmd|' /C calc'!A0",
            'z;"\'=HYPERLINK(""http://x"",""y"")"',
            "w; '@SUM(1+1)",
        ]
    )


def test_text_cells_are_quoted_and_numbers_are_not(client, played):
    text = client.get(reverse("tournaments:standings_csv", args=[played.pk])).content
    header, first = text.decode("utf-8-sig").splitlines()[:2]
    assert header.startswith('"Rank","Player","Points",')
    assert first.startswith('1,"')


def test_the_semicolon_file_writes_fractions_with_a_decimal_comma_and_texts_as_they_are():
    for separator, written in (
        (",", '1.5,-0.25,3,"2.5 to go","2026-11-27"'),
        (";", '1,5;-0,25;3;"2.5 to go";"2026-11-27"'),
    ):
        out = io.StringIO()
        SafeWriter(out, separator).writerow([1.5, "-0.25", 3, "2.5 to go", "2026-11-27"])
        assert out.getvalue().strip() == written
