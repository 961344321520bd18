"""Bad input in tournaments: a clear message, nothing changed, never a 500."""

import csv
import re

import pytest
from django.urls import reverse

from games.models import Match, Player
from tests.factories import at_once, record, rules_form_data
from tests.tournaments.factories import enter, import_file, make_tournament
from tournaments import services
from tournaments.models import Tournament, TournamentRound
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
    # Refused before the view (config/middleware.py): PostgreSQL cannot look it up.
    client.force_login(alice)
    url = reverse("tournaments:directors", args=[tournament.pk])
    response = client.post(url, {"username": "b\x00b"})
    assert response.status_code == 400
    assert "The form sent holds a character the site cannot take (U+0000)" in page_of(response)
    services.add_director(tournament=tournament, username="bob")
    response = client.post(url, {"username": "b\x00b", "action": "remove"})
    assert response.status_code == 400
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
        # Excel's "CSV" in Russian is Windows-1251: read, but the control character is not.
        ("name\nВера\nГ\x01леб\n".encode("cp1251"), "Line 3: This contains a control character"),
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


# --- next ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "foo",  # taken for a view name by redirect(): NoReverseMatch
        "games:match",
        "javascript:alert(1)",
        "https://evil.example/",
        "//evil.example/",
        "http://testserver.evil.example/",
    ],
)
def test_a_next_that_is_not_a_page_here_goes_back_to_the_tournament(client, alice, seated, target):
    client.force_login(alice)
    url = reverse("tournaments:swap", args=[seated.pk, 1])
    response = client.post(url, {"first": "x", "next": target})
    assert response.status_code == 302
    assert response["Location"] == seated.get_absolute_url()
    assert "Choose two different players" in page_of(client.get(response["Location"]))


def test_a_next_on_this_site_is_followed(client, alice, seated):
    client.force_login(alice)
    target = reverse("tournaments:players", args=[seated.pk])
    response = client.post(reverse("tournaments:swap", args=[seated.pk, 1]), {"next": target})
    assert response["Location"] == target


# --- numbers out of range ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"points_4": "1e308, 2, 1, 0"}, "A place gives at most 1000 tournament points."),
        ({"points_2": "1001, 0"}, "A place gives at most 1000 tournament points."),
        ({"points_4": "inf, 2, 1, 0"}, "Give 4 numbers from the best place to the worst"),
        ({"points_3": "nan, 1, 0"}, "Give 3 numbers from the best place to the worst"),
        ({"points_2": "1e400, 0"}, "Give 2 numbers from the best place to the worst"),
        ({"rounds_planned": "99999999999999999999"}, "A tournament has 1 to 20 rounds."),
        ({"rounds_planned": "1e308"}, "Enter a whole number."),
        (
            {"match_end": "deals", "deals_per_match": "99999999999999999999"},
            "Give the number of deals, from 1 to 100.",
        ),
        ({"final_table_size": "99999999999999999999"}, "A final table seats 2 to 4 players."),
        ({"final_table_size": "nan"}, "Enter a whole number."),
    ],
)
def test_a_tournament_form_number_out_of_range_is_refused(client, alice, changes, message):
    client.force_login(alice)
    response = client.post(reverse("tournaments:new"), form_data(**changes))
    assert response.status_code == 200
    assert message in page_of(response)
    assert not Tournament.objects.exists()


def test_a_clock_out_of_range_is_refused(client, alice, seated):
    client.force_login(alice)
    url = reverse("tournaments:clock", args=[seated.pk, 1])
    for minutes in ["99999999999999999999", "nan", "inf", "1e308"]:
        response = client.post(url, {"minutes": minutes}, follow=True)
        assert "The round clock runs for 1 to 600 minutes." in page_of(response)
    assert not seated.rounds.get().clock_started_at


# --- ids from form data --------------------------------------------------------------------


@pytest.mark.parametrize("first", ["99999999999999999999", "9223372036854775808", "0", "-1"])
def test_a_swap_with_an_id_out_of_range_says_so(client, alice, seated, first):
    client.force_login(alice)
    second = str(Player.objects.get(name="G1").pk)
    seats = sorted(Match.objects.values_list("seats__player__name", "seats__position"))
    response = client.post(
        reverse("tournaments:swap", args=[seated.pk, 1]),
        {"first": first, "second": second},
        follow=True,
    )
    assert "Choose two different players of this round." in page_of(response)
    assert sorted(Match.objects.values_list("seats__player__name", "seats__position")) == seats


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tournaments:detail", ["HUGE"]),
        ("tournaments:round", ["PK", "HUGE"]),
        ("tournaments:cards", ["PK", "HUGE"]),
        ("tournaments:entrant", ["PK", "HUGE"]),
        ("tournaments:close_table", ["PK", "1", "HUGE"]),
        ("tournaments:reseat", ["PK", "HUGE"]),
    ],
)
def test_a_number_out_of_range_in_a_url_is_not_found(client, alice, seated, name, args):
    client.force_login(alice)
    huge = "99999999999999999999"
    url = reverse(name, args=[{"HUGE": huge, "PK": seated.pk}.get(a, a) for a in args])
    # Pages are read (a post to one is refused, 405), forms posted.
    pages = {"tournaments:detail", "tournaments:round", "tournaments:cards"}
    response = client.get(url) if name in pages else client.post(url)
    assert response.status_code == 404


# --- seating again twice at once -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_directors_seating_a_round_again_at_once_make_one_seating(alice, bob):
    tournament = make_tournament(alice)
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, [f"P{i}" for i in range(12)], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)

    def reseat(user):
        return lambda: services.reseat_round(round_=round_, by=user)

    results = at_once(reseat(alice), reseat(bob))
    outcomes = [str(r) if isinstance(r, TournamentError) else "seated again" for r in results]
    assert sorted(outcomes) == [
        "This round has just been seated again by someone else.",
        "seated again",
    ]
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    assert Match.objects.filter(table__round__tournament=tournament).count() == 3


# --- CSV exports ---------------------------------------------------------------------------

HYPERLINK = '=HYPERLINK("http://x","y")'


@pytest.fixture
def played(alice, tournament):
    """One table of three, finished: the HYPERLINK player went out with Q♥ (a total of -20)."""
    enter(tournament, [HYPERLINK, "Boris", "Vera"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    table = round_.tables.get()
    outcomes = {HYPERLINK: {"out": "QH"}, "Boris": {"hand": "6C"}, "Vera": {"hand": "7C"}}
    record(table.match, alice, outcomes)
    services.close_table(table=table, by=alice)
    return tournament


def csv_rows(client, url) -> list[list[str]]:
    text = client.get(url).content.decode().lstrip("\ufeff")
    return list(csv.reader(text.splitlines()))


def test_the_standings_csv_writes_a_formula_name_inert_and_numbers_as_numbers(client, played):
    rows = csv_rows(client, reverse("tournaments:standings_csv", args=[played.pk]))
    assert rows[0][1] == "Player" and rows[0][5] == "Total penalty points (fewer is better)"
    line = next(row for row in rows if "HYPERLINK" in row[1])
    assert line[1] == "'" + HYPERLINK
    assert line[5] == "-20"


def test_the_results_csv_writes_a_formula_name_inert_and_numbers_as_numbers(client, played):
    rows = csv_rows(client, reverse("tournaments:results_csv", args=[played.pk]))
    assert rows[0][3] == "Player" and rows[0][6] == "Total"
    line = next(row for row in rows if "HYPERLINK" in row[3])
    assert line[3] == "'" + HYPERLINK
    assert line[6] == "-20"


def test_the_results_csv_says_in_russian_that_a_tables_game_is_over(client, played):
    url = reverse("tournaments:results_csv", args=[played.pk])
    text = client.get(url, headers={"Accept-Language": "ru"}).content.decode("utf-8-sig")
    header = next(csv.reader(text.splitlines()))
    assert header[-1] == "Игра окончена"


def test_a_refresh_of_a_tournament_that_is_not_there_is_not_found(client):
    huge = "99999999999999999999"
    for url in (f"/tournaments/{huge}/", f"/tournaments/{huge}/projector/", "/tournaments/424242/"):
        response = client.get(url, {"v": "1"}, headers={"HX-Request": "true"})
        assert response.status_code == 404
