"""Rounds addressed by id and version, players by seat, and every correction kept."""

import datetime

import pytest
from django.urls import reverse

from cards101.rules import PRESETS
from games import services
from games.models import Correction, Match, Player
from tests.factories import at_once, by_seat, change, delete, make_match, record, round_at

pytestmark = pytest.mark.django_db

FIRST = {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}}
SECOND = {"alice": {"hand": "10H"}, "Dan": {"out": "9C"}, "Eve": {"hand": "JH"}}
THIRD = {"alice": {"hand": "7H"}, "Dan": {"hand": "8C"}, "Eve": {"out": "9H"}}


def totals(match):
    return list(match.seats.order_by("position").values_list("total", flat=True))


def test_two_guests_called_max_play_one_match_kept_apart_by_seat(alice):
    maxes = [Player.objects.create(name="Max", added_by=alice) for _ in range(2)]
    match = services.create_match(
        created_by=alice, players=maxes, preset="classic", variant=PRESETS["classic"]
    )
    services.record_round(
        match=match, outcomes={0: {"out": "QS"}, 1: {"hand": "AC 10H"}}, version=1, by=alice
    )
    assert totals(match) == [-40, 21]
    match.refresh_from_db()
    services.record_round(
        match=match,
        outcomes={0: {"hand": "KD"}, 1: {"out": "QH"}},
        version=match.version,
        by=alice,
    )
    assert totals(match) == [-36, 1]
    places = list(match.seats.order_by("position").values_list("player_id", "place"))
    assert places == [(maxes[0].pk, 1), (maxes[1].pk, 2)]


def test_two_guests_called_max_get_a_rules_error_by_their_seat(alice):
    from cards101.rules import RulesError

    maxes = [Player.objects.create(name="Max", added_by=alice) for _ in range(2)]
    match = services.create_match(
        created_by=alice, players=maxes, preset="classic", variant=PRESETS["classic"]
    )
    with pytest.raises(RulesError) as caught:
        services.record_round(
            match=match, outcomes={0: {"out": "QS"}, 1: {"hand": "QS"}}, version=1, by=alice
        )
    assert caught.value.player == 1


def test_every_change_moves_the_match_version(alice, bob, match):
    seen = [match.version]
    record(match, alice, FIRST)
    seen.append(match.version)
    change(match, alice, 1, SECOND)
    match.refresh_from_db()
    seen.append(match.version)
    services.add_scorekeeper(match=match, username="bob", by=alice)
    match.refresh_from_db()
    seen.append(match.version)
    delete(match, alice, 1)
    match.refresh_from_db()
    seen.append(match.version)
    assert seen == sorted(set(seen))


def test_a_round_keeps_its_id_when_an_earlier_round_is_deleted(alice, match):
    record(match, alice, FIRST, SECOND, THIRD)
    third = round_at(match, 3)
    delete(match, alice, 1)
    third.refresh_from_db()
    assert third.number == 2
    # Editing "the old round 3" by its id changes that round, not whatever is number 3 now.
    services.change_round(
        match=match,
        round_id=third.pk,
        version=third.version,
        outcomes=by_seat(match, FIRST),
        by=alice,
    )
    assert Correction.objects.filter(round=third, action="changed").count() == 1
    assert list(match.rounds.values_list("number", flat=True)) == [1, 2]


def test_deleting_the_same_round_twice_deletes_only_it(alice, match):
    record(match, alice, FIRST, SECOND, THIRD)
    first = round_at(match, 1)
    services.delete_round(match=match, round_id=first.pk, version=first.version, by=alice)
    with pytest.raises(services.RoundConflict, match="already been deleted") as caught:
        services.delete_round(match=match, round_id=first.pk, version=first.version, by=alice)
    assert caught.value.repeat
    assert match.rounds.count() == 2
    assert totals(match) == [17, 8, 2]


def test_a_stale_edit_is_refused_and_changes_nothing(alice, bob, match):
    services.add_scorekeeper(match=match, username="bob", by=alice)
    record(match, alice, FIRST, SECOND)
    seen = round_at(match, 1)  # alice opens the edit form
    change(match, bob, 1, THIRD)  # bob saves a correction meanwhile
    before = totals(match)
    with pytest.raises(services.RoundConflict, match="changed by someone else") as caught:
        services.change_round(
            match=match,
            round_id=seen.pk,
            version=seen.version,
            outcomes=by_seat(match, SECOND),
            by=alice,
        )
    assert not caught.value.repeat
    assert totals(match) == before
    assert Correction.objects.count() == 1


def test_an_edit_of_a_deleted_round_is_refused(alice, match):
    record(match, alice, FIRST, SECOND)
    seen = round_at(match, 1)
    delete(match, alice, 1)
    with pytest.raises(services.RoundConflict, match="deleted meanwhile"):
        services.change_round(
            match=match,
            round_id=seen.pk,
            version=seen.version,
            outcomes=by_seat(match, THIRD),
            by=alice,
        )
    assert match.rounds.count() == 1


def test_a_new_round_made_on_an_old_sheet_is_refused(alice, bob, match):
    services.add_scorekeeper(match=match, username="bob", by=alice)
    match.refresh_from_db()
    version = match.version
    record(match, bob, FIRST)
    with pytest.raises(services.RoundConflict, match="sheet changed") as caught:
        services.record_round(
            match=match, outcomes=by_seat(match, SECOND), version=version, by=alice
        )
    assert not caught.value.repeat
    assert match.rounds.count() == 1


def test_corrections_keep_who_when_before_and_after(alice, bob, match):
    services.add_scorekeeper(match=match, username="bob", by=alice)
    record(match, alice, FIRST, SECOND)
    change(match, bob, 1, THIRD)
    delete(match, alice, 2)
    deleted, changed = Correction.objects.order_by("-pk")
    assert (changed.action, changed.number, changed.by, changed.round) == (
        "changed",
        1,
        bob,
        round_at(match, 1),
    )
    assert changed.before == {"0": {"out": "QS"}, "1": {"hand": "AC"}, "2": {"hand": "KH"}}
    assert changed.after == {"0": {"hand": "7H"}, "1": {"hand": "8C"}, "2": {"out": "9H"}}
    assert (deleted.action, deleted.number, deleted.by, deleted.after) == (
        "deleted",
        2,
        alice,
        None,
    )
    assert deleted.before == {"0": {"hand": "10H"}, "1": {"out": "9C"}, "2": {"hand": "JH"}}


def test_saving_a_round_unchanged_is_no_correction(alice, match):
    record(match, alice, FIRST)
    assert change(match, alice, 1, FIRST) is None
    assert not Correction.objects.exists()


def test_a_correction_that_would_bring_a_lost_player_back_names_the_rounds_to_delete(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"], "classic")
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 120}},
        {"alice": {"out": "QH"}, "Dan": {"hand": "AD"}},
        {"alice": {"hand": "KH"}, "Dan": {"out": "QD"}},
    )
    with pytest.raises(services.RoundConflict, match=r"bring Eve back.*round 2–3"):
        change(
            match, alice, 1, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 20}}
        )
    assert Match.objects.get(pk=match.pk).seats.get(position=2).total == 120
    # Deleting the later rounds first, from the last, makes the correction possible.
    delete(match, alice, 3)
    delete(match, alice, 2)
    change(match, alice, 1, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 20}})
    assert totals(match) == [-40, 11, 20]


def test_only_the_creator_deletes_a_match_and_never_a_tournament_table(alice, bob, match):
    with pytest.raises(services.NotAllowed):
        services.delete_match(match=match, by=bob)
    Match.objects.filter(pk=match.pk).update(kind=Match.Kind.TOURNAMENT)
    with pytest.raises(services.NotAllowed, match="tournament table"):
        services.delete_match(match=match, by=alice)
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_scorekeeper_added_can_change_rounds_and_one_removed_cannot(alice, bob, match):
    services.add_scorekeeper(match=match, username="BOB", by=alice)
    record(match, bob, FIRST)
    services.remove_scorekeeper(match=match, user=bob, by=alice)
    with pytest.raises(services.NotAllowed):
        record(match, bob, SECOND)
    assert match.rounds.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_delete_deletes_one_round(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, FIRST, SECOND, THIRD)
    third = round_at(match, 3)
    doomed = round_at(match, 1)

    def press():
        return services.delete_round(
            match=match, round_id=doomed.pk, version=doomed.version, by=alice
        )

    results = at_once(press, press)
    assert sorted(map(type, results), key=str) == sorted([int, services.RoundConflict], key=str)
    assert match.rounds.count() == 2
    third.refresh_from_db()
    assert third.number == 2
    assert Correction.objects.filter(action="deleted").count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_edit_and_a_delete_of_one_round_at_once_apply_one_of_them(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, FIRST, SECOND)
    seen = round_at(match, 1)

    def edit():
        return services.change_round(
            match=match,
            round_id=seen.pk,
            version=seen.version,
            outcomes=by_seat(match, THIRD),
            by=alice,
        )

    def remove():
        return services.delete_round(match=match, round_id=seen.pk, version=seen.version, by=alice)

    results = at_once(edit, remove)
    conflicts = [r for r in results if isinstance(r, services.RoundConflict)]
    assert len(conflicts) == 1
    assert Correction.objects.count() == 1


def test_a_correction_is_dated_in_lower_case_in_russian(client, alice, match):
    """Mid-sentence a Russian month is written small and in the genitive ("27 ноября"), not as
    Django's abbreviation with a capital ("27 Ноя")."""
    record(match, alice, FIRST, SECOND)
    change(match, alice, 1, THIRD)
    delete(match, alice, 2)
    evening = datetime.datetime(2026, 11, 27, 19, 40, tzinfo=datetime.UTC)
    Correction.objects.filter(match=match).update(at=evening)
    russian = {"Accept-Language": "ru"}
    sheet = client.get(match.get_absolute_url(), headers=russian).content.decode()
    assert "Раунд 1 исправлен (alice, 27 ноября, 19:40)" in sheet
    assert "Раунд 2 удалён (alice, 27 ноября, 19:40)" in sheet
    history = reverse("games:history", args=[match.pk])
    page = client.get(history, headers=russian).content.decode()
    assert "alice, 27 ноября 2026, 19:40" in page
    assert "Ноя" not in sheet + page
    english = client.get(match.get_absolute_url()).content.decode()
    assert "Round 1 corrected by alice at 27 November, 19:40" in english
