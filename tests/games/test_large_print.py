"""Large print: an account's setting, switched at the foot of every page or on one's profile,
and `?large=1` for a browser (a guest, a club's shared phone); either marks every page
`<html class="large">` (games/large_print.py)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Player
from tests.factories import make_match

pytestmark = pytest.mark.django_db

SWITCH = reverse("games:large_print")


def is_large(response) -> bool:
    """Whether the page came marked for large print: its <html> element's class."""
    html = re.search(r"<html[^>]*>", response.content.decode())
    assert html, "not a whole page"
    return 'class="large"' in html.group()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_service_keeps_the_accounts_choice(alice):
    services.set_large_print(user=alice, large=True)
    assert Player.objects.get(user=alice).large_print
    services.set_large_print(user=alice, large=False)
    assert not Player.objects.get(user=alice).large_print


def test_pages_are_normal_unless_someone_asks(client, alice, match):
    assert not is_large(client.get(match.get_absolute_url()))
    assert not is_large(signed_in(alice).get(match.get_absolute_url()))


def test_a_person_with_the_setting_reads_every_page_in_large_print(alice, match):
    services.set_large_print(user=alice, large=True)
    client = signed_in(alice)  # at login, the setting is read once
    for path in (match.get_absolute_url(), reverse("home"), reverse("tournaments:list")):
        assert is_large(client.get(path)), path


def test_large_1_turns_it_on_for_the_browser_and_the_next_pages_stay_large(client, match):
    response = client.get(match.get_absolute_url() + "?large=1")
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert is_large(client.get(match.get_absolute_url()))
    assert is_large(client.get(reverse("tournaments:list")))

    client.get(reverse("home") + "?large=0")
    assert not is_large(client.get(match.get_absolute_url()))


def test_large_1_keeps_the_rest_of_the_address(client):
    response = client.get(reverse("games:match_list") + "?show=recent&large=1")
    assert response["Location"] == reverse("games:match_list") + "?show=recent"


def test_another_browser_is_not_large(client, match):
    client.get(match.get_absolute_url() + "?large=1")
    assert not is_large(Client().get(match.get_absolute_url()))


def test_a_guest_is_offered_a_link_and_the_way_back(client, match):
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'href="{match.get_absolute_url()}?large=1"' in page
    assert "Large print</a>" in page and "Large print is on." not in page

    client.get(match.get_absolute_url() + "?large=1")
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'href="{match.get_absolute_url()}?large=0"' in page
    assert "Large print is on." in page and "Normal print</a>" in page


def test_the_switch_is_in_russian_for_a_russian_reader(client, match):
    page = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Крупный шрифт</a>" in page


def test_a_person_switches_it_on_for_their_account_and_comes_back_to_the_page(alice, match):
    client = signed_in(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="large" value="1"' in page and "Large print" in page

    response = client.post(SWITCH, {"large": "1", "next": match.get_absolute_url()})
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert Player.objects.get(user=alice).large_print
    page = client.get(match.get_absolute_url())
    assert is_large(page) and 'name="large" value="0"' in page.content.decode()

    client.post(SWITCH, {"large": "0", "next": match.get_absolute_url()})
    assert not Player.objects.get(user=alice).large_print
    assert not is_large(client.get(match.get_absolute_url()))


def test_the_setting_follows_the_person_to_another_device(alice, match):
    signed_in(alice).post(SWITCH, {"large": "1"})
    assert is_large(signed_in(alice).get(match.get_absolute_url()))


def test_the_switch_overrides_what_the_browser_chose_before(alice, match):
    services.set_large_print(user=alice, large=True)
    client = signed_in(alice)
    client.get(match.get_absolute_url() + "?large=0")  # this browser: normal print
    assert not is_large(client.get(match.get_absolute_url()))
    client.post(SWITCH, {"large": "1"})
    assert is_large(client.get(match.get_absolute_url()))


def test_a_shared_phone_stays_large_when_someone_signs_in_without_the_setting(client, bob, match):
    client.get(match.get_absolute_url() + "?large=1")
    client.force_login(bob)
    assert is_large(client.get(match.get_absolute_url()))


def test_the_switch_goes_nowhere_but_this_site(alice):
    response = signed_in(alice).post(SWITCH, {"large": "1", "next": "https://evil.example/"})
    assert response["Location"] == reverse("home")


def test_switching_needs_an_account_and_a_post(client, alice):
    response = client.post(SWITCH, {"large": "1"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert signed_in(alice).get(SWITCH).status_code == 405
    assert not Player.objects.get(user=alice).large_print


@pytest.mark.real_rate_limits
def test_switching_is_rate_limited(alice, settings, limits_clock):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "display": "2/h"}
    client = signed_in(alice)
    assert client.post(SWITCH, {"large": "1"}).status_code == 302
    assert client.post(SWITCH, {"large": "0"}).status_code == 302
    response = client.post(SWITCH, {"large": "1"})
    assert response.status_code == 429
    assert "You have switched large print too often" in response.content.decode()
    assert not Player.objects.get(user=alice).large_print


def test_ones_own_profile_has_the_setting_and_nobody_elses_does(alice, bob):
    make_match(alice, ["alice", "bob"])
    profile = reverse("stats:profile", args=[alice.player.pk])
    services.set_large_print(user=alice, large=True)
    page = signed_in(alice).get(profile).content.decode()
    assert re.search(r'<input type="checkbox" name="large" value="1" checked>', page)
    assert 'id="large-print-title"' not in signed_in(bob).get(profile).content.decode()


def test_the_profiles_form_turns_it_off_when_unticked(alice):
    services.set_large_print(user=alice, large=True)
    profile = reverse("stats:profile", args=[alice.player.pk])
    response = signed_in(alice).post(SWITCH, {"next": profile})
    assert response["Location"] == profile
    assert not Player.objects.get(user=alice).large_print
