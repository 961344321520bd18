"""Profiles and head-to-head pages as a visitor sees them."""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Player
from stats.chances import percentages
from stats.models import Rating, RatingChange
from stats.ratings import win_chances
from tests.factories import change, make_match, play_out, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice):
    first = make_match(alice, ["alice", "Dan", "Eve"])
    play_out(first, alice, winner_index=0)
    second = make_match(alice, ["Dan", "alice"])
    play_out(second, alice, winner_index=0)
    running = make_match(alice, ["alice", "Dan"])
    record(running, alice, {"alice": {"out": "QS"}, "Dan": {"hand": "AC"}})
    return first, second


def pid(name):
    return Player.objects.get(name=name).pk


def test_a_profile_shows_figures_ratings_charts_matches_and_opponents(client, played):
    first, second = played
    body = client.get(reverse("stats:profile", args=[pid("alice")])).content.decode()
    assert "<h1>alice" in body
    rating = Rating.objects.get(player__name="alice")
    assert f"<strong>{rating.shown}</strong>" in body and rating.matches == 2
    assert body.count('class="rating-dot"') == 2  # two rated matches
    assert body.count('class="place-bar') == 2
    assert first.get_absolute_url() in body and second.get_absolute_url() in body
    assert reverse("stats:head_to_head", args=[pid("alice"), pid("Dan")]) in body
    assert reverse("stats:head_to_head", args=[pid("alice"), pid("Eve")]) in body


def test_a_guest_with_no_finished_match_gets_an_empty_profile(client, played):
    nobody = Player.objects.create(name="Newcomer")
    response = client.get(reverse("stats:profile", args=[nobody.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "No finished match counts under these filters yet." in body
    assert "No opponents met yet." in body


def test_filters_narrow_the_profile_and_bad_values_say_so(client, played):
    url = reverse("stats:profile", args=[pid("alice")])
    body = client.get(url, {"preset": "aaow"}).content.decode()
    assert "No finished match counts under these filters yet." in body
    response = client.get(url, {"preset": "poker", "period": "ever"})
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count("Select a valid choice") == 2
    assert "<dd>2</dd>" in body  # the matches, over every preset and all time


def test_a_head_to_head_page_counts_who_finished_ahead(client, played):
    first, second = played
    response = client.get(reverse("stats:head_to_head", args=[pid("alice"), pid("Dan")]))
    body = response.content.decode()
    assert "alice against Dan" in body
    assert first.get_absolute_url() in body and second.get_absolute_url() in body
    # alice won the first match, Dan the second.
    assert body.count('class="winner"') == 2
    figures = body[body.index('class="figures"') : body.index("</dl>")]
    assert figures.count("<dd>2</dd>") == 1 and figures.count("<dd>1</dd>") == 2


@pytest.mark.parametrize(
    "path",
    [
        "/players/0/",
        "/players/99999999999999999999999/",
        "/players/1/vs/1/",
        "/players/1/vs/99999999999999999999999/",
    ],
)
def test_players_that_do_not_exist_are_not_found(client, played, path):
    assert client.get(path).status_code == 404


def test_the_leaderboard_ranks_a_pools_ratings_with_provisional_players_apart(client, alice):
    for winner in (0, 0, 1):
        play_out(make_match(alice, ["alice", "Dan", "Eve"]), alice, winner_index=winner)
    # alice has ten rated matches: a rating the site is sure of.
    Rating.objects.filter(player__name="alice").update(matches=10)
    body = client.get(reverse("stats:leaderboard"), {"preset": "classic"}).content.decode()
    board = body[body.index("board-title") : body.index("provisional-title")]
    provisional = body[body.index("provisional-title") :]
    assert "alice" in board and "Dan" not in board
    ratings = {r.player.name: r.shown for r in Rating.objects.select_related("player")}
    assert provisional.index("Dan") < provisional.index("Eve")
    assert ratings["Dan"] > ratings["Eve"]
    assert (
        "Nobody has played enough"
        in client.get(reverse("stats:leaderboard"), {"preset": "aaow"}).content.decode()
    )


def test_the_leaderboard_counts_matches_in_the_period_and_finds_players_by_name(client, alice):
    play_out(make_match(alice, ["alice", "Dan"]), alice)
    play_out(make_match(alice, ["alice", "Eve"]), alice)
    url = reverse("stats:leaderboard")
    profiles = {
        name: reverse("stats:profile", args=[pid(name)]) for name in ("alice", "Dan", "Eve")
    }
    body = client.get(url, {"least": "2"}).content.decode()
    assert [name for name, link in profiles.items() if link in body] == ["alice"]
    body = client.get(url, {"least": "1", "period": "30d"}).content.decode()
    assert all(link in body for link in profiles.values())
    body = client.get(url, {"search": "ev"}).content.decode()
    assert reverse("stats:profile", args=[pid("Eve")]) in body
    assert "Players called “ev”" in body


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"least": "-1"}, "Ensure this value is greater than or equal to 1"),
        ({"least": "many"}, "Enter a whole number"),
        ({"preset": "poker"}, "Select a valid choice"),
    ],
)
def test_the_leaderboard_says_what_is_wrong_with_a_filter(client, alice, params, message):
    response = client.get(reverse("stats:leaderboard"), params)
    assert response.status_code == 200
    assert message in response.content.decode()


def test_the_score_sheet_links_each_player_to_their_profile(client, played):
    first, _second = played
    body = client.get(first.get_absolute_url()).content.decode()
    for name in ("alice", "Dan", "Eve"):
        url = reverse("stats:profile", args=[pid(name)])
        assert f'<a class="player-link pname" href="{url}" title="{name}">{name}</a>' in body


def test_a_running_match_shows_each_players_chance_to_win_from_the_ratings(client, played):
    _first, _second = played
    running = make_match(Player.objects.get(name="alice").user, ["alice", "Dan", "Eve"])
    body = client.get(running.get_absolute_url()).content.decode()
    panel = body[body.index('id="chances-title"') : body.index("</section>", body.index("chances"))]
    names = ("alice", "Dan", "Eve")
    skills = [Rating.objects.get(pool__preset="classic", player__name=n).skill for n in names]
    # Before the first round the totals are equal: the ratings' chances alone, in whole
    # percentages that add up to 100.
    for name, percent in zip(names, percentages(win_chances(skills)), strict=True):
        assert f"{name}</a> <strong>{percent}%</strong>" in panel


def chances_panel(body: str) -> str:
    start = body.index('id="chances-title"')
    return body[start : body.index("</section>", start)]


def shown_percents(panel: str) -> dict[str, int]:
    return {
        name: int(percent)
        for name, percent in re.findall(r">([^<>]+)</a> <strong>(\d+)%</strong>", panel)
    }


def test_the_chances_follow_the_totals_and_the_ratings_are_read_once_not_once_per_round(
    client, played
):
    alice = Player.objects.get(name="alice").user
    running = make_match(alice, ["alice", "Dan", "Eve"])
    record(running, alice, {"alice": {"out": "7C"}, "Dan": {"points": 30}, "Eve": {"points": 9}})
    first_view = shown_percents(
        chances_panel(client.get(running.get_absolute_url()).content.decode())
    )
    assert sum(first_view.values()) == 100
    # Dan, on 30 against 0 and 9, is less likely to win than before the round.
    skills = [
        Rating.objects.get(pool__preset="classic", player__name=n).skill
        for n in ("alice", "Dan", "Eve")
    ]
    assert first_view["Dan"] < percentages(win_chances(skills))[1]
    # The next round moves the match's version: the chances are worked out again from the
    # new totals, the ratings (the same players, the same pool) are not read again.
    record(running, alice, {"alice": {"points": 5}, "Dan": {"points": 40}, "Eve": {"out": "7C"}})
    with CaptureQueriesContext(connection) as queries:
        body = client.get(running.get_absolute_url()).content.decode()
    assert body.count('<th scope="row" class="num">') == 3  # rounds 1 and 2, and Σ
    second_view = shown_percents(chances_panel(body))
    assert second_view["Dan"] < first_view["Dan"]  # now on 70
    assert sum(second_view.values()) == 100
    assert not [q for q in queries.captured_queries if "stats_rating" in q["sql"]]
    # Eve goes over 101: the chances are those of the two still in play.
    record(running, alice, {"alice": {"points": 5}, "Dan": {"out": "7C"}, "Eve": {"points": 95}})
    panel = chances_panel(client.get(running.get_absolute_url()).content.decode())
    assert set(shown_percents(panel)) == {"alice", "Dan"}
    assert sum(shown_percents(panel).values()) == 100
    assert "Eve" not in panel


def test_the_chances_are_shown_in_russian_with_what_they_come_from(client, played):
    alice = Player.objects.get(name="alice").user
    running = make_match(alice, ["alice", "Dan"])
    record(running, alice, {"alice": {"out": "7C"}, "Dan": {"points": 60}})
    body = client.get(running.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    panel = chances_panel(body)
    assert "Шансы на победу" in panel
    assert "до этой партии и по суммам очков на сейчас" in panel
    percents = shown_percents(panel)
    assert percents["alice"] > percents["Dan"] and sum(percents.values()) == 100


def test_a_finished_match_shows_how_each_rating_moved(client, played):
    first, _second = played
    body = client.get(first.get_absolute_url()).content.decode()
    panel = body[
        body.index('id="moves-title"') : body.index("</section>", body.index("moves-title"))
    ]
    for moved in RatingChange.objects.filter(match=first):
        assert f"{moved.before.shown} → <strong>{moved.after.shown}</strong>" in panel


def test_the_panel_follows_a_later_rating_change_and_an_unrated_match_has_none(client, played):
    first, second = played
    alice = Player.objects.get(name="alice").user
    client.get(second.get_absolute_url())  # cached now
    # A correction to the first match rates the second again: its panel follows.
    change(
        first, alice, 1, {"alice": {"points": 102}, "Dan": {"points": 103}, "Eve": {"out": "7C"}}
    )
    body = client.get(second.get_absolute_url()).content.decode()
    for moved in RatingChange.objects.filter(match=second):
        assert f"{moved.before.shown} → <strong>{moved.after.shown}</strong>" in body
    services.set_rated(match=second, rated=False, by=alice)
    assert 'id="moves-title"' not in client.get(second.get_absolute_url()).content.decode()


def test_a_profile_is_cached_until_a_finished_result_changes(
    client, played, django_assert_max_num_queries
):
    url = reverse("stats:profile", args=[pid("alice")])
    client.get(url)
    # The player, and the panels of the apps above (stats.signals.profile_panels): whether
    # they won club awards, and whether the coach reviewed any of their moves.
    with django_assert_max_num_queries(3):
        body = client.get(url).content.decode()
    assert body.count('class="rating-dot"') == 2
    play_out(make_match(alice_user(), ["alice", "Dan"]), alice_user())
    assert client.get(url).content.decode().count('class="rating-dot"') == 3


def alice_user():
    return Player.objects.get(name="alice").user


def test_the_rating_chart_dates_its_x_axis_with_small_russian_months(client, played):
    """Under the rating line, the days its matches finished: '3 ноября' … '27 ноября' in
    Russian, the month small; the coordinates stay numbers for the browser."""
    changes = RatingChange.objects.filter(player__name="alice").order_by("finished_at")
    for change_, day in zip(changes, (3, 27), strict=True):
        at = datetime.datetime(2026, 11, day, 19, 40, tzinfo=datetime.UTC)
        RatingChange.objects.filter(pk=change_.pk).update(finished_at=at)
    url = reverse("stats:profile", args=[pid("alice")])
    body = client.get(url, headers={"Accept-Language": "ru"}).content.decode()
    ticks = re.findall(r'<text class="axis-label tick" x="([\d.]+)" y="190" [^>]*>([^<]+)<', body)
    assert ticks == [("28.0", "3 ноября"), ("572.0", "27 ноября")]
    english = client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert ">November 3</text>" in english and ">November 27</text>" in english
    # A line over two years says each tick's year.
    first = changes.first()
    RatingChange.objects.filter(pk=first.pk).update(
        finished_at=datetime.datetime(2025, 11, 3, 19, 40, tzinfo=datetime.UTC)
    )
    cache.clear()
    body = client.get(url, headers={"Accept-Language": "ru"}).content.decode()
    ticks = re.findall(r'<text class="axis-label tick" [^>]*>([^<]+)<', body)
    assert ticks == ["3 ноября 2025 г.", "27 ноября 2026 г."]
