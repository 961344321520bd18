"""Exports other tools read: the names, a stable order, the same bytes for the same data, and
ratings anyone can recompute from them."""

import csv
import io
import json

import pytest
from django.urls import reverse

from games.models import Player
from stats.models import Rating
from stats.ratings import rate
from tests.factories import make_match, play_out, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice):
    matches = []
    for winner in (0, 2, 1):
        match = make_match(alice, ["alice", "Dan", "Eve"])
        play_out(match, alice, winner_index=winner)
        matches.append(match)
    aaow = make_match(alice, ["alice", "=Dan"], "aaow")
    record(aaow, alice, {"alice": {"out": "QS"}, "=Dan": {"points": 150}})
    return matches


def pid(name):
    return Player.objects.get(name=name).pk


def test_a_players_json_holds_a_summary_and_every_match_with_its_rating_change(client, played):
    response = client.get(reverse("stats:player_json", args=[pid("alice")]))
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    summary = data["summary"]
    assert {k: summary[k] for k in ("matches", "wins", "rounds", "losses")} == {
        "matches": 4,
        "wins": 2,
        "rounds": 4,
        "losses": 2,
    }
    for key in ("resets_101", "resets_100", "went_out"):
        assert key in summary
    records = data["matches"]
    assert [r["match"] for r in records] == [m.pk for m in played] + [records[-1]["match"]]
    assert [r["place"] for r in records] == [1, 2, 2, 1]
    # Anyone can recompute the ratings: the first classic match rated from newcomers.
    first = records[0]
    places = dict(played[0].seats.values_list("player_id", "place"))
    after = rate({}, places)[pid("alice")]
    assert (first["mu_after"], first["sigma_after"]) == (after.mu, after.sigma)
    assert first["rating_after"] == after.shown and first["rating_before"] == 1500
    # Each match starts from the one before in its pool.
    assert records[1]["mu_before"] == first["mu_after"]


def test_the_same_data_gives_the_same_bytes(client, played):
    for name in ("stats:player_json", "stats:player_csv"):
        url = reverse(name, args=[pid("alice")])
        assert client.get(url).content == client.get(url).content
    url = reverse("stats:leaderboard_csv")
    assert client.get(url).content == client.get(url).content


def test_a_players_csv_has_a_row_a_match_and_follows_the_filters(client, played):
    url = reverse("stats:player_csv", args=[pid("alice")])
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    assert [int(row["match"]) for row in rows[:3]] == [m.pk for m in played]
    assert rows[-1]["preset"] == "aaow" and rows[0]["rating_before"] == "1500"
    rows = list(
        csv.DictReader(io.StringIO(client.get(url, {"preset": "aaow"}).content.decode("utf-8-sig")))
    )
    assert len(rows) == 1


def test_the_leaderboard_csv_lists_every_rated_player_in_every_pool(client, played):
    body = client.get(reverse("stats:leaderboard_csv")).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert list(rows[0]) == [
        "player_id",
        "name",
        "preset",
        "rating",
        "mu",
        "sigma",
        "matches",
        "provisional",
    ]
    assert len(rows) == Rating.objects.count() == 5
    assert [(row["preset"], int(row["player_id"])) for row in rows] == sorted(
        (row["preset"], int(row["player_id"])) for row in rows
    )
    dan = next(row for row in rows if row["preset"] == "aaow" and row["name"] == "'=Dan")
    rating = Rating.objects.get(pool__preset="aaow", player__name="=Dan")
    assert float(dan["mu"]) == rating.mu and dan["provisional"] == "yes"
