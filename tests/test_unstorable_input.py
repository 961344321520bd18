"""A request holding text the database cannot store (a NUL character, which PostgreSQL refuses
in text; a lone surrogate, which is not UTF-8) is refused before anything reads it: a 400 page
that says what is wrong and where, in the visitor's language, never a 500. Wherever the text
is: the address, the query string, a form field (urlencoded or multipart) or a cookie."""

from urllib.parse import urlencode

import pytest
from django.test import RequestFactory
from django.urls import reverse

from config.middleware import unstorable_in
from games.models import Match
from tests.factories import rules_form_data

pytestmark = pytest.mark.django_db

ADDRESS = "The address holds a character the site cannot take (U+0000): check the link."
ADDRESS_RU = "В адресе есть символ, который сайт не принимает (U+0000): проверьте ссылку."
FORM = (
    "The form sent holds a character the site cannot take (U+0000): "
    "remove it and send the form again."
)
COOKIE = (
    "Your browser sent a cookie of this site that holds a character the site cannot take "
    "(U+0000). The site has asked the browser to delete it: reload the page."
)


def refused(response, message: str) -> None:
    """The site's own 400 page, saying `message`."""
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert '<a class="brand"' in page  # the site's page, with its menu


@pytest.mark.parametrize(
    "path",
    [
        "/play/join/%00/",  # an invitation code, looked up in the database
        "/accounts/confirm-email/%00/",  # allauth's e-mail confirmation key, likewise
        "/matches/%00/",
        "/no-such-page/%00",
    ],
)
def test_an_address_with_a_nul_is_refused_with_its_reason(client, path):
    refused(client.get(path), ADDRESS)


def test_the_reason_is_in_the_visitors_language(client):
    response = client.get("/play/join/%00/", headers={"Accept-Language": "ru"})
    refused(response, ADDRESS_RU)
    assert response.headers["Content-Language"] == "ru"
    assert '<html lang="ru">' in response.content.decode()


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/matches/", {"player": "a\x00b"}),
        ("/players/", {"search": "a\x00b"}),
        ("/players/", {"a\x00b": "1"}),  # a field's name too
        ("/play/1/", {"invite": "\x00"}),
    ],
)
def test_a_query_string_with_a_nul_is_refused(client, path, query):
    refused(client.get(path, query), ADDRESS)


def new_match_data(**changes):
    return rules_form_data() | {"player_1": "alice", "player_2": "Dan", "player_3": "Eve"} | changes


def test_a_form_field_with_a_nul_is_refused_and_changes_nothing(client, alice):
    client.force_login(alice)
    url = reverse("games:new_match")
    # The test client posts multipart/form-data, as the outbox's fetch does.
    refused(client.post(url, new_match_data(player_2="D\x00an")), FORM)
    # And as a browser posts a plain form.
    body = urlencode(new_match_data(player_2="D\x00an"))
    response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    refused(response, FORM)
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("url", "data"),
    [
        # Looked up in the database before any form checks it.
        ("account_login", {"login": "ali\x00ce", "password": "x"}),
        ("account_signup", {"username": "zo\x00e", "password1": "a-long-pass-101"}),
        ("account_reset_password", {"email": "a\x00@example.com"}),
    ],
)
def test_the_account_forms_refuse_a_nul(client, url, data):
    refused(client.post(reverse(url), data), FORM)


def test_a_cookie_with_a_nul_is_refused_and_deleted(client, alice):
    client.force_login(alice)
    session = client.cookies["sessionid"].value
    # A NUL travels in a cookie written as an octal escape, "\000", which Django reads back.
    client.cookies["sessionid"] = session + "\x00"
    response = client.get(reverse("home"))
    refused(response, COOKIE)
    deleted = response.cookies["sessionid"]
    assert deleted.value == "" and deleted["max-age"] == 0
    # The browser drops it; the visitor is signed out, and the site works again.
    assert client.get(reverse("home")).status_code == 200


def test_another_cookie_with_a_nul_is_refused_too(client):
    client.cookies["django_language"] = "ru\x00"
    refused(client.get(reverse("home")), COOKIE)


def test_an_htmx_request_gets_the_reason_where_the_page_shows_it(client):
    response = client.get(
        "/matches/", {"player": "a\x00b"}, headers={"HX-Request": "true", "Accept-Language": "ru"}
    )
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#main"
    assert response.headers["HX-Reswap"] == "innerHTML"
    page = response.content.decode()
    assert ADDRESS_RU in page
    assert "<html" not in page  # the part that replaces the page's main content, alone


def test_a_request_with_nothing_wrong_goes_through(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:new_match"), new_match_data(player_2="Дан"))
    assert response.status_code == 302
    assert Match.objects.get().seats.filter(player__name="Дан").exists()


@pytest.mark.parametrize(
    ("text", "code"),
    [("a\x00b", "U+0000"), ("a\ud800b", "U+D800"), ("\udfff", "U+DFFF")],
)
def test_a_lone_surrogate_is_refused_as_well(text, code):
    # A lone surrogate cannot reach Django through UTF-8 (it is not UTF-8), but a JSON body or
    # a future decoder could produce one, and no database stores it: it is checked all the same.
    request = RequestFactory().get("/")
    request.COOKIES["x"] = text
    assert unstorable_in(request) == ("cookie", code)
