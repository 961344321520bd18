"""Confirmed results: at a table of a tournament that asks for it, a round counts once a second
person there (another player with an account, or a director) confirms it; a second entry that
differs is kept beside the first until a director chooses."""

import pytest
from django.urls import reverse

from games import services
from games.models import Correction, DisputedEntry
from tests.factories import by_seat, change, counts_tables_of, make_match, record, round_at
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

FIRST = {"bob": {"out": "QS"}, "carol": {"points": 10}, "Dan": {"points": 20}, "Eve": {"points": 5}}
OTHER = {"bob": {"out": "QS"}, "carol": {"points": 12}, "Dan": {"points": 20}, "Eve": {"points": 5}}


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")


def seat_table(alice, bob, carol, *, confirm=True):
    """alice directs a one-round tournament; bob, carol and two guests sit at its table."""
    counts_tables_of(bob, alice)
    counts_tables_of(carol, alice)
    tournament = make_tournament(alice, confirm_results=confirm, rounds_planned=1)
    enter(tournament, ["bob", "carol", "Dan", "Eve"], alice)
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    return round_.tables.get().match


@pytest.fixture
def table(alice, bob, carol):
    return seat_table(alice, bob, carol)


def confirm(match, user, number=1):
    return services.confirm_round(match=match, round_id=round_at(match, number).pk, by=user)


def enter_again(match, user, outcomes, number=1):
    round_ = round_at(match, number)
    return services.enter_again(
        match=match,
        round_id=round_.pk,
        version=round_.version,
        outcomes=by_seat(match, outcomes),
        by=user,
    )


def test_the_table_carries_the_tournaments_option(table):
    assert table.confirm_results


def test_a_round_a_player_enters_waits_until_another_player_confirms_it(table, bob, carol):
    record(table, bob, FIRST)
    assert round_at(table, 1).confirmed_at is None
    assert table.unconfirmed_rounds == 1

    confirm(table, carol)

    round_ = round_at(table, 1)
    table.refresh_from_db()
    assert round_.confirmed_by == carol and round_.confirmed_at is not None
    assert table.unconfirmed_rounds == 0


def test_confirming_moves_the_sheets_version(table, bob, carol):
    record(table, bob, FIRST)
    before = table.version
    confirm(table, carol)
    table.refresh_from_db()
    assert table.version > before


def test_the_player_who_entered_a_round_cannot_confirm_it(table, bob):
    record(table, bob, FIRST)
    with pytest.raises(services.GameError, match="You entered round 1 yourself"):
        confirm(table, bob)
    assert round_at(table, 1).confirmed_at is None


def test_someone_not_at_the_table_cannot_confirm(table, bob, dave):
    record(table, bob, FIRST)
    with pytest.raises(services.NotAllowed, match="Only another player at this table"):
        confirm(table, dave)


def test_a_director_confirms_for_anyone(table, alice, bob):
    record(table, bob, FIRST)
    confirm(table, alice)
    assert round_at(table, 1).confirmed_by == alice


def test_a_round_a_director_enters_counts_as_confirmed_by_them(table, alice):
    record(table, alice, FIRST)
    assert round_at(table, 1).confirmed_by == alice
    assert table.unconfirmed_rounds == 0


def test_confirming_a_confirmed_round_again_is_harmless(table, bob, carol):
    record(table, bob, FIRST)
    confirm(table, carol)
    version = round_at(table, 1).version
    confirm(table, carol)
    confirm(table, bob)  # even by the one who entered it: there is nothing left to do
    round_ = round_at(table, 1)
    assert round_.confirmed_by == carol and round_.version == version


def test_a_correction_makes_a_confirmed_round_wait_again(table, bob, carol):
    record(table, bob, FIRST)
    confirm(table, carol)

    change(table, carol, 1, OTHER)

    table.refresh_from_db()
    assert round_at(table, 1).confirmed_at is None and table.unconfirmed_rounds == 1
    # carol changed it: now another person must confirm the changed round.
    with pytest.raises(services.NotAllowed):
        confirm(table, carol)
    confirm(table, bob)
    assert round_at(table, 1).confirmed_by == bob


def test_a_directors_correction_leaves_the_round_confirmed_by_them(table, alice, bob, carol):
    record(table, bob, FIRST)
    confirm(table, carol)
    change(table, alice, 1, OTHER)
    assert round_at(table, 1).confirmed_by == alice


def test_the_same_second_entry_confirms_the_round(table, bob, carol):
    record(table, bob, FIRST)
    assert enter_again(table, carol, FIRST) is None
    assert round_at(table, 1).confirmed_by == carol
    assert not DisputedEntry.objects.exists()


def test_a_different_second_entry_is_kept_beside_the_first(table, bob, carol):
    record(table, bob, FIRST)
    totals = list(table.seats.values_list("total", flat=True))

    disputed = enter_again(table, carol, OTHER)

    assert disputed.by == carol
    disputed.refresh_from_db()
    assert disputed.outcomes == {str(k): v for k, v in by_seat(table, OTHER).items()}
    # Nothing overwritten: the sheet is still the first entry's, and the round still waits.
    assert list(table.seats.values_list("total", flat=True)) == totals
    assert round_at(table, 1).confirmed_at is None


def test_a_disputed_round_waits_for_a_director(table, alice, bob, carol, dave):
    record(table, bob, FIRST)
    enter_again(table, carol, OTHER)
    # Nobody else settles it at the table (dave stands in for any other account).
    with pytest.raises(services.NotAllowed):
        confirm(table, dave)
    confirm(table, alice)  # the director keeps the first entry
    assert round_at(table, 1).confirmed_by == alice
    assert not DisputedEntry.objects.exists()


def test_a_director_choosing_the_second_entry_applies_it_as_a_correction(table, alice, bob, carol):
    record(table, bob, FIRST)
    disputed = enter_again(table, carol, OTHER)
    round_ = round_at(table, 1)

    services.choose_entry(match=table, round_id=round_.pk, dispute_id=disputed.pk, by=alice)

    correction = Correction.objects.get(match=table)
    assert correction.by == alice and correction.after == disputed.outcomes
    carols = str(table.seats.get(player__user=carol).position)
    assert correction.before[carols] == {"points": 10}
    round_ = round_at(table, 1)
    assert round_.confirmed_by == alice
    assert table.seats.get(player__user=carol).total == 12
    assert not DisputedEntry.objects.exists()


def test_only_a_director_chooses_the_second_entry(table, bob, carol):
    record(table, bob, FIRST)
    disputed = enter_again(table, carol, OTHER)
    with pytest.raises(services.NotAllowed):
        services.choose_entry(
            match=table, round_id=round_at(table, 1).pk, dispute_id=disputed.pk, by=carol
        )


def test_with_the_option_off_every_round_counts_at_once(alice, bob, carol):
    table = seat_table(alice, bob, carol, confirm=False)
    record(table, bob, FIRST)
    assert table.unconfirmed_rounds == 0 and table.is_done is False
    assert round_at(table, 1).confirmed_at is not None
    confirm(table, bob)  # harmless: nothing waits
    assert round_at(table, 1).confirmed_by is None


def test_a_casual_match_asks_no_confirmation(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"points": 10}, "Eve": {"points": 7}})
    assert not match.confirm_results and match.unconfirmed_rounds == 0


# --- the sheet --------------------------------------------------------------------------------


def sheet(client, user, match):
    client.force_login(user)
    return client.get(match.get_absolute_url()).content.decode()


def test_the_sheet_marks_a_waiting_round_and_offers_confirm_to_another_player(
    client, table, bob, carol
):
    record(table, bob, FIRST)
    url = reverse("games:round_confirm", args=[table.pk, round_at(table, 1).pk])

    page = sheet(client, carol, table)
    assert 'class="await-mark"' in page
    assert "1 round waits for confirmation" in page
    assert "Confirm round 1" in page
    # Her round form is the waiting round again, to enter as she saw it.
    assert f'id="round-form" class="round-form check-form" method="post" action="{url}"' in page

    page = sheet(client, bob, table)
    assert 'class="await-mark"' in page and "Confirm round 1" not in page
    assert "check-form" not in page  # he entered it: his form is for round 2


def test_confirming_on_the_sheet_counts_the_round(client, table, bob, carol):
    record(table, bob, FIRST)
    client.force_login(carol)
    url = reverse("games:round_confirm", args=[table.pk, round_at(table, 1).pk])
    response = client.post(url, {"action": "confirm"}, follow=True)
    assert "Round 1 confirmed." in response.content.decode()
    assert 'class="await-mark"' not in response.content.decode()
    assert round_at(table, 1).confirmed_by == carol


def test_a_refused_confirmation_says_why(client, table, bob):
    record(table, bob, FIRST)
    client.force_login(bob)
    url = reverse("games:round_confirm", args=[table.pk, round_at(table, 1).pk])
    response = client.post(url, {"action": "confirm"}, follow=True)
    assert "You entered round 1 yourself" in response.content.decode()


def test_a_second_entry_on_the_sheet_that_differs_is_shown_to_both_and_the_director(
    client, table, alice, bob, carol
):
    record(table, bob, FIRST)
    round_ = round_at(table, 1)
    client.force_login(carol)
    data = {"version": round_.version, "action": "save"}
    for position, outcome in by_seat(table, OTHER).items():
        kind, value = next(iter(outcome.items()))
        data[f"s{position}-kind"] = kind
        data[f"s{position}-cards" if kind != "points" else f"s{position}-points"] = value
    url = reverse("games:round_confirm", args=[table.pk, round_.pk])
    page = client.post(url, data, follow=True).content.decode()
    assert "differs from the first" in page

    for user in (bob, carol, alice):
        page = sheet(client, user, table)
        assert "First entry" in page and "Second entry" in page
        assert page.count('class="differs"') == 1  # carol's line alone
    assert "Take the second entry" in page  # alice directs
    assert "Take the second entry" not in sheet(client, bob, table)


def test_the_sheet_in_russian_says_the_round_waits(client, table, bob, carol):
    record(table, bob, FIRST)
    client.force_login(carol)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    page = client.get(table.get_absolute_url()).content.decode()
    assert "ждёт подтверждения" in page
    assert "Подтвердить раунд 1" in page


def second_entry(table, outcomes, action):
    """The check form's fields, as carol's browser posts them (`action` save or preview)."""
    round_ = round_at(table, 1)
    data = {"version": round_.version, "action": action}
    for position, outcome in by_seat(table, outcomes).items():
        kind, value = next(iter(outcome.items()))
        data[f"s{position}-kind"] = kind
        data[f"s{position}-cards" if kind != "points" else f"s{position}-points"] = value
    return reverse("games:round_confirm", args=[table.pk, round_.pk]), data


def test_the_live_preview_of_a_second_entry_shows_its_scores(client, table, bob, carol):
    record(table, bob, FIRST)
    client.force_login(carol)
    url, data = second_entry(table, OTHER, "preview")
    response = client.post(url, data, headers={"HX-Request": "true", "HX-Target": "preview"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "If saved" in page
    assert "<td>+12</td>" in page  # carol's 12 as she saw them
    assert round_at(table, 1).disputes.count() == 0  # a preview saves nothing


def test_the_preview_of_a_second_entry_without_javascript_shows_the_sheet(
    client, table, bob, carol
):
    record(table, bob, FIRST)
    client.force_login(carol)
    url, data = second_entry(table, OTHER, "preview")
    page = client.post(url, data).content.decode()
    assert "If saved" in page and "check-form" in page


def test_the_second_entry_has_the_card_grid_to_tap(client, table, bob, carol):
    record(table, bob, FIRST)
    page = sheet(client, carol, table)
    form = page[page.index('class="round-form check-form"') :]
    assert 'data-card="QS"' in form[: form.index("</form>")]
