"""What the apps' changes tell people: a round to confirm, a claim to decide and its
decision, the day of a tournament; each written with its cause (rolled back with it)."""

import datetime

import pytest
from django.db import transaction
from django.utils import timezone

from claims import services as claims
from games.models import Player
from notify import services
from notify.models import Notification
from tests.factories import make_match, record, run_tasks
from tests.notify.test_mail_from_the_worker import make_cup
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def told(user, kind):
    return list(Notification.objects.filter(user=user, kind=kind))


def test_a_round_entered_at_a_confirmed_table_asks_the_others_there(alice, bob, carol):
    cup = make_cup(alice)
    for user in (alice, bob, carol):
        tournaments.enter_checked_in(tournament=cup, player=user.player)
    round_ = tournaments.seat_next_round(tournament=cup, by=alice)
    match = round_.tables.get().match
    record(match, bob, {"bob": {"out": "7C"}, "alice": {"points": 10}, "carol": {"points": 5}})
    assert told(bob, "to_confirm") == []
    [asked] = told(carol, "to_confirm")
    assert asked.payload["round"] == 1


def test_a_claim_tells_its_decider_and_the_decision_tells_who_asked(alice, bob):
    match = make_match(alice, ["alice", "Boris"])
    guest = Player.objects.get(name="Boris")
    claim = claims.ask(guest=guest, by=bob)
    [waiting] = told(alice, "to_decide")
    assert waiting.payload["account"] == "bob"
    claims.decide(claim=claim, approve=True, by=alice)
    [decided] = told(bob, "to_decide")
    assert decided.payload["approved"] is True
    assert match.pk


def test_nothing_is_told_of_a_change_that_was_rolled_back(alice, bob):
    make_match(alice, ["alice", "Boris"])
    guest = Player.objects.get(name="Boris")
    with pytest.raises(RuntimeError), transaction.atomic():
        claims.ask(guest=guest, by=bob)
        raise RuntimeError
    assert told(alice, "to_decide") == []


def test_on_the_day_of_a_tournament_each_registered_account_is_reminded_once(alice, bob):
    cup = make_cup(alice, date="2026-11-22")
    tournaments.register(tournament=cup, user=bob)
    day = datetime.datetime(2026, 11, 22, 9, 0, tzinfo=datetime.UTC)
    assert services.tell_tournament_days(day - datetime.timedelta(days=1)) == 0
    assert services.tell_tournament_days(day) == 1
    assert services.tell_tournament_days(day) == 0
    [reminder] = told(bob, "reminder")
    assert reminder.payload["tournament"] == "Autumn cup"


def test_nobody_checked_in_and_no_director_is_reminded_of_the_day(
    alice, bob, carol, django_user_model
):
    """The roll call ticked bob present before the reminder, carol after it was written but
    before it left (quiet hours); alice made the night and dave directs it."""
    from notify.models import Delivery

    dave = django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")
    cup = make_cup(alice, date="2026-11-22")
    cup.directors.add(dave)
    for user in (alice, bob, carol, dave):
        tournaments.register(tournament=cup, user=user)
    entrants = {e.player.user_id: e for e in cup.entrants.select_related("player")}
    entrants[bob.pk].checked_in = True
    entrants[bob.pk].save()
    day = datetime.datetime(2026, 11, 22, 9, 0, tzinfo=datetime.UTC)
    assert services.tell_tournament_days(day) == 1
    assert told(alice, "reminder") == told(bob, "reminder") == told(dave, "reminder") == []
    [waiting] = told(carol, "reminder")
    entrants[carol.pk].checked_in = True
    entrants[carol.pk].save()
    assert Delivery.objects.filter(notification=waiting).exists()
    run_tasks(timezone.now() + datetime.timedelta(days=1))
    statuses = set(Delivery.objects.filter(notification=waiting).values_list("status", flat=True))
    assert statuses == {Delivery.Status.SKIPPED}


def test_a_club_nights_directors_are_not_reminded_of_it_and_its_members_are(alice, bob, carol):
    """bob directs the club (not named on the night itself): he runs its nights, and knows."""
    from clubs import services as clubs
    from clubs.models import Member

    club = clubs.create_club(owner=alice, name="Туз")
    for user in (bob, carol):
        clubs.join(club=club, user=user, code=club.invite_code)
    clubs.set_role(member=club.members.get(player__user=bob), role=Member.Role.DIRECTOR, by=alice)
    night = make_cup(alice, club=club, date="2026-11-22")
    for user in (bob, carol):
        tournaments.register(tournament=night, user=user)
    assert night.is_director(bob)
    day = datetime.datetime(2026, 11, 22, 9, 0, tzinfo=datetime.UTC)
    assert services.tell_tournament_days(day) == 1
    assert told(bob, "reminder") == []
    [reminder] = told(carol, "reminder")
    assert reminder.payload["tournament"] == "Autumn cup"
