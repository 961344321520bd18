"""What a tournament's pages call things, in English and Russian: a tournament has a title
("название") and a venue, a director is not asked to register for their own tournament."""

import pytest
from django.urls import reverse

from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

RUSSIAN = {"Accept-Language": "ru"}


def label_of(page: str, field: str) -> str:
    start = page.index(f'<label for="id_{field}"')
    return page[page.index(">", start) + 1 : page.index("</label>", start)].strip()


def test_the_tournament_form_asks_for_a_title_and_a_venue_in_russian(client, alice):
    client.force_login(alice)
    page = client.get(reverse("tournaments:new"), headers=RUSSIAN).content.decode()
    assert label_of(page, "name") == "Название"
    assert label_of(page, "place") == "Место проведения"


def test_the_tournament_form_in_english_is_unchanged(client, alice):
    client.force_login(alice)
    page = client.get(reverse("tournaments:new")).content.decode()
    assert label_of(page, "name") == "Name"
    assert label_of(page, "place") == "Place"


def test_a_director_is_not_asked_to_register_for_their_own_tournament(client, alice, bob):
    tournament = make_tournament(alice)
    services.add_director(tournament=tournament, username="bob")
    players = reverse("tournaments:players", args=[tournament.pk])
    for director in (alice, bob):
        client.force_login(director)
        page = client.get(tournament.get_absolute_url()).content.decode()
        assert "Register for this tournament" not in page
        assert (
            "You direct this tournament. To play in it too, add yourself on the "
            f'<a href="{players}">players page</a>.' in page
        )
    russian = client.get(tournament.get_absolute_url(), headers=RUSSIAN).content.decode()
    assert "Вы директор этого турнира. Чтобы и сыграть в нём, добавьте себя" in russian


def test_a_director_who_plays_is_told_they_are_registered(client, alice):
    tournament = make_tournament(alice)
    enter(tournament, ["alice"], alice)
    client.force_login(alice)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "You are registered." in page
    assert "You direct this tournament" not in page


def test_anyone_else_may_still_register(client, alice, carol):
    tournament = make_tournament(alice)
    client.force_login(carol)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Register for this tournament" in page
    assert "You direct this tournament" not in page


def test_the_directors_page_counts_the_players_in_russian(client, alice):
    tournament = make_tournament(alice)
    enter(tournament, ["G1", "G2"], alice)
    client.force_login(alice)
    response = client.get(tournament.get_absolute_url(), headers=RUSSIAN)
    assert response.status_code == 200
    assert "Записано 2 игрока" in response.content.decode()
