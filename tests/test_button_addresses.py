"""An address only a form's button posts to, opened as a page (a copied link, a bookmark, the
back button): a page that says so and leads back, in the reader's language, never a blank
405; and nothing is done."""

import pytest
from django.urls import reverse

from games.models import Match
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_a_buttons_address_opened_as_a_page_says_so_and_does_nothing(client, alice):
    match = make_match(alice, ["alice", "Bo", "Cy"])
    client.force_login(alice)
    url = reverse("games:leave", args=[match.pk])
    response = client.get(
        url, HTTP_REFERER=f"http://testserver{match.get_absolute_url()}", HTTP_HOST="testserver"
    )
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert "<h1>A button's address</h1>" in page
    assert f'href="http://testserver{match.get_absolute_url()}"' in page
    assert Match.objects.filter(pk=match.pk).exists()
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<h1>Адрес кнопки</h1>" in russian
    assert 'href="/"' in russian  # no page to go back to: the home page


def test_an_htmx_request_and_a_post_are_answered_as_before(client, alice):
    url = reverse("claims:claim_withdraw", args=[1])
    client.force_login(alice)
    assert client.get(url, HTTP_HX_REQUEST="true").content == b""
    assert client.put(url).content == b""
