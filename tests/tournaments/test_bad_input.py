"""Bad input in tournaments: a clear message, nothing changed, never a 500."""

import re

import pytest
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
