"""A player's name or hidden flag changed in the admin shows on the pages cached with names,
as one changed by its owner does."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_match

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden player"


def admin_saves(staff: Client, player, **changes) -> None:
    data = {
        "name": player.name,
        "user": player.user_id or "",
        "added_by": player.added_by_id or "",
        "private": "on" if player.private else "",
        "is_bot": "on" if player.is_bot else "",
    }
    data.update(changes)
    data = {key: value for key, value in data.items() if value != ""}
    response = staff.post(reverse("admin:games_player_change", args=[player.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_hiding_or_renaming_a_player_in_the_admin_reaches_the_cached_pages(bob, django_user_model):
    match = make_match(bob, ["bob", "Anna", "Vera"])  # bob's own table: his account's player
    visitor = Client()
    sheet = match.get_absolute_url()
    assert "bob" in visitor.get(sheet).content.decode()  # and cached with the names version
    staff = Client()
    staff.force_login(
        django_user_model.objects.create_user("sam", is_staff=True, is_superuser=True)
    )
    admin_saves(staff, bob.player, private="on")
    page = visitor.get(sheet).content.decode()
    assert "bob" not in page and HIDDEN in page
    guest = match.seats.get(player__name="Anna").player
    admin_saves(staff, guest, name="Anya")
    page = visitor.get(sheet).content.decode()
    assert "Anya" in page and "Anna" not in page
