"""A director who types a registered player's username (dave, who has never confirmed one of
alice's guests): a guest of that name is entered until the player confirms it is them. The
director is told at once; the player is asked where they look (the home page, the tournament's
page, their table) and answers in one tap, after which the seat, and keeping its score, are
theirs."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from claims.models import Claim
from games.models import Seat
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def add(client, tournament, names: str):
    url = reverse("tournaments:players", args=[tournament.pk])
    return client.post(url, {"form": "add", "add-names": names, "add-checked_in": "on"})


@pytest.fixture
def seated(client, alice, dave):
    """alice, directing, typed dave's username with three guests; round 1 is seated."""
    tournament = make_tournament(alice)
    client.force_login(alice)
    response = add(client, tournament, "Anna\nBoris\nVera\ndave")
    shown = [str(message) for message in get_messages(response.wsgi_request)]
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    return tournament, round_.tables.get().match, shown


def test_the_director_is_told_at_once_that_an_account_waits_to_confirm(seated):
    _tournament, _match, shown = seated
    assert (
        "dave has an account: a guest of that name is entered until they confirm it is them, "
        "which their home page, this tournament's page and their table ask them to do in one "
        "tap. Until then their results do not count on their record."
    ) in shown


def test_a_name_that_is_no_account_says_nothing_of_accounts(client, alice):
    tournament = make_tournament(alice)
    client.force_login(alice)
    response = add(client, tournament, "Anna\nBoris")
    shown = " ".join(str(message) for message in get_messages(response.wsgi_request))
    assert "account" not in shown


def test_the_player_is_asked_on_the_home_page_the_tournament_page_and_at_the_table(
    client, seated, dave
):
    tournament, match, _shown = seated
    link = Claim.objects.get(kind=Claim.Kind.LINK, user=dave)
    decide = reverse("claims:claim_decide", args=[link.pk])
    client.force_login(dave)
    for page in ("/", tournament.get_absolute_url(), match.get_absolute_url()):
        body = client.get(page).content.decode()
        assert "Are you “dave”?" in body, page
        assert "alice seated “dave” for your account." in body, page
        assert f'action="{decide}"' in body, page
        assert 'name="decision" value="approve"' in body, page
    # Not offered to register for the tournament they are entered in.
    body = client.get(tournament.get_absolute_url()).content.decode()
    assert "Register for this tournament" not in body
    # The home page links the table.
    assert f'href="{match.get_absolute_url()}"' in client.get("/").content.decode()
    russian = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Это вы — «dave»?" in russian
    assert "Подтвердить: это я" in russian


def test_one_tap_makes_the_seat_theirs_and_they_keep_the_tables_score(client, seated, dave):
    _tournament, match, _shown = seated
    link = Claim.objects.get(kind=Claim.Kind.LINK, user=dave)
    client.force_login(dave)
    before = client.get(match.get_absolute_url()).content.decode()
    assert 'id="round-form"' not in before  # a guest's seat: not theirs to keep
    response = client.post(
        reverse("claims:claim_decide", args=[link.pk]),
        {"decision": "approve", "next": match.get_absolute_url()},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == match.get_absolute_url()
    body = response.content.decode()
    assert "Confirmed: you are “dave”, and the seats and results are yours." in body
    assert "Are you “dave”?" not in body
    assert 'id="round-form"' in body
    assert Seat.objects.get(match=match, player__user=dave)
    home = client.get("/").content.decode()
    assert "Are you “dave”?" not in home
    assert match.get_absolute_url() in home  # "your table now"


def test_nobody_else_sees_the_request(client, seated, bob):
    tournament, match, _shown = seated
    client.force_login(bob)
    for page in ("/", tournament.get_absolute_url(), match.get_absolute_url()):
        assert "Are you “dave”?" not in client.get(page).content.decode()
    client.logout()
    assert "Are you “dave”?" not in client.get(tournament.get_absolute_url()).content.decode()


def test_a_player_entered_as_themselves_is_asked_nothing(client, alice, dave):
    tournament = make_tournament(alice)
    services.register(tournament=tournament, user=dave)
    enter(tournament, ["Anna", "Boris", "Vera"], alice)
    client.force_login(dave)
    assert "Are you" not in client.get("/").content.decode()
    assert "You are registered." in client.get(tournament.get_absolute_url()).content.decode()
