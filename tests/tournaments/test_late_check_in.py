"""A player checked in after a round was seated sits it out: the director and the player are
told so, and told when seating the round again would seat them now."""

import pytest
from django.urls import reverse

from tests.factories import record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

RUSSIAN = {"Accept-Language": "ru"}


@pytest.fixture
def round_one(alice, carol, tournament):
    """Four players checked in and seated in round 1; carol registered but not checked in."""
    enter(tournament, ["G1", "G2", "G3", "G4"], alice)
    enter(tournament, ["carol"], alice, checked_in=False)
    services.seat_next_round(tournament=tournament, by=alice)
    return tournament


def check_in(client, tournament, name, **headers):
    entrant = tournament.entrants.get(player__name=name)
    url = reverse("tournaments:entrant", args=[tournament.pk, entrant.pk])
    return client.post(url, {"action": "check_in"}, follow=True, headers=headers)


def message_texts(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_director_hears_that_a_late_player_sits_out_until_a_reseat(client, alice, round_one):
    client.force_login(alice)
    texts = message_texts(check_in(client, round_one, "carol"))
    assert texts == [
        "carol is checked in after round 1 was seated: they sit out this round and are seated "
        "from round 2. No score has been entered in round 1 yet: seating it again seats every "
        "checked-in player now."
    ]


def test_once_a_score_is_in_the_director_hears_only_that_they_sit_out(client, alice, round_one):
    table = round_one.rounds.get().tables.get()
    names = table.match.seats.order_by("position").values_list("player__name", flat=True)
    record(
        table.match,
        alice,
        {name: {"out": "9C"} if i == 0 else {"points": 10} for i, name in enumerate(names)},
    )
    client.force_login(alice)
    response = check_in(client, round_one, "carol", **RUSSIAN)
    assert message_texts(response) == [
        "carol на месте, но тур 1 уже рассажен: этот тур пропускает и играет с тура 2."
    ]


def test_in_the_last_round_the_late_player_sits_it_out(client, alice, carol):
    tournament = make_tournament(alice, rounds_planned=1)
    enter(tournament, ["G1", "G2", "G3"], alice)
    enter(tournament, ["carol"], alice, checked_in=False)
    services.seat_next_round(tournament=tournament, by=alice)
    client.force_login(alice)
    [text] = message_texts(check_in(client, tournament, "carol"))
    assert text.startswith(
        "carol is checked in after round 1, the last one, was seated: they sit it out."
    )


def test_checking_in_everyone_names_those_who_sit_out(client, alice, round_one):
    enter(round_one, ["Late"], alice, checked_in=False)
    client.force_login(alice)
    url = reverse("tournaments:check_in_everyone", args=[round_one.pk])
    texts = message_texts(client.post(url, follow=True))
    assert texts[0] == "2 players checked in."
    assert texts[1].startswith(
        "carol, Late are checked in after round 1 was seated: they sit out this round and are "
        "seated from round 2."
    )


def test_a_player_added_checked_in_during_a_round_is_told_apart(client, alice, round_one):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[round_one.pk])
    data = {"form": "add", "add-names": "Late", "add-checked_in": "on"}
    texts = message_texts(client.post(url, data, follow=True))
    assert texts[0] == "Added: Late."
    assert texts[1].startswith("Late is checked in after round 1 was seated")


def test_checking_in_before_the_round_is_seated_says_nothing_more(client, alice, carol):
    tournament = make_tournament(alice)
    enter(tournament, ["G1", "G2", "carol"], alice, checked_in=False)
    client.force_login(alice)
    assert message_texts(check_in(client, tournament, "carol")) == []


def test_the_player_reads_on_the_tournament_page_that_they_sit_out(client, alice, carol, round_one):
    client.force_login(carol)
    page = client.get(round_one.get_absolute_url()).content.decode()
    assert "sit out" not in page  # not checked in yet: nothing to sit out
    services.set_checked_in(entrant=round_one.entrants.get(player__user=carol), checked_in=True)
    page = client.get(round_one.get_absolute_url()).content.decode()
    assert (
        "You are checked in after round 1 was seated: you sit out this round and are seated "
        "from round 2." in page
    )
    assert "if the director seats it again, you are seated in it." in page
    russian = client.get(round_one.get_absolute_url(), headers=RUSSIAN).content.decode()
    assert "Вы на месте, но тур 1 уже рассажен: этот тур вы пропускаете и играете с тура 2." in (
        russian
    )
    # Seated again, carol plays round 1: nothing to sit out.
    services.reseat_round(round_=round_one.rounds.get(), by=alice)
    page = client.get(round_one.get_absolute_url()).content.decode()
    assert "sit out" not in page
    assert "Table 1, seat" in page or "Table 2, seat" in page
