"""Bad input on the score sheet and the accounts: a clear message, nothing changed, never a 500."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Entry, Match
from tests.factories import rules_form_data

pytestmark = pytest.mark.django_db

# --- the new match form --------------------------------------------------------------------


def new_match_data(**changes):
    data = rules_form_data() | {"player_1": "alice", "player_2": "Dan", "player_3": "Eve"}
    return data | changes


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Dan\u200b", "A name cannot contain an invisible character (U+200B)."),
        ("\u202eDan", "changes the text direction (U+202E)."),
        ("D\x01an", "This contains a control character (U+0001); remove it."),
    ],
)
def test_a_player_name_with_a_hidden_character_is_refused(client, alice, name, message):
    client.force_login(alice)
    response = client.post(reverse("games:new_match"), new_match_data(player_2=name))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


# --- the round form ------------------------------------------------------------------------


def post_round(client, match, *outcomes):
    data = {"number": "1", "action": "save"}
    for position, (kind, value) in enumerate(outcomes):
        data[f"s{position}-kind"] = kind
        data[f"s{position}-{'points' if kind == 'points' else 'cards'}"] = value
    return client.post(reverse("games:round_new", args=[match.pk]), data)


def test_cards_with_a_control_character_say_which(client, alice, match):
    client.force_login(alice)
    response = post_round(client, match, ("out", "Q♠"), ("hand", "9h\x01"), ("points", "17"))
    page = response.content.decode()
    assert "This contains a control character (U+0001); remove it." in page
    # The one problem, said once: not also "enter the cards left".
    assert "Enter the cards left" not in page
    assert not Entry.objects.exists()


# --- scorekeepers --------------------------------------------------------------------------


def test_a_scorekeeper_username_with_a_nul_byte_says_so(client, alice, match):
    # Refused before the view (config/middleware.py): PostgreSQL cannot look it up.
    client.force_login(alice)
    url = reverse("games:scorekeepers", args=[match.pk])
    nul = "The form sent holds a character the site cannot take (U+0000)"
    response = client.post(url, {"username": "b\x00b"})
    assert response.status_code == 400
    assert nul in response.content.decode()
    response = client.post(url, {"username": "b\x00b", "action": "remove"})
    assert response.status_code == 400
    assert not match.scorekeepers.exists()


# --- accounts ------------------------------------------------------------------------------


def signup(client, username):
    return client.post(
        reverse("account_signup"),
        {"username": username, "password1": "a-long-pass-101", "password2": "a-long-pass-101"},
    )


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("zo\u202ee", "A name cannot contain a character that changes the text direction"),
        ("zo\u200be", "A name cannot contain an invisible character (U+200B)."),
        ("zo\x01e", "This contains a control character (U+0001); remove it."),
    ],
)
def test_a_username_with_a_hidden_character_is_refused_with_its_reason(client, username, message):
    response = signup(client, username)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_username_still_follows_djangos_rule(client):
    response = signup(client, "zoe smith")
    assert "Enter a valid username." in response.content.decode()
    assert not get_user_model().objects.exists()


def test_logging_in_with_a_nul_byte_in_the_username_says_so(client, alice):
    # Refused before allauth looks the account up (config/middleware.py).
    response = client.post(reverse("account_login"), {"login": "ali\x00ce", "password": "x"})
    assert response.status_code == 400
    assert "The form sent holds a character the site cannot take (U+0000)" in (
        response.content.decode()
    )


# --- numbers out of range ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("1e308", "Enter a whole number."),
        ("nan", "Enter a whole number."),
        ("inf", "Enter a whole number."),
        ("99999999999999999999", "That is far more points than a deck holds."),
        ("-99999999999999999999", "That is far more points than a deck holds."),
    ],
)
def test_points_out_of_range_are_refused(client, alice, match, points, message):
    client.force_login(alice)
    response = post_round(client, match, ("out", "Q♠"), ("hand", "9h"), ("points", points))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Entry.objects.exists()


def test_a_version_or_round_id_out_of_range_saves_nothing(client, alice, match):
    client.force_login(alice)
    data = {"version": "99999999999999999999", "action": "save"}
    for position, cards in enumerate(["Q♠", "9h", "10h"]):
        data |= {f"s{position}-kind": "out" if position == 0 else "hand"}
        data |= {f"s{position}-cards": cards}
    response = client.post(reverse("games:round_new", args=[match.pk]), data, follow=True)
    assert "The sheet changed while you were entering this round" in response.content.decode()
    assert not Entry.objects.exists()
    huge = 99999999999999999999
    response = client.get(reverse("games:round_edit", args=[match.pk, huge]), follow=True)
    assert "This round has been deleted, so it cannot be changed." in response.content.decode()
    response = client.post(reverse("games:round_delete", args=[match.pk, huge]), follow=True)
    assert "This round has already been deleted." in response.content.decode()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("99999999999999999999", "Ensure this value is less than or equal to"),
        ("1e308", "Enter a whole number."),
        ("nan", "Enter a whole number."),
    ],
)
def test_a_rules_number_out_of_range_is_refused(client, alice, value, message):
    client.force_login(alice)
    response = client.post(reverse("games:new_match"), new_match_data(lose_over=value))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()
