"""The score sheet as its users see it: pages, htmx fragments, permissions and bad input."""

import re

import pytest
from django.db import connection
from django.template.loader import get_template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards101.engine.game import MOVE_LIMIT
from cards101.rules import PRESETS, Variant
from games import services
from games.models import Entry, Match
from tests.factories import (
    counts_tables_of,
    make_match,
    play_out,
    record,
    round_at,
    rules_form_data,
)
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def round_data(version, *outcomes, action="save"):
    """Form data of a round made on `version`: one (kind, cards or points) per seat, in seat
    order."""
    data = {"version": str(version), "action": action}
    for position, (kind, value) in enumerate(outcomes):
        data[f"s{position}-kind"] = kind
        data[f"s{position}-{'points' if kind == 'points' else 'cards'}"] = str(value)
    return data


GOOD_ROUND = [("out", "Q♠"), ("hand", "A♣ 9h"), ("points", 17)]


def post_round(client, match, *outcomes, version=None, **extra):
    """Post a new round, made on the sheet as it is now unless `version` says otherwise."""
    if version is None:
        match.refresh_from_db()
        version = match.version
    url = reverse("games:round_new", args=[match.pk])
    return client.post(url, round_data(version, *outcomes), **extra)


def edit_url(match, number):
    return reverse("games:round_edit", args=[match.pk, round_at(match, number).pk])


def delete_url(match, number):
    return reverse("games:round_delete", args=[match.pk, round_at(match, number).pk])


# --- reading -----------------------------------------------------------------------------


def test_anyone_can_read_the_sheet_without_the_round_form(client, alice, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"points": 17}})
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    page = response.content.decode()
    assert "-40" in page and "Dan" in page and "17" in page
    assert 'id="round-form"' not in page
    assert "Only the match&#x27;s creator and its scorekeepers can change its rounds." in page


def test_the_creator_sees_the_round_form_with_a_card_grid(client, alice, match):
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="round-form"' in page
    assert page.count('data-card="QS"') == 3  # one grid per player
    assert "Classic: 36 cards, 4 each" in page


def test_the_sheet_shows_events_and_standings(client, alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 100}},
        {"alice": {"out": "QH"}, "Dan": {"hand": "AD"}, "Eve": {"hand": "AS AH 10S 10H 10D"}},
    )
    page = client.get(match.get_absolute_url()).content.decode()
    assert "reset to 50" in page
    assert "lost" in page
    assert "Standings" in page


def test_a_seat_out_of_the_match_is_said_so_in_the_readers_language(client, alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    # Eve goes over 101 in round 1; the two others play round 2 without her.
    record(
        match,
        alice,
        {"alice": {"points": 10}, "Dan": {"out": "QS"}, "Eve": {"points": 120}},
        {"alice": {"out": "QH"}, "Dan": {"points": 5}},
    )
    page = client.get(match.get_absolute_url(), headers={"Accept-Language": "ru"})
    assert 'class="cell gone" aria-label="вне игры"' in page.content.decode()
    page = client.get(match.get_absolute_url(), headers={"Accept-Language": "en"})
    assert 'class="cell gone" aria-label="out of the match"' in page.content.decode()


def test_a_finished_match_shows_the_final_ranking_and_offers_a_rematch(client, alice):
    match = make_match(alice, ["alice", "Dan"], "aaow")
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"points": 150}})
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Final ranking" in page
    assert "Rematch with the same players" in page
    assert 'id="round-form"' not in page


def test_the_live_view_is_public_and_refreshes_itself_on_the_matchs_events(client, match):
    response = client.get(reverse("games:match_live", args=[match.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    events = reverse("games:match_events", args=[match.pk])
    assert f'data-live-events="{events}?v={match.version}"' in page
    assert f'data-live-version="{match.version}"' in page
    # Told by the events; the poll is only the slow fallback.
    assert 'hx-trigger="live, every 15s"' in page
    fragment = client.get(reverse("games:match_live", args=[match.pk]), **HTMX)
    assert fragment.content.decode().lstrip().startswith('<div id="live"')


def test_the_match_list_shows_mine_and_recent(client, alice, bob, match):
    other = make_match(bob, ["bob", "Zed"])
    client.force_login(alice)
    mine = client.get(reverse("games:match_list") + "?show=mine").content.decode()
    assert match.get_absolute_url() in mine and other.get_absolute_url() not in mine
    recent = client.get(reverse("games:match_list") + "?show=recent").content.decode()
    assert match.get_absolute_url() in recent and other.get_absolute_url() in recent


def test_the_match_list_finds_matches_by_player_and_status(client, alice, bob):
    finished = make_match(alice, ["alice", "Zoya"])
    record(finished, alice, {"alice": {"out": "7C"}, "Zoya": {"points": 150}})
    running = make_match(alice, ["alice", "Dan"])
    other = make_match(bob, ["bob", "zoya"])  # bob's own guest of the same name
    url = reverse("games:match_list")

    def listed(**params) -> set[int]:
        page = client.get(url, params).content.decode()
        return {m.pk for m in (finished, running, other) if m.get_absolute_url() in page}

    assert listed(player="ZOY") == {finished.pk, other.pk}
    assert listed(player="zoya", status="finished") == {finished.pk}
    assert listed(status="running") == {running.pk, other.pk}
    client.force_login(alice)
    assert listed(show="mine", player="Dan") == {running.pk}
    assert listed(show="mine") == {finished.pk, running.pk}
    page = client.get(url, {"player": "nobody"}).content.decode()
    assert "No match fits these filters." in page
    # A value the list does not know is shown as an error, and the list stays as by default.
    page = client.get(url, {"status": "lost"}).content.decode()
    assert "Select a valid choice." in page
    assert finished.get_absolute_url() in page


def test_the_match_list_has_an_empty_state(client, alice):
    client.force_login(alice)
    page = client.get(reverse("games:match_list")).content.decode()
    assert "You have no matches yet." in page


def test_an_unknown_match_is_404(client):
    assert client.get(reverse("games:match", args=[999])).status_code == 404


# --- entering rounds ---------------------------------------------------------------------


def test_the_creator_enters_a_round(client, alice, match):
    client.force_login(alice)
    response = post_round(client, match, *GOOD_ROUND)
    assert response.status_code == 302
    scores = dict(
        Entry.objects.filter(round__match=match).values_list("seat__player__name", "score")
    )
    assert scores == {"alice": -40, "Dan": 11, "Eve": 17}


def test_an_htmx_save_answers_with_the_fresh_sheet_fragment(client, alice, match):
    client.force_login(alice)
    response = post_round(client, match, *GOOD_ROUND, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="match-body">')
    assert "Round 1 saved." in body
    assert "Round 2" in body  # a fresh form for the next round


def test_the_preview_shows_scores_and_totals_and_saves_nothing(client, alice, match):
    client.force_login(alice)
    url = reverse("games:round_new", args=[match.pk])
    response = client.post(
        url, round_data(1, *GOOD_ROUND, action="preview"), HTTP_HX_TARGET="preview", **HTMX
    )
    body = response.content.decode()
    assert "If saved" in body
    assert "<td>-40</td>" in body and "<td>+17</td>" in body
    assert not match.rounds.exists()


def test_the_preview_shows_errors_next_to_the_field(client, alice, match):
    client.force_login(alice)
    url = reverse("games:round_new", args=[match.pk])
    data = round_data(1, ("out", "Q♠"), ("hand", "Qx"), ("points", 17), action="preview")
    body = client.post(url, data, HTTP_HX_TARGET="preview", **HTMX).content.decode()
    assert 'id="err-s1" class="field-errors" aria-live="polite" hx-swap-oob="true"' in body
    assert "&quot;Qx&quot; is not a card" in body


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        ([("out", "Q♠"), ("hand", "Qx"), ("points", 17)], "&quot;Qx&quot; is not a card"),
        ([("out", "Q♠"), ("hand", "Q♠ 9h"), ("points", 17)], "Q♠ is given twice"),
        ([("out", "Q♠"), ("out", "9h"), ("points", 17)], "exactly one player goes out"),
        ([("hand", "Q♠"), ("hand", "9h"), ("points", 17)], "exactly one player goes out"),
        ([("out", "Q♠"), ("hand", "9h"), ("points", -5)], "cannot be negative"),
        ([("out", "Q♠"), ("hand", "9h"), ("points", 10**12)], "far more points than a deck holds"),
        ([("out", "Q♠"), ("hand", "9h"), ("points", 500)], "more than"),
        ([("out", "Q♠"), ("hand", "9h"), ("points", "many")], "Enter a whole number."),
        ([("out", "Q♠ K♠"), ("hand", "9h"), ("points", 3)], "Choose the one card"),
        ([("out", "Q♠"), ("hand", ""), ("points", 3)], "Enter the cards left"),
        ([("out", "Q♠"), ("hand", "5♠"), ("points", 3)], "not in"),
        ([("out", "Q♠"), ("nonsense", "9h"), ("points", 3)], "Select a valid choice"),
    ],
)
def test_bad_input_shows_a_clear_message_and_saves_nothing(client, alice, match, outcomes, message):
    client.force_login(alice)
    response = post_round(client, match, *outcomes)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not match.rounds.exists()
    assert not Entry.objects.exists()


def autofocused(body: str) -> list[str]:
    """The elements that take the keyboard's focus when the page or fragment arrives."""
    return re.findall(r"<(?:input|div)[^>]*\bautofocus\b[^>]*>", body)


def test_a_refused_save_takes_the_keyboard_to_the_first_marked_field(client, alice, match):
    client.force_login(alice)
    # Dan's cards are not cards; Eve's points are not a number either: Dan's comes first.
    response = post_round(client, match, ("out", "Q♠"), ("hand", "Qx"), ("points", "x"), **HTMX)
    [field] = autofocused(response.content.decode())
    assert 'id="id_s1-cards"' in field and 'aria-invalid="true"' in field
    # The preview by the save button says the round was not saved, not that it is being
    # filled in.
    body = response.content.decode()
    assert "Not saved: correct the marked fields." in body
    assert "as you fill in the round" not in body


def test_a_refused_save_takes_the_keyboard_to_the_rounds_own_error(client, alice, match):
    client.force_login(alice)
    response = post_round(client, match, ("out", "Q♠"), ("out", "9h"), ("points", 17), **HTMX)
    body = response.content.decode()
    [error] = autofocused(body)
    assert 'class="errors" role="alert" tabindex="-1"' in error
    assert body.index(error) < body.index("exactly one player goes out")


def test_a_preview_leaves_the_keyboard_where_it_is(client, alice, match):
    client.force_login(alice)
    url = reverse("games:round_new", args=[match.pk])
    data = round_data(1, ("out", "Q♠"), ("hand", "Qx"), ("points", 17), action="preview")
    assert autofocused(client.post(url, data, **HTMX).content.decode()) == []


def test_a_save_refused_with_a_message_takes_the_keyboard_to_it(client, alice, match):
    client.force_login(alice)
    post_round(client, match, *GOOD_ROUND, version=1)
    body = post_round(client, match, *GOOD_ROUND, version=1, **HTMX).content.decode()
    [message] = autofocused(body)
    assert 'class="messages"' in message
    assert "Round 1 has already been saved." in body


def test_a_round_posted_twice_is_saved_once(client, alice, match):
    client.force_login(alice)
    post_round(client, match, *GOOD_ROUND, version=1)
    response = post_round(client, match, *GOOD_ROUND, version=1, follow=True)
    page = response.content.decode()
    assert "Round 1 has already been saved." in page
    assert match.rounds.count() == 1
    assert 'value="A♣ 9h"' not in page  # nothing left in the form to save again


def test_a_form_with_a_missing_player_saves_nothing(client, alice, match):
    client.force_login(alice)
    data = round_data(1, ("out", "Q♠"), ("hand", "9h"))  # nothing for the third seat
    response = client.post(reverse("games:round_new", args=[match.pk]), data)
    assert "This field is required." in response.content.decode()
    assert not match.rounds.exists()


def test_no_round_can_be_entered_after_the_match_ended(client, alice):
    match = make_match(alice, ["alice", "Dan"], "aaow")
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"points": 150}})
    client.force_login(alice)
    response = post_round(client, match, ("out", "Q♥"), ("hand", "9h"), follow=True)
    assert "The match is over" in response.content.decode()
    assert match.rounds.count() == 1


def test_a_player_who_lost_is_not_in_the_next_rounds_form(client, alice, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 150}})
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert page.count("data-entry") == 2
    response = post_round(client, match, ("out", "Q♥"), ("hand", "9h"))
    assert response.status_code == 302
    assert match.rounds.count() == 2


def test_the_round_form_only_accepts_post(client, alice, match):
    client.force_login(alice)
    assert client.get(reverse("games:round_new", args=[match.pk])).status_code == 405


# --- changing rounds ---------------------------------------------------------------------


def test_an_earlier_round_can_be_edited_and_later_totals_follow(client, alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}},
        {"alice": {"hand": "10H"}, "Dan": {"out": "9C"}, "Eve": {"hand": "JH"}},
    )
    client.force_login(alice)
    url = edit_url(match, 1)
    page = client.get(url).content.decode()
    assert 'value="Q♠"' in page  # the form is prefilled
    response = client.post(url, round_data(1, ("hand", "AH"), ("hand", "AC"), ("out", "KH")))
    assert response.status_code == 302
    totals = dict(match.seats.values_list("player__name", "total"))
    assert totals == {"alice": 21, "Dan": 11, "Eve": 2}


def test_deleting_a_round_asks_first_then_recomputes(client, alice, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}})
    client.force_login(alice)
    url = delete_url(match, 1)
    confirm = client.get(url).content.decode()
    assert "Delete round 1?" in confirm
    assert match.rounds.count() == 1
    client.post(url, {"version": "1"})
    assert not match.rounds.exists()
    assert set(match.seats.values_list("total", flat=True)) == {0}


# --- permissions -------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_only_the_creator_and_scorekeepers_may_change_a_match(client, alice, carol, match, who):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}})
    if who == "carol":
        client.force_login(carol)
    pk = match.pk
    attempts = [
        post_round(client, match, ("out", "Q♥"), ("hand", "9h"), ("hand", "8h")),
        client.get(edit_url(match, 1)),
        client.post(edit_url(match, 1), round_data(1, *GOOD_ROUND)),
        client.post(delete_url(match, 1), {"version": "1"}),
        client.post(reverse("games:rematch", args=[pk])),
        client.post(reverse("games:scorekeepers", args=[pk]), {"username": "carol"}),
        client.post(reverse("games:match_delete", args=[pk])),
    ]
    if who == "carol":
        assert [r.status_code for r in attempts] == [403] * len(attempts)
        assert "Not allowed" in attempts[1].content.decode()  # the styled page
    else:  # asked to sign in first, and brought back
        login = reverse("account_login")
        assert {r.status_code for r in attempts} == {302}
        assert all(r.url.startswith(f"{login}?next=") for r in attempts)
        assert attempts[1].url == f"{login}?next={edit_url(match, 1)}"
    assert match.rounds.count() == 1
    assert Match.objects.count() == 1
    assert not match.scorekeepers.exists()


def test_a_scorekeeper_can_enter_rounds_but_not_manage_the_match(client, alice, bob, match):
    client.force_login(alice)
    response = client.post(reverse("games:scorekeepers", args=[match.pk]), {"username": "Bob"})
    assert response.status_code == 302
    client.force_login(bob)
    assert post_round(client, match, *GOOD_ROUND).status_code == 302
    assert match.rounds.get().entered_by == bob
    assert client.get(reverse("games:scorekeepers", args=[match.pk])).status_code == 403
    assert client.post(reverse("games:match_delete", args=[match.pk])).status_code == 403


def test_adding_an_unknown_scorekeeper_says_so(client, alice, match):
    client.force_login(alice)
    response = client.post(reverse("games:scorekeepers", args=[match.pk]), {"username": "zed"})
    assert "There is no account called “zed”." in response.content.decode()
    assert not match.scorekeepers.exists()


def test_the_creator_can_remove_a_scorekeeper(client, alice, bob, match):
    match.scorekeepers.add(bob)
    client.force_login(alice)
    client.post(
        reverse("games:scorekeepers", args=[match.pk]), {"username": "bob", "action": "remove"}
    )
    assert not match.scorekeepers.exists()


def test_the_creator_deletes_a_match_after_confirming(client, alice, match):
    client.force_login(alice)
    url = reverse("games:match_delete", args=[match.pk])
    assert "This cannot be undone." in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302
    assert not Match.objects.exists()


def test_posts_without_a_csrf_token_are_refused(alice, match):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert post_round(client, match, *GOOD_ROUND).status_code == 403
    assert not match.rounds.exists()


# --- new match ---------------------------------------------------------------------------


def new_match_data(**changes):
    data = rules_form_data() | {"player_1": "alice", "player_2": "Dan", "player_3": "Eve"}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_new_match_needs_an_account(client):
    response = client.get(reverse("games:new_match"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_a_new_match_seats_players_in_order_with_house_rules(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:new_match"), new_match_data(reset_at_100=None))
    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url()
    assert [s.player.name for s in match.seats.order_by("position")] == ["alice", "Dan", "Eve"]
    assert match.variant.reset_at_100 is False
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Classic with house rules" in page


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player_2": "", "player_3": ""}, "This field is required."),
        ({"player_3": "dan"}, "already at this table"),
        ({"lose_over": "7"}, "greater than or equal to 50"),
        ({"preset": "poker"}, "Select a valid choice"),
        ({"nine_points": "5"}, "Select a valid choice"),
    ],
)
def test_a_bad_new_match_form_says_what_is_wrong(client, alice, changes, message):
    client.force_login(alice)
    response = client.post(reverse("games:new_match"), new_match_data(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize("form", ["games:new_match", "play:new", "tournaments:new"])
def test_choosing_a_preset_refills_the_options(client, alice, form):
    # The new match, the new played table and the new tournament share one rules picker: each
    # page's presets ask the page's own address for the options, which answers with them alone.
    client.force_login(alice)
    url = reverse(form)
    page = client.get(url).content.decode()
    assert page.count(f'hx-get="{url}" hx-target="#options"') == len(PRESETS)
    assert page.count('<div id="options">') == 1
    fragment = client.get(url + "?preset=conventions", **HTMX)
    body = fragment.content.decode()
    assert body.lstrip().startswith('<div id="options">')
    assert '<option value="9" selected>' in body
    assert '<option value="H" selected>' in body


def _eve_loses_in_round_1(alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 120}},
        {"alice": {"out": "QH"}, "Dan": {"hand": "AD"}},
    )


def test_an_edit_that_would_bring_a_lost_player_back_names_the_rounds_to_delete(
    client, alice, match
):
    _eve_loses_in_round_1(alice, match)
    client.force_login(alice)
    url = edit_url(match, 1)
    response = client.post(url, round_data(1, ("out", "Q♠"), ("hand", "A♣"), ("points", 3)))
    page = response.content.decode()
    assert "This would bring Eve back into play, but round 2 was played without them" in page
    assert 'value="A♣"' in page  # what was typed is kept
    assert dict(match.seats.values_list("player__name", "total"))["Eve"] == 120


def test_deleting_a_round_a_later_round_depends_on_is_refused(client, alice, match):
    _eve_loses_in_round_1(alice, match)
    client.force_login(alice)
    url = delete_url(match, 1)
    page = client.post(url, {"version": "1"}, follow=True).content.decode()
    assert "This would bring Eve back into play, but round 2 was played without them" in page
    assert match.rounds.count() == 2


# --- languages ---------------------------------------------------------------------------


def test_the_site_speaks_russian_with_russian_card_notation(client, alice, match):
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    page = client.get(match.get_absolute_url()).content.decode()
    assert '<html lang="ru">' in page
    assert "Сохранить раунд" in page
    assert 'data-card="QS" data-label="Д♠"' in page
    assert "Классика" in page


def test_a_rules_error_is_explained_in_russian(client, alice, match):
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    response = post_round(client, match, ("out", "Д♠"), ("hand", "Дп"), ("points", 3))
    body = response.content.decode()
    assert "Карта Д♠ указана у двух игроков (alice, Dan)" in body
    assert not match.rounds.exists()


def test_the_preview_asks_to_correct_the_marked_fields(client, alice, match):
    client.force_login(alice)
    url = reverse("games:round_new", args=[match.pk])
    data = round_data(1, ("out", "Q♠"), ("hand", "Q♠"), ("points", 17), action="preview")
    body = client.post(url, data, HTTP_HX_TARGET="preview", **HTMX).content.decode()
    assert "Correct the marked fields to see the scores." in body
    assert "If saved" not in body


# --- the cached sheet --------------------------------------------------------------------


def test_the_cached_sheet_shows_a_round_saved_after_it_was_cached(client, alice, match):
    assert "No rounds yet" in client.get(match.get_absolute_url()).content.decode()
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"points": 17}})
    page = client.get(match.get_absolute_url()).content.decode()
    assert "No rounds yet" not in page
    assert '<span class="total">-40</span>' in page


def test_the_cached_sheet_keeps_edit_links_to_those_who_may_edit(client, alice, carol, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"points": 17}})
    url = edit_url(match, 1)
    client.force_login(alice)
    assert url in client.get(match.get_absolute_url()).content.decode()
    client.force_login(carol)
    assert url not in client.get(match.get_absolute_url()).content.decode()


def test_the_cached_sheet_follows_the_language(client, alice, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 100}})
    assert "reset to 50" in client.get(match.get_absolute_url()).content.decode()
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    page = client.get(match.get_absolute_url()).content.decode()
    assert "reset to 50" not in page
    assert "сброс до 50" in page


def test_a_stale_or_forged_version_saves_nothing_and_keeps_the_typed_round(client, alice, match):
    client.force_login(alice)
    for version in ("7", "abc", "", "-1", "99999999999999999999"):
        data = round_data(1, *GOOD_ROUND) | {"version": version}
        response = client.post(reverse("games:round_new", args=[match.pk]), data)
        page = response.content.decode()
        assert "The sheet changed while you were entering this round" in page
        assert 'value="A♣ 9h"' in page
        assert f'name="version" value="{match.version}"' in page
    assert not match.rounds.exists()


def test_adding_a_scorekeeper_without_a_name_says_so(client, alice, match):
    client.force_login(alice)
    response = client.post(reverse("games:scorekeepers", args=[match.pk]), {"username": " "})
    assert "Enter the username of the account that should keep score." in response.content.decode()


def test_a_match_of_two_players_leaves_the_other_seats_empty(client, alice):
    client.force_login(alice)
    data = new_match_data(player_3="")
    response = client.post(reverse("games:new_match"), data)
    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url()
    assert match.seats.count() == 2


def test_recent_matches_leave_tournament_tables_to_their_tournament(client, alice):
    casual = make_match(alice, ["alice", "Dan"])
    tournament = make_tournament(alice, name="Spring cup")
    enter(tournament, ["X1", "X2", "X3"], alice)
    table = tournaments.seat_next_round(tournament=tournament, by=alice).tables.get()
    page = client.get(reverse("home")).content.decode()
    assert casual.get_absolute_url() in page
    assert table.match.get_absolute_url() not in page
    assert "Spring cup" in page  # under "Tournaments being played"


# --- corrections -------------------------------------------------------------------------


def test_the_sheet_says_who_corrected_a_round_and_links_its_history(client, alice, bob, match):
    from tests.factories import change

    services.add_scorekeeper(match=match, username="bob", by=alice)
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}})
    change(match, bob, 1, {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"hand": "KH"}})
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Round 1 corrected by bob at" in page
    history_url = reverse("games:history", args=[match.pk])
    assert history_url in page
    history = client.get(history_url).content.decode()
    assert "cards left: A♣" in history and "cards left: A♣ 9♥" in history
    assert "by bob" in history


def test_an_edit_made_on_a_round_changed_since_shows_it_and_keeps_the_typed_change(
    client, alice, bob, match
):
    from tests.factories import change

    services.add_scorekeeper(match=match, username="bob", by=alice)
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}})
    url = edit_url(match, 1)
    change(match, bob, 1, {"alice": {"out": "QS"}, "Dan": {"hand": "AC 9H"}, "Eve": {"hand": "KH"}})
    client.force_login(alice)
    response = client.post(url, round_data(1, ("out", "Q♠"), ("hand", "10h"), ("hand", "K♥")))
    page = response.content.decode()
    assert "Round 1 has been changed by someone else meanwhile" in page
    assert "Round 1 as it is now" in page and "cards left: A♣ 9♥" in page
    assert 'value="10h"' in page
    assert 'name="version" value="2"' in page
    assert match.seats.get(position=1).total == 11


def test_a_delete_confirmed_twice_deletes_one_round(client, alice, match):
    record(
        match,
        alice,
        {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"hand": "KH"}},
        {"alice": {"hand": "10H"}, "Dan": {"out": "9C"}, "Eve": {"hand": "JH"}},
    )
    client.force_login(alice)
    url = delete_url(match, 1)
    client.post(url, {"version": "1"})
    response = client.post(url, {"version": "1"}, follow=True)
    assert "This round has already been deleted." in response.content.decode()
    assert list(match.rounds.values_list("number", flat=True)) == [1]
    assert match.rounds.get().entries.get(seat__position=1).cards == "9C"


def test_the_live_view_has_a_tv_mode_with_the_totals_alone(client, alice, match):
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 60}})
    url = reverse("games:match_live", args=[match.pk])
    plain = client.get(url).content.decode()
    assert 'href="?tv=1"' in plain and '<table class="sheet' in plain
    tv = client.get(url, {"tv": "1"}).content.decode()
    assert 'class="live-page tv-page"' in tv
    match.refresh_from_db()
    assert f'hx-get="{url}?v={match.version}&amp;tv=1"' in tv  # it stays a TV as it refreshes
    assert '<table class="sheet' not in tv and 'href="?tv=1"' not in tv
    assert "Eve" in tv and "60" in tv


def test_the_rules_page_lays_the_presets_side_by_side_in_both_languages(client):
    page = client.get(reverse("games:rules")).content.decode()
    assert "<h1>Rules of 101</h1>" in page
    # Every option of the rules model has a row, with each preset's value read from the code.
    assert page.count('<tr><th scope="row">') == len(Variant.option_names())
    assert "<td>Queen of spades</td><td>Queen of spades</td><td>Queen of hearts</td>" in page
    assert "<tr><td>Q</td><td>Д</td><td>Queen</td></tr>" in page
    russian = client.get(reverse("games:rules"), headers={"Accept-Language": "ru"})
    text = russian.content.decode()
    assert "Правила игры «101»" in text and "<td>Q</td><td>Д</td><td>Дама</td>" in text


def test_the_sheet_and_the_new_match_form_link_the_rules(client, alice, match):
    rules = reverse("games:rules")
    assert (
        f'<a href="{rules}">the rules</a>' in client.get(match.get_absolute_url()).content.decode()
    )
    client.force_login(alice)
    assert f'href="{rules}#presets"' in client.get(reverse("games:new_match")).content.decode()


def test_error_pages_are_the_sites_own(client, settings):
    settings.DEBUG = False
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    page = missing.content.decode()
    assert "<h1>Not found</h1>" in page and 'class="topbar"' in page
    # The 500 page stands alone (no template tags that could fail again), in both languages.
    text = get_template("500.html").render({})
    assert "Something went wrong" in text and "Что-то пошло не так" in text


def test_a_seated_account_leaves_from_the_sheet_after_confirming(client, alice, bob):
    counts_tables_of(bob, alice)
    match = make_match(alice, ["alice", "bob"])
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Leave this match" in page and "data-confirm=" in page
    response = client.post(reverse("games:leave", args=[match.pk]), follow=True)
    assert "You have left Match" in response.content.decode()
    assert "Leave this match" not in client.get(match.get_absolute_url()).content.decode()
    client.force_login(alice)  # the creator deletes instead: no "leave" for her
    assert "Leave this match" not in client.get(match.get_absolute_url()).content.decode()


def test_a_live_view_refresh_that_finds_nothing_new_is_answered_without_a_page(
    client, alice, match
):
    url = reverse("games:match_live", args=[match.pk])
    page = client.get(url).content.decode()
    match.refresh_from_db()
    assert f'hx-get="{url}?v={match.version}"' in page
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(url, {"v": match.version}, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204 and len(queries) == 1
    shown = match.version
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}, "Eve": {"points": 60}})
    changed = client.get(url, {"v": shown}, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "60" in changed.content.decode()
    huge = client.get(
        reverse("games:match_live", args=[99999999999999999999]),
        {"v": "1"},
        headers={"HX-Request": "true"},
    )
    assert huge.status_code == 404


def test_the_creator_keeps_a_score_sheet_out_of_the_ratings_and_counts_it_again(client, alice):
    from stats.models import RatingChange

    match = make_match(alice, ["alice", "Dan"])
    play_out(match, alice)
    assert RatingChange.objects.filter(match=match).count() == 2
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Keep out of the ratings" in page and "not rated" not in page

    response = client.post(reverse("games:rated", args=[match.pk]), {"rated": "0"}, follow=True)
    page = response.content.decode()
    assert "The match is kept out of the ratings: a practice match." in page
    assert "not rated (a practice match)" in page and "Count in the ratings" in page
    assert not RatingChange.objects.filter(match=match).exists()

    client.post(reverse("games:rated", args=[match.pk]), {"rated": "1"})
    assert RatingChange.objects.filter(match=match).count() == 2


def test_only_the_creator_may_rate_a_sheet_and_a_bad_choice_changes_nothing(client, alice, bob):
    match = make_match(alice, ["alice", "bob"])
    client.force_login(bob)
    assert "Keep out of the ratings" not in client.get(match.get_absolute_url()).content.decode()
    assert client.post(reverse("games:rated", args=[match.pk]), {"rated": "0"}).status_code == 403
    client.force_login(alice)
    response = client.post(reverse("games:rated", args=[match.pk]), {"rated": "maybe"}, follow=True)
    assert "Only a score sheet&#x27;s creator can choose" in response.content.decode()
    match.refresh_from_db()
    assert match.rated


def test_the_rules_page_says_how_a_round_that_goes_nowhere_ends_in_both_languages(client):
    page = client.get(reverse("games:rules")).content.decode()
    assert "Our reading: a round that goes nowhere" in page
    assert f"ends after {MOVE_LIMIT} moves" in page
    russian = client.get(reverse("games:rules"), headers={"Accept-Language": "ru"})
    assert f"заканчивается после {MOVE_LIMIT} ходов" in russian.content.decode()


def test_a_russian_sheet_takes_clubs_as_t_and_says_so(client, alice, match):
    client.force_login(alice)
    page = client.get(match.get_absolute_url(), headers={"Accept-Language": "ru"}).content.decode()
    assert 'placeholder="Карты: Дп 10ч Вт (трефы — т или к)"' in page
    data = {"version": match.version, "action": "save"}
    for position in match.seats.values_list("position", flat=True):
        if position == 0:
            data |= {f"s{position}-kind": "out", f"s{position}-cards": "Вт"}
        else:
            data |= {f"s{position}-kind": "points", f"s{position}-points": "10"}
    client.post(reverse("games:round_new", args=[match.pk]), data)
    [entry] = Entry.objects.filter(kind="out")
    assert entry.cards == "JC"
