"""Bad input in tournaments: a clear message, nothing changed, never a 500."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Player
from tests.conftest import rules_form_data
from tests.tournaments.conftest import enter
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(alice, tournament):
    """Round 1 seated: six guests at two tables of three."""
    enter(tournament, ["G1", "G2", "G3", "G4", "G5", "G6"], alice)
    services.seat_next_round(tournament=tournament, by=alice)
    return tournament


def page_of(response) -> str:
    return response.content.decode()


# --- adding players and directors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Anna", "A\x00B"], "This contains a control character (U+0000)"),
        (["Anna", "A\u200dB"], "A name cannot contain an invisible character (U+200D)."),
        (["Anna\u2066"], "changes the text direction (U+2066)."),
    ],
)
def test_adding_a_name_with_a_hidden_character_adds_no_one(alice, tournament, names, message):
    with pytest.raises(TournamentError, match=re.escape(message)):
        services.add_entrants(tournament=tournament, names=names, by=alice)
    assert not tournament.entrants.exists()
    assert not Player.objects.filter(user=None).exists()  # no guest either


def test_the_add_players_form_says_which_name_is_wrong(client, alice, tournament):
    client.force_login(alice)
    response = client.post(
        reverse("tournaments:players", args=[tournament.pk]),
        {"form": "add", "add-names": "Anna\nBo\u200bris"},
    )
    assert "A name cannot contain an invisible character (U+200B)." in page_of(response)
    assert not tournament.entrants.exists()


def test_a_director_username_with_a_nul_byte_says_so(client, alice, bob, tournament):
    client.force_login(alice)
    url = reverse("tournaments:directors", args=[tournament.pk])
    response = client.post(url, {"username": "b\x00b"})
    assert response.status_code == 200
    assert "This contains a control character (U+0000); remove it." in page_of(response)
    services.add_director(tournament=tournament, username="bob")
    response = client.post(url, {"username": "b\x00b", "action": "remove"})
    assert response.status_code == 302
    assert list(tournament.directors.all()) == [bob]


# --- the tournament form -------------------------------------------------------------------


def form_data(**changes):
    data = rules_form_data() | {
        "name": "Club night",
        "date": "2026-11-22",
        "place": "Club",
        "description": "",
        "rounds_planned": "3",
        "table_size": "4",
        "match_end": "played_out",
        "deals_per_match": "",
        "final_table_size": "",
        "points_4": "3, 2, 1, 0",
        "points_3": "3, 1.5, 0",
        "points_2": "3, 0",
        "tie_break_1": "penalty_total",
    }
    return data | changes


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Club\u200b night"}, "A name cannot contain an invisible character (U+200B)."),
        ({"name": "\u202eClub night"}, "changes the text direction (U+202E)."),
        ({"place": "Club\x07"}, "This contains a control character (U+0007); remove it."),
        ({"place": "Club\nHall"}, "This contains a control character (U+000A); remove it."),
        ({"description": "Bring\x1b cards"}, "This contains a control character (U+001B)"),
    ],
)
def test_a_tournament_form_with_hidden_characters_is_refused(client, alice, changes, message):
    client.force_login(alice)
    response = client.post(reverse("tournaments:new"), form_data(**changes))
    assert response.status_code == 200
    assert message in page_of(response)
    assert not Tournament.objects.exists()


def test_a_description_keeps_its_lines_and_tabs(client, alice):
    client.force_login(alice)
    client.post(reverse("tournaments:new"), form_data(description="Start 19:00\r\n\tBring cards"))
    assert Tournament.objects.get().description == "Start 19:00\r\n\tBring cards"


# --- importing players ---------------------------------------------------------------------


def import_file(client, tournament, content: bytes):
    upload = SimpleUploadedFile("players.csv", content)
    return client.post(
        reverse("tournaments:players", args=[tournament.pk]),
        {"form": "import", "import-file": upload},
        follow=True,
    )


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"], ids=["CR", "LF", "CRLF"])
def test_a_csv_with_any_line_ending_is_read(client, alice, tournament, newline):
    client.force_login(alice)
    text = newline.join(["name,checked_in", "Anna,yes", "Boris,no", ""])
    response = import_file(client, tournament, text.encode())
    assert "2 players imported." in page_of(response)
    assert {(e.player.name, e.checked_in) for e in tournament.entrants.all()} == {
        ("Anna", True),
        ("Boris", False),
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "The submitted file is empty."),
        (b"name\n", "The file has no players in it."),
        (b"\n \n", "The file has no players in it."),
        (b"PK\x03\x04\x14\x00\x06\x00", "This is not a CSV text file (a spreadsheet?)"),
        ("name\nAnna\n".encode("utf-16-le"), "This is not a CSV text file (a spreadsheet?)"),
        ("name\nВера\n".encode("cp1251"), "The file is not UTF-8 text"),
        (b'name\nAnna\n"' + b"x" * 140_000 + b'"\n', "Line 3 cannot be read"),
        (b'name\nAnna\n"Boris\nVera\n', "Line 3: a name runs over several lines"),
        (b"name\n\nAnna\n\nB\x01ob\n", "Line 5: This contains a control character (U+0001)"),
        ("name\rAnna\rBo\u200bris\r".encode(), "Line 3: A name cannot contain an invisible"),
        ("Anna\n\u202eBoris\n".encode(), "Line 2: A name cannot contain a character that"),
    ],
    ids=[
        "empty",
        "header only",
        "blank",
        "binary",
        "utf-16",
        "cp1251",
        "huge cell",
        "open quote",
        "control",
        "zero width",
        "direction",
    ],
)
def test_a_file_that_cannot_be_read_says_why_and_adds_no_one(
    client, alice, tournament, content, message
):
    client.force_login(alice)
    response = import_file(client, tournament, content)
    assert response.status_code == 200
    assert message in page_of(response)
    assert not tournament.entrants.exists()


def test_the_import_service_checks_names_itself(alice, tournament):
    with pytest.raises(TournamentError, match=r"Line 3: This contains a control character"):
        services.import_entrants(tournament=tournament, text="name\nAnna\nA\x00B\n", by=alice)
    assert not tournament.entrants.exists()
    assert not Player.objects.filter(user=None).exists()  # no guest either
