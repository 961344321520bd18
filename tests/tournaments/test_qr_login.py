"""A player scans their table's QR code signed out: the sheet sends them to log in, and logging
in brings them back to the sheet, ready to keep score."""

import html
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import enter
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def carols_sheet(alice, carol, tournament):
    enter(tournament, ["carol", "G1", "G2", "G3"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    return round_.tables.get().match.get_absolute_url()


def links_named(page: str, text: str) -> list[str]:
    return [
        html.unescape(href)
        for href, label in re.findall(r'<a[^>]* href="([^"]*)"[^>]*>([^<]*)</a>', page)
        if label.strip() == text
    ]


def log_in_from(client, login_url: str, username: str, password: str):
    """Open the login page as linked, and post the form with what it carries (`next`)."""
    page = client.get(login_url).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    data = {k: html.unescape(v) for k, v in hidden.items() if k != "csrfmiddlewaretoken"}
    return client.post(reverse("account_login"), data | {"login": username, "password": password})


@pytest.mark.parametrize("link", ["Log in to keep score", "Log in"])
def test_logging_in_from_a_scanned_sheet_comes_back_to_the_sheet(client, carols_sheet, link):
    page = client.get(carols_sheet).content.decode()
    assert "Only the players at this table and the tournament" in page
    [login_url] = links_named(page, link)
    response = log_in_from(client, login_url, "carol", "carol-password")
    assert response.status_code == 302
    assert response["Location"] == carols_sheet
    sheet = client.get(response["Location"]).content.decode()
    assert "Save round" in sheet


def test_the_sheet_asks_to_log_in_in_russian(client, carols_sheet):
    page = client.get(carols_sheet, headers={"Accept-Language": "ru"}).content.decode()
    [login_url] = links_named(page, "Войдите, чтобы вести счёт")
    assert login_url.endswith("?next=" + carols_sheet)


def test_a_signed_in_visitor_is_not_asked_to_log_in(client, carols_sheet, dave):
    client.force_login(dave)
    page = client.get(carols_sheet).content.decode()
    assert links_named(page, "Log in to keep score") == []


def test_the_login_page_links_to_itself_without_a_next_of_its_own(client):
    page = client.get(reverse("account_login") + "?next=/matches/1/").content.decode()
    assert links_named(page, "Log in") == [reverse("account_login")]
