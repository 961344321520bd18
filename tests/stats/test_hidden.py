"""A player who hides their name shows it, and their profile, only to themselves, the people who
sat at a match with them, the creator and scorekeepers of such a match, the directors of their
tournaments and staff. Everyone else, signed in or not, reads "Hidden player" with no link: on
the pages, exports and charts that show them, in searches, and through the cache (every page
of the site: tests/test_hidden_everywhere.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from claims import services as claims
from games import services
from games.models import Player
from tests.factories import change, counts_tables_of, make_match, play_out, record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

HIDDEN = "Hidden player"


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")


@pytest.fixture
def erin(django_user_model):
    return django_user_model.objects.create_user("erin", "erin@example.com", "erin-password")


@pytest.fixture
def sheet(alice, bob, carol, erin):
    """alice created a finished sheet of bob, carol and the guest Dan without sitting at it;
    erin keeps its score. Then carol hides. (bob and carol sit at alice's tables: they confirmed
    her before.)"""
    counts_tables_of(bob, alice)
    counts_tables_of(carol, alice)
    match = make_match(alice, ["bob", "carol", "Dan"])
    services.add_scorekeeper(match=match, username="erin", by=alice)
    play_out(match, alice, winner_index=1)
    claims.set_private(player=carol.player, private=True, by=carol)
    return match


def pages_naming(carol_player: Player, match) -> dict[str, str]:
    """The pages and files that show carol (or show nothing of her: a 403)."""
    dan = Player.objects.get(name="Dan")
    return {
        "sheet": match.get_absolute_url(),
        "live": reverse("games:match_live", args=[match.pk]),
        "history": reverse("games:history", args=[match.pk]),
        "profile": reverse("stats:profile", args=[carol_player.pk]),
        "dan's profile": reverse("stats:profile", args=[dan.pk]),
        "head-to-head": reverse("stats:head_to_head", args=[carol_player.pk, dan.pk]),
        "csv": reverse("stats:player_csv", args=[carol_player.pk]),
        "json": reverse("stats:player_json", args=[carol_player.pk]),
        "leaderboard": reverse("stats:leaderboard") + "?preset=classic&least=1",
        "leaderboard csv": reverse("stats:leaderboard_csv"),
        "found on the leaderboard": reverse("stats:leaderboard") + "?search=caro",
        "found in the matches": reverse("games:match_list") + "?show=recent&player=caro",
    }


def shows_the_name(page: str, status: int, body: str) -> bool:
    """Read, with the name where the page has one (a player's matches.csv has none)."""
    named = page == "csv" or "carol" in body
    # Her own profile says what the others see.
    body = body.replace(f"sees “{HIDDEN}”", "")
    return status == 200 and named and HIDDEN not in body


def read_as(client, user, pages: dict[str, str]) -> dict[str, tuple[int, str]]:
    client.force_login(user)
    read = {}
    for page, url in pages.items():
        response = client.get(url)
        read[page] = (response.status_code, response.content.decode())
    client.logout()
    return read


def test_table_mates_the_creator_and_scorekeepers_read_the_name_a_stranger_does_not(
    client, sheet, alice, bob, carol, erin, dave
):
    pages = pages_naming(carol.player, sheet)
    profile = reverse("stats:profile", args=[carol.player.pk])
    for who in (bob, alice, erin, carol):  # a table-mate, the creator, a scorekeeper, herself
        read = read_as(client, who, pages)
        for page, (status, body) in read.items():
            assert shows_the_name(page, status, body), (who, page)
        assert f'href="{profile}"' in read["found on the leaderboard"][1], who
    read = read_as(client, dave, pages)
    for page in ("profile", "head-to-head", "csv", "json"):
        status, body = read[page]
        assert status == 403 and "carol" not in body and HIDDEN in body, page
    for page in ("sheet", "live", "history", "dan's profile", "leaderboard", "leaderboard csv"):
        status, body = read[page]
        assert status == 200 and "carol" not in body and HIDDEN in body, page
        assert f'href="{profile}"' not in body, page
    assert f'{carol.player.pk},"{HIDDEN}","classic"' in read["leaderboard csv"][1]
    # The searches find nobody by her name.
    assert "Nobody by that name." in read["found on the leaderboard"][1]
    assert sheet.get_absolute_url() not in read["found in the matches"][1]


def test_staff_read_every_name(client, sheet, carol, django_user_model):
    sam = django_user_model.objects.create_superuser("sam", "sam@example.com", "sam-password")
    for page, (status, body) in read_as(client, sam, pages_naming(carol.player, sheet)).items():
        assert shows_the_name(page, status, body), page


def test_the_directors_of_a_tournament_read_its_entrants_names(client, alice, bob, carol, dave):
    """bob co-directs alice's tournament and never sits with carol: he reads her name where
    dave, who plays in it at another table, does not."""
    tournament = make_tournament(alice)
    tournaments.add_director(tournament=tournament, username="bob")
    counts_tables_of(carol, alice)  # carol and dave play at alice's club
    counts_tables_of(dave, alice)
    enter(tournament, ["carol", "dave", "Anna", "Boris", "Vera", "Wim", "Yana", "Zoya"], alice)
    claims.set_private(player=carol.player, private=True, by=carol)
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    table_of = {
        seat.player.name: table.match
        for table in round_.tables.all()
        for seat in table.match.seats.select_related("player")
    }
    if table_of["carol"] == table_of["dave"]:  # the draw is random: seat them apart
        other = next(name for name, match in table_of.items() if match != table_of["carol"])
        tournaments.swap_players(
            round_=round_,
            first=dave.player.pk,
            second=Player.objects.get(name=other).pk,
            confirmed=True,
        )
        table_of["dave"] = table_of[other]
    pages = {
        "page": tournament.get_absolute_url(),
        "projector": reverse("tournaments:projector", args=[tournament.pk]),
        "round": reverse("tournaments:round", args=[tournament.pk, 1]),
        "cards": reverse("tournaments:cards", args=[tournament.pk, 1]),
        "standings csv": reverse("tournaments:standings_csv", args=[tournament.pk]),
        "tables csv": reverse("tournaments:results_csv", args=[tournament.pk]),
        "her table": table_of["carol"].get_absolute_url(),
        "profile": reverse("stats:profile", args=[carol.player.pk]),
    }
    players_page = reverse("tournaments:players", args=[tournament.pk])  # the directors' own
    for page, (status, body) in read_as(client, bob, pages | {"players": players_page}).items():
        assert status == 200 and "carol" in body and HIDDEN not in body, page
    read = read_as(client, dave, pages)
    assert read.pop("profile")[0] == 403
    for page, (status, body) in read.items():
        assert status == 200 and "carol" not in body and HIDDEN in body, page


def test_the_cache_carries_no_name_from_one_reader_to_another(client, sheet, bob, carol, dave):
    tournament = make_tournament(bob)
    counts_tables_of(carol, bob)
    enter(tournament, ["carol", "Anna", "Boris"], bob)
    urls = [
        sheet.get_absolute_url(),
        reverse("games:match_live", args=[sheet.pk]),
        reverse("stats:profile", args=[Player.objects.get(name="Dan").pk]),
        tournament.get_absolute_url(),
        reverse("tournaments:projector", args=[tournament.pk]),
    ]
    # bob reads them first (and they are cached with carol's name), then dave.
    for url in urls:
        client.force_login(bob)
        assert "carol" in client.get(url).content.decode(), url
        client.force_login(dave)
        body = client.get(url).content.decode()
        assert "carol" not in body and HIDDEN in body, url
        client.logout()
        body = client.get(url).content.decode()
        assert "carol" not in body and HIDDEN in body, url
        # And back: what dave read cached does not hide her from bob.
        client.force_login(bob)
        assert "carol" in client.get(url).content.decode(), url


def test_sitting_down_with_a_hidden_player_shows_the_name_at_once(client, alice, sheet, dave):
    """dave reads carol's sheet (cached, "Hidden player"), then sits at a new match with her:
    the page he read shows him her name at once, no cache to wait for."""
    client.force_login(dave)
    body = client.get(sheet.get_absolute_url()).content.decode()
    assert "carol" not in body and HIDDEN in body
    counts_tables_of(dave, alice)
    make_match(alice, ["alice", "dave", "carol"])
    body = client.get(sheet.get_absolute_url()).content.decode()
    assert "carol" in body and HIDDEN not in body


def test_a_correction_names_a_hidden_scorekeeper_only_to_those_who_may_see_her(
    client, alice, carol, dave
):
    """carol keeps score at alice's sheet without sitting at it: "corrected by" does not give
    her name away to those who may not see it (here, alice too)."""
    match = make_match(alice, ["alice", "Dan"])
    services.add_scorekeeper(match=match, username="carol", by=alice)
    record(match, carol, {"alice": {"out": "7C"}, "Dan": {"points": 30}})
    change(match, carol, 1, {"alice": {"out": "7C"}, "Dan": {"points": 40}})
    claims.set_private(player=carol.player, private=True, by=carol)
    history = reverse("games:history", args=[match.pk])
    for who in (dave, alice, None):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        for url in (match.get_absolute_url(), history):
            body = client.get(url).content.decode()
            assert "carol" not in body and f"by {HIDDEN}" in body, (who, url)
    client.force_login(carol)
    assert "corrected by carol" in client.get(match.get_absolute_url()).content.decode()


def test_a_hidden_player_who_leaves_a_sheet_stays_hidden_on_it(client, alice, bob):
    counts_tables_of(bob, alice)
    match = make_match(alice, ["alice", "bob", "Dan"])
    play_out(match, alice)
    claims.set_private(player=bob.player, private=True, by=bob)
    services.leave_match(match=match, by=bob)
    body = client.get(match.get_absolute_url()).content.decode()
    assert "bob" not in body and HIDDEN in body
    client.force_login(alice)  # who sat with the seat still reads it
    assert "bob" in client.get(match.get_absolute_url()).content.decode()


def test_the_privacy_setting_says_who_sees_the_name(client, carol):
    client.force_login(carol)
    profile = reverse("stats:profile", args=[carol.player.pk])
    page = client.get(profile).content.decode()
    assert (
        "Show my profile and my name only to the people who played at my table, kept score "
        "of my matches or directed my tournaments" in page
    )
    response = client.post(reverse("claims:privacy"), {"private": "on"}, follow=True)
    assert (
        "Your profile and your name are now shown only to the people who played at your "
        "table, kept score of your matches or directed your tournaments."
    ) in response.content.decode()
    client.force_login(get_user_model().objects.create_user("dave", "d@example.com", "pw"))
    hidden = client.get(profile, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Этот игрок показывает своё имя и профиль только тем, кто играл с ним" in hidden
    assert reverse("account_login") not in hidden  # signed in already: no way in to offer
