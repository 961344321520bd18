"""A club's history (ClubEvent): role changes, removals and renames are written with the change
and shown on the members page, newest first, to its members and whoever runs it, never to
outsiders; who may run a club is asked of one module (clubs.rights); a season's settings are
checked once (clubs.seasons.check_settings), by its form and its services alike."""

import datetime
import html

import pytest
from django.urls import reverse

from cards101.rules import Variant
from claims import services as claims
from clubs import rights, services
from clubs.errors import ClubError, NotAllowed
from clubs.models import ClubEvent, Member, Season
from clubs.season_forms import SeasonForm
from tests.factories import words_on_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice, bob):
    club = services.create_club(owner=alice, name="Туз")
    services.join(club=club, user=bob, code=club.invite_code)
    return club


def members_url(club) -> str:
    return reverse("clubs:members", args=[club.slug])


def bobs_membership(club) -> Member:
    return club.members.get(player__user__username="bob")


def rename(club, by, name: str) -> None:
    services.update_club(club=club, by=by, variant=Variant.from_dict(club.options), name=name)


# --- what the history shows, in both languages ------------------------------------------------


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Role changed: bob, member → director"),
        ("ru", "Смена роли: bob, участник → директор"),
    ],
)
def test_the_history_shows_a_role_change(client, alice, club, language, line):
    services.set_role(member=bobs_membership(club), role=Member.Role.DIRECTOR, by=alice)
    client.force_login(alice)
    text = words_on_page(client, members_url(club), language)
    assert ("History" if language == "en" else "История") in text
    assert line in text


@pytest.mark.parametrize(
    ("language", "removed", "left"),
    [
        ("en", "Removed from the club: Вася", "Left the club: bob"),
        ("ru", "Исключение из клуба: Вася", "Выход из клуба: bob"),
    ],
)
def test_the_history_shows_who_was_removed_and_who_left(
    client, alice, bob, club, language, removed, left
):
    guest = services.add_members_named(club=club, names=["Вася"], by=alice)[0]
    services.remove_member(member=guest, by=alice)
    services.remove_member(member=bobs_membership(club), by=bob)
    client.force_login(alice)
    text = words_on_page(client, members_url(club), language)
    assert removed in text and left in text
    assert text.index(left) < text.index(removed)  # newest first


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "The club was renamed from «Туз» to «Дама»"),
        ("ru", "Клуб переименован: «Туз» → «Дама»"),
    ],
)
def test_the_history_shows_a_rename_to_a_member(client, alice, bob, club, language, line):
    rename(club, alice, "Дама")
    client.force_login(bob)  # a member who does not run the club reads it too
    assert line in words_on_page(client, members_url(club), language)


def test_a_new_club_says_its_history_is_empty(client, alice, club):
    client.force_login(alice)
    assert "the club has kept its name" in words_on_page(client, members_url(club))
    assert "клуб не переименовывали" in words_on_page(client, members_url(club), "ru")


def test_outsiders_do_not_see_the_history(client, alice, carol, club):
    rename(club, alice, "Дама")
    services.set_role(member=bobs_membership(club), role=Member.Role.DIRECTOR, by=alice)
    for language in ("en", "ru"):
        for signed_in in (carol, None):
            client.logout()
            if signed_in:
                client.force_login(signed_in)
            text = words_on_page(client, members_url(club), language)
            assert "Туз" not in text and "Role changed" not in text and "Смена роли" not in text
            assert "History" not in text and "История" not in text


def test_a_refused_change_writes_no_history(alice, bob, carol, club):
    with pytest.raises(NotAllowed):
        services.set_role(member=bobs_membership(club), role=Member.Role.DIRECTOR, by=bob)
    with pytest.raises(ClubError):
        rename(club, carol, "Чужой")
    assert not ClubEvent.objects.exists()
    assert bobs_membership(club).role == Member.Role.MEMBER


def test_the_history_keeps_ids_and_values(alice, bob, club):
    services.set_role(member=bobs_membership(club), role=Member.Role.DIRECTOR, by=alice)
    event = ClubEvent.objects.get()
    assert (event.kind, event.actor, event.subject.user) == ("role_changed", alice, bob)
    assert (event.old_value, event.new_value) == ("member", "director")


def test_a_guest_merged_into_an_account_brings_its_history_lines(client, alice, bob, club):
    anna = services.add_members_named(club=club, names=["Anna"], by=alice)[0]
    services.set_role(member=anna, role=Member.Role.DIRECTOR, by=alice)
    claims.decide(claim=claims.ask(guest=anna.player, by=bob), approve=True, by=alice)
    assert ClubEvent.objects.get().subject.user == bob
    client.force_login(alice)
    text = words_on_page(client, members_url(club), "ru")
    assert "Смена роли: bob, участник → директор" in text and "Anna" not in text


# --- one rights module ------------------------------------------------------------------------


def test_the_rights_helper_refuses_a_member_who_does_not_run_the_club(client, alice, bob, club):
    assert rights.runs(alice, club) and not rights.runs(bob, club)
    with pytest.raises(NotAllowed, match="Only the club's owner and directors can do this"):
        rights.check_runs(bob, club)
    with pytest.raises(NotAllowed, match="Only the club's owner names its directors"):
        rights.check_owns(bob, club)
    client.force_login(bob)
    assert client.get(reverse("clubs:edit", args=[club.slug])).status_code == 403


def test_a_director_runs_the_club_but_does_not_own_it(alice, bob, club):
    services.set_role(member=bobs_membership(club), role=Member.Role.DIRECTOR, by=alice)
    rights.check_runs(bob, club)
    with pytest.raises(NotAllowed):
        rights.check_owns(bob, club)


# --- a season checked once ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "A season cannot end before it starts."),
        ("ru", "Сезон не может закончиться раньше, чем начался."),
    ],
)
def test_a_season_ending_before_it_starts_is_refused_and_nothing_changes(
    client, alice, club, language, message
):
    autumn = services.create_season(
        club=club,
        by=alice,
        name="Осень",
        starts=datetime.date(2026, 9, 1),
        ends=datetime.date(2026, 11, 30),
    )
    client.force_login(alice)
    edit = reverse("clubs:season_edit", args=[club.slug, autumn.pk])
    response = client.post(
        edit,
        {"name": "Зима", "starts": "2026-12-31", "ends": "2026-12-01"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    autumn.refresh_from_db()
    assert (autumn.name, autumn.starts, autumn.ends) == (
        "Осень",
        datetime.date(2026, 9, 1),
        datetime.date(2026, 11, 30),
    )


def test_the_form_and_the_services_refuse_the_same_settings(alice, club):
    data = {"name": "Осень", "starts": "2026-09-01", "ends": "2026-11-30", "best_nights": "0"}
    form = SeasonForm(data)
    assert not form.is_valid()
    assert form.non_field_errors() == ["Count at least one night of each player, or all of them."]
    with pytest.raises(ClubError, match="Count at least one night"):
        services.create_season(
            club=club,
            by=alice,
            name="Осень",
            starts=datetime.date(2026, 9, 1),
            ends=datetime.date(2026, 11, 30),
            best_nights=0,
        )
    assert not Season.objects.exists()
