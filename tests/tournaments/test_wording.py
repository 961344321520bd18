"""What a tournament's pages call things, in English and Russian: a tournament has a title
("название") and a venue, a director is not asked to register for their own tournament."""

import pytest
from django.urls import reverse

from tests.tournaments.conftest import enter

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
