"""Names that look alike are alike: each is kept in one form (NFKC, single spaces), and one
holding an invisible or blank character (a soft hyphen, a Hangul filler, the braille blank,
...) is refused, naming the character, wherever a name is typed: the new score sheet, a
tournament's players (typed or imported), sign-up, an account looked up by its username. The
joiners and selectors that belong to an emoji stay; so do every script's letters."""

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Match, Player
from tests.factories import rules_form_data
from tests.tournaments.factories import make_tournament, read_file

pytestmark = pytest.mark.django_db

# Characters that show nothing, or a blank, inside "Anna".
HIDDEN = [
    "\u00ad",  # soft hyphen
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\uffa0",  # halfwidth Hangul filler
    "\u034f",  # combining grapheme joiner
    "\u2063",  # invisible separator
    "\u2800",  # braille pattern blank
    "\u180e",  # Mongolian vowel separator
    "\u200d",  # zero width joiner, between letters
    "\ufe0f",  # variation selector, after a letter
    "\U000e0041",  # tag letter A
    "\u2028",  # line separator
]
# Names that differ from "Anna B" only by what they hold besides its letters and one space.
SAME_AS_ANNA_B = ["Ａｎｎａ Ｂ", "Anna\u00a0B", "Anna  B", " Anna B ", "Anna\u3000B", "Anna\u2007B"]
# Names of every kind that are fine, as typed (NFKC leaves them as they are).
FINE = ["Ёлка", "Zoë", "José", "李雷", "👨‍👩‍👧", "❤️ Anna", "🏴󠁧󠁢󠁥󠁮󠁧󠁿 fan", "👍🏽 Dan", "🇷🇺 Иван", "1️⃣ Eve"]


def code(char: str) -> str:
    return f"U+{ord(char):04X}"


def new_match(client, *names):
    data = rules_form_data() | {f"player_{n}": name for n, name in enumerate(names, start=1)}
    return client.post(reverse("games:new_match"), data)


# --- the new score sheet -------------------------------------------------------------------


@pytest.mark.parametrize("char", HIDDEN, ids=code)
def test_a_player_name_with_an_invisible_or_blank_character_is_refused(client, alice, char):
    client.force_login(alice)
    response = new_match(client, "alice", "Anna", f"An{char}na")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"({code(char)})" in page
    assert "A name cannot contain" in page
    assert not Match.objects.exists()


@pytest.mark.parametrize("lookalike", SAME_AS_ANNA_B)
def test_a_name_written_another_way_is_the_same_name_at_the_table(client, alice, lookalike):
    client.force_login(alice)
    response = new_match(client, "alice", "Anna B", lookalike)
    assert response.status_code == 200
    assert "Anna B is already at this table" in response.content.decode()
    assert not Match.objects.exists()


def test_a_heart_with_or_without_its_emoji_selector_is_one_name(client, alice):
    client.force_login(alice)
    response = new_match(client, "alice", "❤ Anna", "❤️ Anna")
    assert "is already at this table" in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize(("typed", "kept"), [("Ａｎｎａ", "Anna"), ("Anna\u00a0\u00a0B", "Anna B")])
def test_a_name_is_kept_in_its_one_form(client, alice, typed, kept):
    client.force_login(alice)
    assert new_match(client, "alice", typed).status_code == 302
    assert list(Match.objects.get().seats.values_list("player__name", flat=True)) == [
        "alice",
        kept,
    ]


def test_names_of_every_script_and_emoji_are_kept_as_typed(client, alice):
    client.force_login(alice)
    typed = [*FINE, "Zoe\u0308"]  # the last one's ë typed as e and a combining diaeresis
    for first in range(0, len(typed), 3):
        assert new_match(client, "alice", *typed[first : first + 3]).status_code == 302
    kept = set(Player.objects.filter(user=None).values_list("name", flat=True))
    assert kept == {unicodedata.normalize("NFKC", name) for name in typed}
    assert kept == set(FINE)  # NFKC left them as typed (the decomposed Zoë is Zoë)


# --- a tournament's players ----------------------------------------------------------------


@pytest.fixture
def tournament(alice):
    return make_tournament(alice)


def add_players(client, tournament, names: str):
    return client.post(
        reverse("tournaments:players", args=[tournament.pk]),
        {"form": "add", "add-names": names},
        follow=True,
    )


def test_a_tournament_takes_a_lookalike_once(client, alice, tournament):
    client.force_login(alice)
    page = add_players(client, tournament, "Anna B\nＡｎｎａ　Ｂ\nAnna\u00a0B").content.decode()
    assert "Skipped, entered already or listed twice: Anna B, Anna B." in page
    assert [e.player.name for e in tournament.entrants.all()] == ["Anna B"]


@pytest.mark.parametrize("char", ["\u3164", "\u00ad", "\u2800"], ids=code)
def test_a_tournament_refuses_a_name_with_a_hidden_character_naming_it(
    client, alice, tournament, char
):
    client.force_login(alice)
    page = add_players(client, tournament, f"Boris\nAnna{char}").content.decode()
    assert f"({code(char)})" in page  # the character typed, not what NFKC makes of it
    assert not tournament.entrants.exists()


def test_an_imported_list_is_read_in_the_one_form_and_refuses_hidden_characters(
    client, alice, tournament
):
    client.force_login(alice)
    page = read_file(client, tournament, "name\nＡｎｎａ\nZoë\n".encode()).content.decode()
    assert "<li>Anna</li>" in page and "<li>Zoë</li>" in page
    page = read_file(client, tournament, "name\nAnna\nBo\u3164ris\n".encode()).content.decode()
    assert "Line 3: A name cannot contain an invisible character (U+3164)." in page
    assert not tournament.entrants.exists()


# --- accounts ------------------------------------------------------------------------------


def signup(client, username):
    return client.post(
        reverse("account_signup"),
        {"username": username, "password1": "a-long-pass-101", "password2": "a-long-pass-101"},
    )


def test_a_fullwidth_username_signs_up_as_its_plain_letters(client):
    assert signup(client, "Ｚｏｅ").status_code == 302
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["Zoe"]


def test_a_lookalike_of_a_username_is_taken(client, alice):
    response = signup(client, "ａｌｉｃｅ")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("char", ["\u3164", "\uffa0", "\u115f", "\u00ad"], ids=code)
def test_a_username_with_a_hidden_character_is_refused_naming_it(client, char):
    response = signup(client, f"zoe{char}")
    assert response.status_code == 200
    assert f"A name cannot contain an invisible character ({code(char)})." in (
        response.content.decode()
    )
    assert not get_user_model().objects.exists()


def test_a_username_of_any_script_still_signs_up(client):
    assert signup(client, "Ёлка").status_code == 302
    assert get_user_model().objects.get().username == "Ёлка"


def test_a_scorekeeper_is_found_by_a_lookalike_of_their_username(client, alice, bob, match):
    client.force_login(alice)
    response = client.post(reverse("games:scorekeepers", args=[match.pk]), {"username": "ｂｏｂ"})
    assert response.status_code == 302
    assert list(match.scorekeepers.all()) == [bob]
