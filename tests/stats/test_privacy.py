"""A user who hides their profile: visitors who are not signed in see neither it nor the name,
anywhere; nor do signed-in people who never played with them; those who did see both; the
choice is the account owner's alone. (tests/stats/test_hidden.py: everyone who may see it,
every page.)"""

import pytest
from django.urls import reverse

from claims import services as claims
from games.models import Player
from games.services import NotAllowed
from tests.factories import counts_tables_of, make_match, play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

NAME = "bob"  # bob hides; his username is his player's name


@pytest.fixture
def hidden(alice, bob):
    """bob played a finished match with alice and Dan, and hides his profile."""
    counts_tables_of(bob, alice)
    match = make_match(alice, ["alice", "bob", "Dan"])
    play_out(match, alice, winner_index=1)
    claims.set_private(player=bob.player, private=True, by=bob)
    return match


def visible_to(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_visitors_see_neither_the_profile_nor_the_name(client, hidden, bob):
    response = client.get(reverse("stats:profile", args=[bob.player.pk]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Hidden player" in page and NAME not in page.replace("bob-", "")
    for url in (
        reverse("stats:head_to_head", args=[bob.player.pk, Player.objects.get(name="Dan").pk]),
        reverse("stats:player_csv", args=[bob.player.pk]),
        reverse("stats:player_json", args=[bob.player.pk]),
    ):
        assert client.get(url).status_code == 403
    sheet = visible_to(client, hidden.get_absolute_url())
    assert "Hidden player" in sheet and ">bob<" not in sheet
    live = visible_to(client, reverse("games:match_live", args=[hidden.pk]))
    assert "Hidden player" in live and ">bob<" not in live
    board = visible_to(client, reverse("stats:leaderboard") + "?preset=classic&least=1")
    assert "Hidden player" in board
    assert reverse("stats:profile", args=[bob.player.pk]) not in board
    # Searching for the name finds nobody.
    found = visible_to(client, reverse("stats:leaderboard") + "?search=bob")
    assert reverse("stats:profile", args=[bob.player.pk]) not in found
    csv = client.get(reverse("stats:leaderboard_csv")).content.decode()
    assert f'{bob.player.pk},"Hidden player","classic"' in csv and ',"bob",' not in csv
    # alice's profile lists him as an opponent without his name or a link.
    alice_page = visible_to(
        client, reverse("stats:profile", args=[Player.objects.get(name="alice").pk])
    )
    assert "Hidden player" in alice_page
    assert (
        reverse("stats:head_to_head", args=[Player.objects.get(name="alice").pk, bob.player.pk])
        not in alice_page
    )


def test_signed_in_strangers_see_neither_and_table_mates_see_both(
    client, hidden, alice, bob, carol
):
    client.force_login(carol)  # never sat with bob
    response = client.get(reverse("stats:profile", args=[bob.player.pk]))
    assert response.status_code == 403 and "bob" not in response.content.decode()
    sheet = visible_to(client, hidden.get_absolute_url())
    assert "Hidden player" in sheet and ">bob<" not in sheet
    csv = client.get(reverse("stats:leaderboard_csv")).content.decode()
    assert f'{bob.player.pk},"Hidden player","classic"' in csv and '"bob"' not in csv
    client.force_login(alice)  # sat with him
    page = visible_to(client, reverse("stats:profile", args=[bob.player.pk]))
    assert "<h1>bob" in page
    assert ">bob<" in visible_to(client, hidden.get_absolute_url()).replace("bob </", "bob<")
    csv = client.get(reverse("stats:leaderboard_csv")).content.decode()
    assert f'{bob.player.pk},"bob","classic"' in csv


def test_hiding_takes_effect_on_pages_already_cached(client, alice, bob):
    counts_tables_of(bob, alice)
    match = make_match(alice, ["alice", "bob"])
    play_out(match, alice)
    assert "bob" in visible_to(client, match.get_absolute_url())
    assert "bob" in visible_to(
        client, reverse("stats:profile", args=[Player.objects.get(name="alice").pk])
    )
    client.force_login(bob)
    response = client.post(reverse("claims:privacy"), {"private": "on"})
    assert response.url == reverse("stats:profile", args=[bob.player.pk])
    client.logout()
    assert "bob" not in visible_to(client, match.get_absolute_url())
    assert "Hidden player" in visible_to(
        client, reverse("stats:profile", args=[Player.objects.get(name="alice").pk])
    )
    client.force_login(bob)
    client.post(reverse("claims:privacy"), {})  # unticked: public again
    client.logout()
    assert "bob" in visible_to(client, match.get_absolute_url())


def test_tournament_pages_hide_the_name_from_visitors(client, alice, bob):
    tournament = make_tournament(alice)
    tournament_services.register(tournament=tournament, user=bob)
    enter(tournament, ["Vera", "Wim"], alice)
    claims.set_private(player=bob.player, private=True, by=bob)
    page = visible_to(client, tournament.get_absolute_url())
    assert "Hidden player" in page and "Vera" in page
    assert ">bob<" not in page


def test_only_the_account_owner_hides_a_profile(alice, bob):
    with pytest.raises(NotAllowed, match="Only the account's owner"):
        claims.set_private(player=bob.player, private=True, by=alice)
    make_match(alice, ["alice", "Dan"])
    with pytest.raises(NotAllowed, match="Only the account's owner"):
        claims.set_private(player=Player.objects.get(name="Dan"), private=True, by=alice)
    assert not Player.objects.filter(private=True).exists()


def test_the_owner_finds_the_choice_on_their_own_profile(client, bob, carol):
    client.force_login(bob)
    page = visible_to(client, reverse("stats:profile", args=[bob.player.pk]))
    assert (
        "Show my profile and my name only to the people who played at my table, kept score "
        "of my matches or directed my tournaments" in page
    )
    assert f'action="{reverse("claims:privacy")}"' in page
    client.force_login(carol)  # nobody else gets it
    other = visible_to(client, reverse("stats:profile", args=[bob.player.pk]))
    assert f'action="{reverse("claims:privacy")}"' not in other


def test_the_privacy_address_opened_leads_to_the_choice_and_changes_nothing(client, bob):
    """/privacy/ typed, bookmarked or reloaded is a GET: no blank 405, no change, but the
    owner's profile at the choice, saying where it is."""
    profile = reverse("stats:profile", args=[bob.player.pk])
    client.force_login(bob)
    for headers, said in (
        ({}, "Who sees your profile is chosen on it, under “Who sees this profile”."),
        (
            {"Accept-Language": "ru"},
            "Кто видит ваш профиль, выбирается на нём самом, в разделе «Кто видит этот профиль».",
        ),
    ):
        response = client.get(reverse("claims:privacy"), headers=headers)
        assert response.status_code == 302
        assert response.url == profile + "#privacy-title"
        page = client.get(response.url, headers=headers).content.decode()
        assert said in page
        assert 'id="privacy-title"' in page
        assert f'action="{reverse("claims:privacy")}"' in page
    bob.player.refresh_from_db()
    assert bob.player.private is False
    client.logout()
    response = client.get(reverse("claims:privacy"))
    assert response.status_code == 302 and response.url.startswith(reverse("account_login"))
