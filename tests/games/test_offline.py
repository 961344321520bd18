"""The score sheet without a network: the service worker and its offline page, the sheet's
outbox, and `round_send`, which takes the rounds a phone kept while offline."""

import pytest
from django.urls import reverse

from tests.factories import make_match, record
from tests.games.test_views import GOOD_ROUND, round_data

pytestmark = pytest.mark.django_db

SEATS = "0,1,2"  # alice, Dan and Eve, all in play


def send(client, match, version, *outcomes, seats=SEATS):
    data = round_data(version, *outcomes) | {"seats": seats}
    return client.post(reverse("games:round_send", args=[match.pk]), data)


def round_count(match) -> int:
    return match.rounds.count()


# --- sending kept rounds -------------------------------------------------------------------


def test_a_round_kept_offline_is_saved_when_sent(client, alice, match):
    client.force_login(alice)
    response = send(client, match, match.version, *GOOD_ROUND)
    assert response.status_code == 201
    match.refresh_from_db()
    assert response.json() == {"number": 1, "version": match.version}
    page = client.get(match.get_absolute_url()).content.decode()
    assert "-40" in page  # alice went out with the queen of spades


def test_the_second_kept_round_names_the_version_the_first_one_made(client, alice, match):
    client.force_login(alice)
    first = send(client, match, match.version, *GOOD_ROUND).json()
    second = send(client, match, first["version"], ("hand", "7♣"), ("out", "Q♥"), ("hand", "8♦"))
    assert second.status_code == 201
    assert second.json()["number"] == 2
    assert round_count(match) == 2


def test_a_kept_round_made_on_an_older_sheet_is_refused_with_the_sheet_now(
    client, alice, bob, match
):
    match.scorekeepers.add(bob)
    version = match.version
    # While alice's phone was offline, bob entered round 1 on his.
    record(match, bob, {"alice": {"hand": "7C"}, "Dan": {"out": "QS"}, "Eve": {"points": 5}})
    client.force_login(alice)
    response = send(client, match, version, *GOOD_ROUND)
    assert response.status_code == 409
    match.refresh_from_db()
    answer = response.json()
    assert answer["version"] == match.version
    assert "The sheet changed while you were entering this round" in answer["error"]
    assert round_count(match) == 1  # bob's, and only his


def test_a_kept_round_whose_answer_was_lost_is_not_saved_twice(client, alice, match):
    client.force_login(alice)
    version = match.version
    assert send(client, match, version, *GOOD_ROUND).status_code == 201
    again = send(client, match, version, *GOOD_ROUND)  # the phone never heard the answer
    assert again.status_code == 200
    match.refresh_from_db()
    assert again.json() == {"version": match.version, "repeat": True}
    assert round_count(match) == 1


def test_a_kept_round_for_other_players_than_the_sheets_is_refused(client, alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    # Eve went over 101: the next round is alice's and Dan's only.
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "7C"}, "Eve": {"points": 102}})
    client.force_login(alice)
    match.refresh_from_db()
    response = send(client, match, match.version, ("out", "Q♥"), ("hand", "8♦"), seats=SEATS)
    assert response.status_code == 409
    assert response.json()["error"] == "The players in this round are not the sheet's."
    assert round_count(match) == 1
    fits = send(client, match, match.version, ("out", "Q♥"), ("hand", "8♦"), seats="0,1")
    assert fits.status_code == 201


@pytest.mark.parametrize(
    "outcomes, said",
    [
        ((("out", "Q♠"), ("hand", "Z9"), ("points", 17)), "Dan: "),
        (
            (("out", "Q♠"), ("out", "Q♥"), ("points", 17)),
            "exactly one player goes out; here 2 did (alice, Dan)",
        ),
    ],
    ids=["cards that are not cards", "two players out"],
)
def test_a_kept_round_the_rules_refuse_says_why_and_saves_nothing(
    client, alice, match, outcomes, said
):
    client.force_login(alice)
    response = send(client, match, match.version, *outcomes)
    assert response.status_code == 400
    assert said in response.json()["error"]
    assert round_count(match) == 0


def test_only_a_scorekeeper_may_send_rounds_and_is_told_so_in_json(client, alice, carol, match):
    assert send(client, match, match.version, *GOOD_ROUND).status_code == 403  # anonymous
    client.force_login(carol)
    response = send(client, match, match.version, *GOOD_ROUND)
    assert response.status_code == 403
    assert "Only the match's creator and its scorekeepers" in response.json()["error"]
    assert round_count(match) == 0


def test_a_kept_round_for_a_finished_match_is_refused(client, alice, match):
    client.force_login(alice)
    record(match, alice, {"alice": {"out": "QS"}, "Dan": {"points": 102}, "Eve": {"points": 103}})
    match.refresh_from_db()
    assert match.is_finished
    response = send(client, match, match.version, *GOOD_ROUND)
    assert response.status_code == 409
    assert response.json()["error"] == "The match is over; no more rounds can be entered."


def test_sending_needs_a_post(client, alice, match):
    client.force_login(alice)
    assert client.get(reverse("games:round_send", args=[match.pk])).status_code == 405


# --- the sheet's outbox --------------------------------------------------------------------


def test_a_scorekeepers_sheet_has_the_outbox_and_its_words(client, alice, match):
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="outbox"' in page
    assert f'data-send="{reverse("games:round_send", args=[match.pk])}"' in page
    assert f'data-user="{alice.pk}"' in page
    assert "js/outbox.js" in page
    assert "No network: round %(number)s is kept on this phone" in page
    assert "data-outbox" in page  # the new round's form is the one kept offline


def test_a_visitors_sheet_has_no_outbox(client, match):
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="outbox"' not in page
    assert 'id="outbox-texts"' not in page


# --- the service worker and the offline page -----------------------------------------------


def test_the_service_worker_is_served_from_the_root_and_always_checked(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert 'const OFFLINE = "/offline/";' in script
    assert 'const STATIC = "/static/";' in script


def test_every_page_names_the_service_worker(client):
    page = client.get("/").content.decode()
    assert 'data-service-worker="/sw.js"' in page


def test_the_offline_page_explains_and_lists_the_kept_sheets(client):
    page = client.get(reverse("games:offline")).content.decode()
    assert "No network" in page
    assert "The score sheets opened on this phone still open" in page
    assert "data-kept-sheets" in page
