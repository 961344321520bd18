"""Tournament pages by role: director, co-director, seated player, another user, anonymous."""

import csv
import io
import re

import pytest
import segno
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Match
from tests.factories import play_out, record, rules_form_data
from tests.tournaments.factories import enter, import_file, read_file, seated, second_round_of_eight
from tournaments import queries, services
from tournaments.models import Tournament, TournamentRound

pytestmark = pytest.mark.django_db


def form_data(**changes):
    data = rules_form_data() | {
        "name": "Club night",
        "date": "2026-11-22",
        "place": "Club",
        "description": "",
        "rounds_planned": "3",
        "table_size": "4",
        "match_end": "played_out",
        "deals_per_match": "",
        "final_table_size": "",
        "registration_open": "on",
        "points_4": "3, 2, 1, 0",
        "points_3": "3, 1.5, 0",
        "points_2": "3, 0",
        "tie_break_1": "penalty_total",
        "tie_break_2": "deals_won",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def running(alice, bob, carol, tournament):
    """Round 1 seated: carol (an account) and five guests; bob co-directs."""
    services.add_director(tournament=tournament, username="bob")
    enter(tournament, ["carol", "G1", "G2", "G3", "G4", "G5"], alice)
    services.seat_next_round(tournament=tournament, by=alice)
    return tournament


def carols_table(tournament):
    round_ = tournament.rounds.get()
    for table in round_.tables.all():
        if table.match.seats.filter(player__user__username="carol").exists():
            mine = table
        else:
            other = table
    return mine, other


def deal(match):
    """Form data of one deal of `match`: the first seat goes out, the others hold a card."""
    seats = list(match.seats.order_by("position"))
    match.refresh_from_db()
    data = {"version": str(match.version), "action": "save"}
    cards = iter(["9♣", "7♣", "8♣", "10♣"])
    for index, seat in enumerate(seats):
        data[f"s{seat.position}-kind"] = "out" if index == 0 else "hand"
        data[f"s{seat.position}-cards"] = next(cards)
    return data


# --- reading -------------------------------------------------------------------------------


def test_everyone_can_read_a_tournament(client, running):
    pk = running.pk
    for url in [
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[pk]),
        reverse("tournaments:projector", args=[pk]),
        reverse("tournaments:round", args=[pk, 1]),
        reverse("tournaments:cards", args=[pk, 1]),
        reverse("tournaments:standings_csv", args=[pk]),
        reverse("tournaments:results_csv", args=[pk]),
    ]:
        assert client.get(url).status_code == 200, url


def test_the_tournament_list_has_empty_states(client):
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "No tournament is being played right now." in page


def test_the_standings_csv_lists_every_player_with_the_tie_breaks(client, running, alice):
    mine, other = carols_table(running)
    for table in (mine, other):
        seats = list(table.match.seats.select_related("player").order_by("position"))
        record(
            table.match,
            alice,
            {
                s.player.name: ({"out": "9C"} if i == 0 else {"points": 140})
                for i, s in enumerate(seats)
            },
        )
    text = client.get(reverse("tournaments:standings_csv", args=[running.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0] == [
        "Rank",
        "Player",
        "Points",
        "Round 1",
        "Tables",
        "Total penalty points (fewer is better)",
        "Deals won",
        "Dropped",
    ]
    assert len(rows) == 7
    # Each table's winner went out at once: 3 points (all in round 1), 0 penalty, 1 deal won,
    # tied first.
    winners = rows[1:3]
    assert [(w[0], w[2], w[3], w[4], w[5], w[6]) for w in winners] == [
        ("1", "3", "3", "1", "0", "1")
    ] * 2


def test_the_tables_csv_carries_the_tournament_points_each_place_earned(client, running, alice):
    mine, _other = carols_table(running)
    seats = list(mine.match.seats.select_related("player").order_by("position"))
    # Three players: the first goes out, the other two tie over the limit (share 2nd and 3rd).
    record(
        mine.match,
        alice,
        {
            s.player.name: ({"out": "9C"} if i == 0 else {"points": 140})
            for i, s in enumerate(seats)
        },
    )
    text = client.get(reverse("tournaments:results_csv", args=[running.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][4:6] == ["Place", "Points"]
    finished = [row for row in rows[1:] if row[1] == str(mine.number)]
    assert sorted((row[4], row[5]) for row in finished) == [
        ("1", "3"),
        ("2", "0.75"),
        ("2", "0.75"),
    ]
    unfinished = [row for row in rows[1:] if row[1] != str(mine.number)]
    assert {row[5] for row in unfinished} == {""}


def test_on_a_phone_tied_players_show_the_tie_break_that_separated_them(client, running, alice):
    mine, other = carols_table(running)
    for base, table in ((110, mine), (120, other)):
        seats = list(table.match.seats.select_related("player").order_by("position"))
        outcomes = {
            s.player.name: ({"out": "9C"} if i == 0 else {"points": base + i})
            for i, s in enumerate(seats)
        }
        record(table.match, alice, outcomes)
    page = client.get(running.get_absolute_url()).content.decode()
    # The two winners are level on points and on every tie-break; the seconds of the two
    # tables are level on points and parted by their penalty totals.
    assert page.count('<small class="tie-note">level on every tie-break</small>') == 2
    full = "Total penalty points (fewer is better)"
    for total in (111, 121):
        assert f'<small class="tie-note" title="{full}">Penalty: {total}</small>' in page


def test_the_projector_shows_the_round_clock(client, alice, running):
    round_ = running.rounds.get()
    client.force_login(alice)
    client.post(reverse("tournaments:clock", args=[running.pk, 1]), {"minutes": "45"})
    round_.refresh_from_db()
    assert round_.clock_minutes == 45 and round_.clock_started_at is not None
    page = client.get(reverse("tournaments:projector", args=[running.pk])).content.decode()
    assert "data-ends-at=" in page


def test_the_projector_shows_the_tables_with_nothing_to_press(client, running):
    page = client.get(reverse("tournaments:projector", args=[running.pk])).content.decode()
    screen = page.split('id="screen"', 1)[1].split("</main>", 1)[0]
    assert "Round 1 of 2" in screen and "Table 1" in screen and "Table 2" in screen
    assert "Enter scores" not in screen and "<a " not in screen and "<button" not in screen
    assert 'class="projector-page"' in page  # the site's menu is hidden on it


def test_the_projector_pages_through_many_players_by_itself(client, alice, tournament):
    # 40 players: three pages of 14, 14 and 12 (up to 16 fit on one).
    enter(tournament, [f"P{i:02}" for i in range(40)], alice)
    url = reverse("tournaments:projector", args=[tournament.pk])
    first = client.get(url).content.decode()
    assert "1 / 3" in first and "P00" in first and "P13" in first and "P14" not in first
    version = Tournament.objects.get(pk=tournament.pk).version
    assert f'hx-get="{url}?page=2&amp;v={version}"' in first
    third = client.get(url, {"page": "3"}).content.decode()
    assert "3 / 3" in third and "P28" in third and "P39" in third and "P27" not in third
    assert f'hx-get="{url}?page=1&amp;v={version}"' in third  # and round again
    assert "3 / 3" in client.get(url, {"page": "99"}).content.decode()  # the last page


def test_after_the_last_round_the_projector_shows_the_final_standings_and_the_winner(
    client, alice, running
):
    for number in (1, 2):
        round_ = running.rounds.get(number=number)
        for table in round_.tables.all():
            play_out(table.match, alice)
        services.close_round(round_=round_, by=alice)
        if number == 1:
            services.seat_next_round(tournament=running, by=alice)
    page = client.get(reverse("tournaments:projector", args=[running.pk])).content.decode()
    assert "Final standings" in page and "Round 2 of 2" not in page
    winners = [line for line in queries.standing_lines(running) if line.standing.rank == 1]
    names = ", ".join(f"<strong>{line.entrant.player}</strong>" for line in winners)
    assert len(winners) == 3  # tied for first: "Winners"
    assert f"Winners: {names}" in page
    # The number after the names says what it is.
    assert re.search(rf"{re.escape(names)} · [0-9.]+ points?</p>", page)
    ru = client.get(
        reverse("tournaments:projector", args=[running.pk]), headers={"Accept-Language": "ru"}
    ).content.decode()
    assert re.search(r"</strong> · [0-9,]+ очк(о|а|ов)</p>", ru)
    assert "Tables</h2>" not in page


def test_the_table_cards_name_the_seats_and_the_rules(client, running):
    page = client.get(reverse("tournaments:cards", args=[running.pk, 1])).content.decode()
    assert "Seat 1" in page and "leads first" in page
    assert "Classic: 36 cards, 4 each" in page
    # In Russian without a gender: the player at seat 1 may be a woman.
    url = reverse("tournaments:cards", args=[running.pk, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<em>— первый ход</em>" in page and "первым" not in page


def test_each_table_card_carries_a_qr_code_of_its_score_sheet(client, running):
    page = client.get(reverse("tournaments:cards", args=[running.pk, 1])).content.decode()
    tables = list(running.rounds.get().tables.select_related("match"))
    assert page.count('<figure class="qr" role="img"') == len(tables) == 2
    assert page.count("<svg") == 2 and "style=" not in page.split("<main", 1)[1]
    # The code holds the sheet's full address.
    expected = segno.make(f"http://testserver{tables[0].match.get_absolute_url()}", error="m")
    assert expected.svg_inline(scale=4, omitsize=True, dark="#000") in page


def test_a_player_finds_their_table_on_the_tournament_page_and_the_home_page(
    client, running, carol
):
    table, _other = carols_table(running)
    seat = table.match.seats.get(player__user=carol).position + 1
    client.force_login(carol)
    for url in (running.get_absolute_url(), reverse("home")):
        page = client.get(url).content.decode()
        assert f"Table {table.number}, seat {seat}" in page
        assert f'class="seat-now" href="{table.match.get_absolute_url()}"' in page
    assert "Club night · Round 1" in client.get(reverse("home")).content.decode()
    # Once the round is closed there is no table to go to.
    for each in running.rounds.get().tables.all():
        play_out(each.match, running.created_by)
    services.close_round(round_=running.rounds.get(), by=running.created_by)
    assert "seat-now" not in client.get(reverse("home")).content.decode()


def test_match_lists_say_which_tournament_table_a_match_is(client, running, carol):
    table, _other = carols_table(running)
    client.force_login(carol)
    page = client.get(reverse("games:match_list") + "?show=mine").content.decode()
    assert f"Club night · Round 1 · Table {table.number}" in page


# --- roles ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "carol", "dave"])
def test_only_directors_change_a_tournament(client, running, carol, dave, who):
    if who != "anonymous":
        client.force_login({"carol": carol, "dave": dave}[who])
    pk = running.pk
    entrant = running.entrants.first()
    attempts = [
        client.get(reverse("tournaments:edit", args=[pk])),
        client.post(reverse("tournaments:edit", args=[pk]), form_data(name="Taken")),
        client.get(reverse("tournaments:players", args=[pk])),
        client.post(reverse("tournaments:players", args=[pk]), {"form": "add", "add-names": "X"}),
        client.post(reverse("tournaments:entrant", args=[pk, entrant.pk]), {"action": "drop"}),
        client.post(reverse("tournaments:seat", args=[pk])),
        client.post(reverse("tournaments:reseat", args=[pk, 1])),
        client.post(reverse("tournaments:close_round", args=[pk, 1])),
        client.post(reverse("tournaments:close_table", args=[pk, 1, 1])),
        client.post(reverse("tournaments:clock", args=[pk, 1]), {"minutes": "30"}),
        client.post(reverse("tournaments:swap", args=[pk, 1]), {"first": "1", "second": "2"}),
        client.get(reverse("tournaments:directors", args=[pk])),
    ]
    if who == "anonymous":  # asked to sign in first
        assert {r.status_code for r in attempts} == {302}
        assert all(r.url.startswith(reverse("account_login")) for r in attempts)
    else:
        assert [r.status_code for r in attempts] == [403] * len(attempts)
    running.refresh_from_db()
    assert running.name == "Club night"
    assert running.entrants.count() == 6
    assert TournamentRound.objects.get().seed == running.rounds.get().seed
    assert not running.rounds.get().clock_started_at


def test_a_co_director_runs_the_tournament(client, bob, running):
    client.force_login(bob)
    assert client.get(reverse("tournaments:players", args=[running.pk])).status_code == 200
    response = client.post(reverse("tournaments:reseat", args=[running.pk, 1]), follow=True)
    assert "Round 1 has been seated again." in response.content.decode()
    # Only the creator manages the directors.
    assert client.get(reverse("tournaments:directors", args=[running.pk])).status_code == 403


def test_a_seated_player_keeps_score_at_their_own_table_only(client, carol, dave, running):
    mine, other = carols_table(running)
    client.force_login(carol)
    response = client.post(reverse("games:round_new", args=[mine.match.pk]), deal(mine.match))
    assert response.status_code == 302
    assert mine.match.rounds.count() == 1
    response = client.post(reverse("games:round_new", args=[other.match.pk]), deal(other.match))
    assert response.status_code == 403
    client.force_login(dave)
    response = client.post(reverse("games:round_new", args=[mine.match.pk]), deal(mine.match))
    assert response.status_code == 403
    assert mine.match.rounds.count() == 1


def test_directors_keep_score_at_every_table(client, bob, running):
    _mine, other = carols_table(running)
    client.force_login(bob)
    response = client.post(reverse("games:round_new", args=[other.match.pk]), deal(other.match))
    assert response.status_code == 302


# --- creating and bad input ----------------------------------------------------------------


def test_a_director_creates_a_tournament_with_house_rules(client, alice):
    client.force_login(alice)
    response = client.post(reverse("tournaments:new"), form_data(reset_at_100=None))
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("tournaments:players", args=[tournament.pk])
    assert tournament.variant.reset_at_100 is False
    assert tournament.points_by_place == {"4": [3, 2, 1, 0], "3": [3, 1.5, 0], "2": [3, 0]}
    assert tournament.tie_breaks == ["penalty_total", "deals_won"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "This field is required."),
        ({"rounds_planned": "0"}, "A tournament has 1 to 20 rounds."),
        ({"points_4": "3, 2, 1"}, "Give 4 numbers from the best place to the worst"),
        ({"points_3": "0, 1, 2"}, "Give 3 numbers from the best place to the worst"),
        ({"points_2": "three, none"}, "Give 2 numbers"),
        ({"tie_break_2": "penalty_total"}, "This tie-break is already listed."),
        ({"match_end": "deals"}, "Give the number of deals, from 1 to 100."),
        ({"final_table_size": "7"}, "A final table seats 2 to 4 players."),
        ({"table_size": "5"}, "Select a valid choice"),
        ({"date": "tomorrow"}, "Enter a valid date."),
    ],
)
def test_a_bad_tournament_form_says_what_is_wrong(client, alice, changes, message):
    client.force_login(alice)
    response = client.post(reverse("tournaments:new"), form_data(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_rules_cannot_change_after_round_one(client, alice, running):
    client.force_login(alice)
    url = reverse("tournaments:edit", args=[running.pk])
    response = client.post(url, form_data(nine_points="9"))
    assert (
        "The rules and tables cannot change once the first round is seated."
        in response.content.decode()
    )
    running.refresh_from_db()
    assert running.variant.nine_points == 0
    response = client.post(url, form_data(name="Friday night"))
    assert response.status_code == 302
    running.refresh_from_db()
    assert running.name == "Friday night"


def test_seating_with_too_few_players_says_so(client, alice, tournament):
    client.force_login(alice)
    enter(tournament, ["Solo"], alice)
    response = client.post(reverse("tournaments:seat", args=[tournament.pk]), follow=True)
    assert (
        "At least two checked-in players are needed to seat a round." in response.content.decode()
    )
    assert not tournament.rounds.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first": "x", "second": "1"}, "Choose two different players"),
        ({}, "Choose two different players"),
    ],
)
def test_a_bad_swap_says_so(client, alice, running, data, message):
    client.force_login(alice)
    response = client.post(reverse("tournaments:swap", args=[running.pk, 1]), data, follow=True)
    assert message in response.content.decode()


@pytest.mark.parametrize("minutes", ["0", "abc", "100000"])
def test_a_bad_clock_says_so(client, alice, running, minutes):
    client.force_login(alice)
    response = client.post(
        reverse("tournaments:clock", args=[running.pk, 1]), {"minutes": minutes}, follow=True
    )
    assert "The round clock runs for 1 to 600 minutes." in response.content.decode()
    assert not running.rounds.get().clock_started_at


def test_closing_an_unfinished_round_says_which_tables(client, alice, running):
    client.force_login(alice)
    response = client.post(reverse("tournaments:close_round", args=[running.pk, 1]), follow=True)
    assert "These tables have not finished: 1, 2." in response.content.decode()
    assert not running.rounds.get().is_closed


# --- players -------------------------------------------------------------------------------


def test_players_register_themselves_while_registration_is_open(client, carol, tournament):
    client.force_login(carol)
    client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert tournament.entrants.filter(player__user=carol).exists()
    response = client.post(reverse("tournaments:register", args=[tournament.pk]), follow=True)
    assert "You are already registered." in response.content.decode()
    tournament.registration_open = False
    tournament.save()
    client.post(reverse("tournaments:unregister", args=[tournament.pk]))
    response = client.post(reverse("tournaments:register", args=[tournament.pk]), follow=True)
    assert "Registration for this tournament is closed." in response.content.decode()
    assert not tournament.entrants.exists()


def test_registering_needs_an_account(client, tournament):
    response = client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert response.status_code == 302
    assert not tournament.entrants.exists()


def test_a_director_adds_checks_in_and_imports_players(client, alice, tournament):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[tournament.pk])
    client.post(url, {"form": "add", "add-names": "Anna\nBoris\n"})
    anna = tournament.entrants.get(player__name="Anna")
    assert not anna.checked_in
    client.post(
        reverse("tournaments:entrant", args=[tournament.pk, anna.pk]), {"action": "check_in"}
    )
    anna.refresh_from_db()
    assert anna.checked_in
    response = import_file(client, tournament, b"name,checked_in\nVera,yes\n")
    assert "1 player imported." in response.content.decode()
    assert tournament.entrants.get(player__name="Vera").checked_in


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"form": "add", "add-names": "  "}, "This field is required."),
        ({"form": "add", "add-names": "x" * 41}, "A name can have at most 40 characters"),
    ],
)
def test_adding_bad_names_says_what_is_wrong(client, alice, tournament, data, message):
    client.force_login(alice)
    response = client.post(reverse("tournaments:players", args=[tournament.pk]), data)
    assert message in response.content.decode()
    assert not tournament.entrants.exists()


def test_a_pasted_list_adds_the_new_names_and_lists_those_it_skipped(client, alice, tournament):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[tournament.pk])
    client.post(url, {"form": "add", "add-names": "Anna"}, follow=True)
    response = client.post(url, {"form": "add", "add-names": "Boris\nAnna\nboris"}, follow=True)
    page = response.content.decode()
    assert "Added: Boris." in page
    assert "Skipped, entered already or listed twice: boris, Anna." in page
    assert tournament.entrants.count() == 2


def test_the_director_checks_in_everyone_at_once(client, alice, tournament):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[tournament.pk])
    client.post(url, {"form": "add", "add-names": "Anna\nBoris\nVera"})
    page = client.get(url).content.decode()
    assert "Check in all 3 players left" in page
    response = client.post(
        reverse("tournaments:check_in_everyone", args=[tournament.pk]), follow=True
    )
    assert "3 players checked in." in response.content.decode()
    assert tournament.entrants.filter(checked_in=True).count() == 3
    assert "Check in all" not in client.get(url).content.decode()


def test_removing_dropping_and_closing_ask_first(client, alice, tournament):
    client.force_login(alice)
    url = reverse("tournaments:players", args=[tournament.pk])
    client.post(url, {"form": "add", "add-names": "Anna"})
    page = client.get(url).content.decode()
    assert 'data-confirm="Remove Anna from the tournament?"' in page


def test_a_file_that_is_not_text_is_refused(client, alice, tournament):
    client.force_login(alice)
    response = read_file(client, tournament, b"PK\x03\x04\x14\x00\x06\x00")  # an .xlsx
    assert (
        "This is not a CSV text file (a spreadsheet?); save it as CSV." in response.content.decode()
    )
    assert not tournament.entrants.exists()


def test_the_creator_adds_a_co_director(client, alice, bob, tournament):
    client.force_login(alice)
    url = reverse("tournaments:directors", args=[tournament.pk])
    response = client.post(url, {"username": "nobody"})
    assert "There is no account called “nobody”." in response.content.decode()
    client.post(url, {"username": "bob"})
    assert tournament.is_director(bob)
    client.post(url, {"username": "bob", "action": "remove"})
    assert not tournament.is_director(bob)


def test_a_tournament_table_cannot_be_deleted_or_rematched(client, alice, running):
    match = running.rounds.get().tables.first().match
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Club night" in page and "Delete match" not in page
    response = client.post(reverse("games:match_delete", args=[match.pk]), follow=True)
    assert "This match is a tournament table and cannot be deleted." in response.content.decode()
    response = client.post(reverse("games:rematch", args=[match.pk]), follow=True)
    assert "A tournament table is not played again" in response.content.decode()
    assert running.rounds.get().tables.count() == 2


def test_tables_and_players_are_listed_in_order(client, alice, running):
    page = client.get(reverse("tournaments:round", args=[running.pk, 1])).content.decode()
    assert page.index("Table 1") < page.index("Table 2")
    client.force_login(alice)
    page = client.get(reverse("tournaments:players", args=[running.pk])).content.decode()
    names = ["G1", "G2", "G3", "G4", "G5"]
    positions = [page.index(f"<td>{name}") for name in names]
    assert positions == sorted(positions)


def test_a_table_closed_by_hand_can_be_reopened_until_the_round_closes(client, alice, running):
    client.force_login(alice)
    url = reverse("tournaments:close_table", args=[running.pk, 1, 1])
    client.post(url)
    table = running.rounds.get().tables.get(number=1)
    assert Match.objects.get(pk=table.match_id).is_finished
    page = client.get(reverse("tournaments:round", args=[running.pk, 1])).content.decode()
    assert "Reopen table 1" in page
    response = client.post(url, {"action": "reopen"}, follow=True)
    assert "Table 1 has been reopened." in response.content.decode()
    assert not Match.objects.get(pk=table.match_id).is_finished


def test_the_standings_link_each_player_to_their_profile(client, alice, running):
    mine, _other = carols_table(running)
    play_out(mine.match, alice)
    body = client.get(reverse("tournaments:detail", args=[running.pk])).content.decode()
    for seat in mine.match.seats.select_related("player"):
        url = reverse("stats:profile", args=[seat.player_id])
        assert f'href="{url}" title="{seat.player.name}">{seat.player.name}</a>' in body


def test_a_swap_that_repeats_a_meeting_asks_on_a_page_of_its_own(client, alice, tournament):
    first, second = second_round_of_eight(alice, tournament)
    ids = dict(tournament.entrants.values_list("player__name", "player_id"))
    table_a, table_b = seated(second)
    mover = next(p for p in table_a if p in seated(first)[0])
    target = next(p for p in table_b if p in seated(first)[1])
    client.force_login(alice)
    url = reverse("tournaments:swap", args=[tournament.pk, 2])
    response = client.post(url, {"first": ids[mover], "second": ids[target]})
    page = response.content.decode()
    assert response.status_code == 200 and "Players would meet again" in page
    assert 'name="confirmed" value="yes"' in page
    assert seated(second) == [table_a, table_b]
    response = client.post(url, {"first": ids[mover], "second": ids[target], "confirmed": "yes"})
    assert response.url == reverse("tournaments:round", args=[tournament.pk, 2])
    assert seated(second) != [table_a, table_b]


def test_a_refused_swap_says_why_on_the_round_page(client, alice, tournament):
    second_round_of_eight(alice, tournament)
    client.force_login(alice)
    round_page = reverse("tournaments:round", args=[tournament.pk, 2])
    assert 'name="next" value="' + round_page + '"' in client.get(round_page).content.decode()
    response = client.post(
        reverse("tournaments:swap", args=[tournament.pk, 2]),
        {"first": "1", "second": "1", "next": round_page},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == round_page
    assert "Choose two different players of this round." in response.content.decode()


def test_a_refresh_that_finds_nothing_new_is_answered_without_a_page(client, alice, running):
    url = running.get_absolute_url()
    page = client.get(url).content.decode()
    version = Tournament.objects.get(pk=running.pk).version
    assert f'hx-get="{url}?v={version}"' in page
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(url, {"v": version}, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204 and unchanged.content == b""
    assert len(queries) == 1  # the version alone
    # A score entered moves the version: the next refresh brings the new standings and tables.
    mine, _other = carols_table(running)
    seats = list(mine.match.seats.select_related("player").order_by("position"))
    outcomes = {s.player.name: {"points": 10 + i} for i, s in enumerate(seats)}
    outcomes[seats[0].player.name] = {"out": "9C"}
    record(mine.match, alice, outcomes)
    changed = client.get(url, {"v": version}, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "1 deal" in changed.content.decode()
    # The projector (one page of standings) answers the same way.
    projector = reverse("tournaments:projector", args=[running.pk])
    version = Tournament.objects.get(pk=running.pk).version
    quiet = client.get(projector, {"v": version, "page": 2}, headers={"HX-Request": "true"})
    assert quiet.status_code == 204


def test_the_public_page_shows_the_current_round_and_links_the_earlier_ones(client, alice, running):
    for table in running.rounds.get().tables.all():
        play_out(table.match, alice)
    services.close_round(round_=running.rounds.get(), by=alice)
    services.seat_next_round(tournament=running, by=alice)
    page = client.get(running.get_absolute_url()).content.decode()
    assert "Round 2" in page
    assert f'href="{reverse("tournaments:round", args=[running.pk, 1])}"' in page
    round_one_tables = running.rounds.get(number=1).tables.all()
    assert all(t.match.get_absolute_url() not in page for t in round_one_tables)


def test_lists_sort_names_without_regard_to_case(client, alice, tournament):
    enter(tournament, ["carl", "Anna", "bob", "Вера", "анна"], alice)
    client.force_login(alice)
    page = client.get(reverse("tournaments:players", args=[tournament.pk])).content.decode()
    order = [page.index(f"<td>{name}") for name in ("Anna", "bob", "carl")]
    assert order == sorted(order)
    assert [e.player.name for e in tournament.entrants.all()][:3] == ["Anna", "bob", "carl"]


def test_only_a_director_is_asked_to_enter_scores_a_visitor_reads_the_sheet(
    client, alice, carol, running
):
    round_page = reverse("tournaments:round", args=[running.pk, 1])
    tables = len(running.rounds.get().tables.all())

    def table_links(response) -> list[str]:
        return re.findall(r'class="sheet-link-button"[^>]*>([^<]*)</a>', response.content.decode())

    for who, label, russian in (
        (None, "Score sheet →", "Протокол →"),
        (carol, "Score sheet →", "Протокол →"),  # a player at a table, not a director
        (alice, "Enter scores →", "Записать счёт →"),
    ):
        if who is not None:
            client.force_login(who)
        for page in (client.get(round_page), client.get(running.get_absolute_url())):
            assert table_links(page) == [label] * tables, who
        russian_page = client.get(round_page, headers={"Accept-Language": "ru"})
        assert table_links(russian_page) == [russian] * tables, who


def test_a_tables_breadcrumbs_end_with_its_name_not_a_separator(client, running):
    table = running.rounds.get(number=1).tables.first()
    page = client.get(table.match.get_absolute_url()).content.decode()
    crumbs = re.search(r'<p class="crumbs">(.*?)</p>', page, re.S).group(1)
    assert not crumbs.rstrip().endswith("›")
    assert crumbs.count("›") >= 1
