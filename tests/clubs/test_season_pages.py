"""A club's seasons on the site: the table's columns (wins, average place, the change since the
last night, the minimum of nights), its pages, closing and reopening, the files (JSON, CSV),
the printed and embedded table, the projector between rounds, and who may change what."""

import json
import re
from fractions import Fraction

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse

from claims import services as claims
from clubs import queries, services
from clubs.models import Club, Season
from clubs.seasons import NightLine, rank_season
from config.views import database_unreachable
from games import visibility
from games.models import Player
from tests.clubs.test_seasons import AUTUMN, night
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments
from tournaments.queries import standings_of

pytestmark = pytest.mark.django_db

FOUR = ["Анна", "Борис", "Вера", "Глеб"]


def lines(*rows: tuple[int, float, int]) -> list[NightLine]:
    return [
        NightLine(player_id=p, points=Fraction(points), place=place) for p, points, place in rows
    ]


# --- the table, worked out (no database) ----------------------------------------------------------


def test_wins_are_nights_won_and_the_average_place_is_over_the_nights_played():
    table = rank_season(
        [
            lines((1, 3, 1), (2, 2, 2), (3, 1, 3)),
            lines((1, 2, 2), (2, 3, 1)),
            lines((1, 3, 1), (3, 2, 2)),
        ]
    )
    by_player = {row.player_id: row for row in table}
    assert (by_player[1].points, by_player[1].wins, by_player[1].average) == (8, 2, Fraction(4, 3))
    assert (by_player[2].wins, by_player[2].average) == (1, Fraction(3, 2))
    assert (by_player[3].wins, by_player[3].average, by_player[3].nights) == (0, Fraction(5, 2), 2)
    assert [row.place for row in table] == [1, 2, 3]


def test_the_change_counts_places_moved_since_the_table_before_the_last_night():
    first = lines((1, 3, 1), (2, 2, 2), (3, 1, 3))
    second = lines((3, 3, 1), (2, 2, 2), (1, 0, 3), (4, 1, 3))
    table = {row.player_id: row for row in rank_season([first, second])}
    # Before: 1 (3), 2 (2), 3 (1). Now: 2 (4), 3 (4) share the first place, 1 (3), 4 (1).
    assert table[2].place == 1 and table[2].change == 1 and table[2].up == 1
    assert table[3].place == 1 and table[3].change == 2
    assert table[1].place == 3 and table[1].change == -2 and table[1].down == 2
    assert table[4].new and table[4].change is None
    # One night: nothing to move from.
    assert all(row.change is None and not row.new for row in rank_season([first]))


def test_players_below_the_minimum_of_nights_follow_without_a_place():
    table = rank_season([lines((1, 3, 1), (2, 0, 2)), lines((2, 0, 2), (3, 3, 1))], min_nights=2)
    assert [(row.player_id, row.place) for row in table] == [(2, 1), (1, None), (3, None)]


def test_a_season_of_best_nights_sums_each_players_best_and_still_counts_every_night_played():
    table = rank_season(
        [lines((1, 3, 1), (2, 0, 2)), lines((1, 0, 2), (2, 3, 1)), lines((1, 2, 1), (2, 1, 2))],
        best_nights=2,
    )
    assert [(row.player_id, row.points, row.nights) for row in table] == [(1, 5, 3), (2, 4, 3)]


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def club(alice):
    return services.create_club(owner=alice, name="Туз")


@pytest.fixture
def autumn(club, alice):
    return services.create_season(
        club=club, by=alice, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1]
    )


@pytest.fixture
def nights(club, alice, bob):
    """Two nights of the club within autumn, one before it and one of another club."""
    other = services.create_club(owner=bob, name="Дама")
    return {
        "first": night(club, alice, "2026-09-05", FOUR, winner=0),
        "second": night(club, alice, "2026-10-03", ["Анна", "Борис", "Вера"], winner=1),
        "before": night(club, alice, "2026-08-29", FOUR, winner=3),
        "other": night(other, bob, "2026-09-12", FOUR, winner=3),
    }


def earned(tournament) -> dict[int, Fraction]:
    return {s.player: s.points for s in standings_of(tournament) if s.tables}


def test_the_season_page_shows_each_players_sum_of_the_nights_it_counts(client, autumn, nights):
    expected: dict[int, Fraction] = {}
    for key in ("first", "second"):
        for player, points in earned(nights[key]).items():
            expected[player] = expected.get(player, Fraction(0)) + points
    table = queries.season_table(autumn)
    assert {row.player_id: row.points for row in table} == expected
    response = client.get(reverse("clubs:season", args=[autumn.club.slug, autumn.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    for name in FOUR:
        assert name in page
    # The nights it counts, linked; never the one before it or the other club's.
    assert nights["first"].get_absolute_url() in page
    assert nights["second"].get_absolute_url() in page
    assert nights["before"].get_absolute_url() not in page
    assert nights["other"].get_absolute_url() not in page


def test_the_json_table_has_its_fixed_format_with_numbers_never_localized(client, autumn, nights):
    client.cookies["django_language"] = "ru"
    response = client.get(
        reverse("clubs:season_json", args=[autumn.club.slug, autumn.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    )
    rows = json.loads(response.content)["rows"]
    table = queries.season_table(autumn)
    names = dict(Player.objects.values_list("pk", "name"))
    assert rows == [
        {
            "player": row.player_id,
            "name": names[row.player_id],
            "points": int(row.points) if row.points.denominator == 1 else float(row.points),
            "nights": row.nights,
            "place": row.place,
        }
        for row in table
    ]
    # A table of three shares 3, 1.5 and 0: a fraction somewhere, written with a point.
    assert any(isinstance(row["points"], float) for row in rows)
    assert ",5" not in response.content.decode()


def test_an_unranked_players_place_is_null_in_the_json(client, club, alice, nights):
    season = services.create_season(
        club=club, by=alice, name="Два вечера", starts=AUTUMN[0], ends=AUTUMN[1], min_nights=2
    )
    rows = client.get(reverse("clubs:season_json", args=[club.slug, season.pk])).json()["rows"]
    by_name = {row["name"]: row for row in rows}
    assert by_name["Глеб"]["place"] is None and by_name["Глеб"]["nights"] == 1
    assert by_name["Анна"]["place"] is not None
    assert rows[-1]["place"] is None


def test_a_hidden_players_name_is_in_the_files_only_for_those_who_may_read_it(
    client, alice, autumn, nights
):
    counted = [row.player_id for row in queries.season_table(autumn)]
    vera = Player.objects.get(name="Вера", pk__in=counted)
    Player.objects.filter(pk=vera.pk).update(private=True)
    visibility.names_changed([vera.pk])
    url = reverse("clubs:season_json", args=[autumn.club.slug, autumn.pk])
    csv_url = reverse("clubs:season_csv", args=[autumn.club.slug, autumn.pk])
    for address in (url, csv_url, reverse("clubs:season", args=[autumn.club.slug, autumn.pk])):
        text = client.get(address).content.decode()
        assert "Вера" not in text and "Hidden player" in text, address
    client.force_login(alice)  # she directs the nights Вера played
    assert "Вера" in client.get(url).content.decode()


def test_the_csv_for_russian_excel_writes_decimal_commas(client, autumn, nights):
    url = reverse("clubs:season_csv", args=[autumn.club.slug, autumn.pk])
    comma = client.get(url).content.decode("utf-8-sig").splitlines()
    semicolon = client.get(url + "?sep=semicolon").content.decode("utf-8-sig").splitlines()
    assert comma[0].startswith('"Rank","Player","Points","Nights"')
    assert len(comma) == 1 + len(queries.season_table(autumn))
    # A table of three shares 3, 1.5 and 0: halves somewhere, with the file's decimal mark.
    assert any(re.search(r",\d+\.5,", line) for line in comma[1:])
    assert any(re.search(r";\d+,5;", line) for line in semicolon[1:])


def test_a_season_of_another_club_is_not_found(client, alice, bob, autumn):
    other = services.create_club(owner=bob, name="Дама")
    for name in ("season", "season_json", "season_csv", "season_print", "season_embed"):
        response = client.get(reverse(f"clubs:{name}", args=[other.slug, autumn.pk]))
        assert response.status_code == 404, name


def test_the_last_night_is_the_clubs_last_finished_one(client, club, nights):
    data = client.get(reverse("clubs:last_night_json", args=[club.slug])).json()
    assert data["night"]["id"] == nights["second"].pk
    assert {row["player"] for row in data["rows"]} == set(earned(nights["second"]))
    csv_lines = client.get(reverse("clubs:last_night_csv", args=[club.slug])).content
    assert len(csv_lines.decode("utf-8-sig").splitlines()) == 1 + 3


def test_a_club_with_no_finished_night_has_no_last_night(client, club):
    assert client.get(reverse("clubs:last_night_json", args=[club.slug])).status_code == 404


# --- settings, closing, rights ------------------------------------------------------------------


def test_alice_creates_a_season_from_the_form_and_a_bad_one_saves_nothing(client, alice, club):
    client.force_login(alice)
    url = reverse("clubs:season_new", args=[club.slug])
    data = {"name": "Весна", "starts": "2027-03-01", "ends": "2027-02-01", "min_nights": "2"}
    response = client.post(url, data)
    assert "A season cannot end before it starts." in response.content.decode()
    assert not Season.objects.exists()
    response = client.post(url, data | {"ends": "2027-05-31", "best_nights": "0"})
    assert response.status_code == 200 and not Season.objects.exists()
    response = client.post(url, data | {"ends": "2027-05-31"})
    season = Season.objects.get()
    assert response.url == reverse("clubs:season", args=[club.slug, season.pk])
    assert (season.name, season.min_nights, season.best_nights) == ("Весна", 2, None)


def test_only_the_clubs_owner_and_directors_change_its_seasons(client, bob, autumn):
    client.force_login(bob)
    slug = autumn.club.slug
    assert client.get(reverse("clubs:season_new", args=[slug])).status_code == 403
    edit = reverse("clubs:season_edit", args=[slug, autumn.pk])
    assert (
        client.post(edit, {"name": "Моя", "starts": "2026-09-01", "ends": "2026-09-02"}).status_code
        == 403
    )
    assert client.post(reverse("clubs:season_close", args=[slug, autumn.pk])).status_code == 403
    autumn.refresh_from_db()
    assert autumn.name == "Осень" and autumn.closed_at is None
    page = client.get(reverse("clubs:season", args=[slug, autumn.pk])).content.decode()
    assert reverse("clubs:season_close", args=[slug, autumn.pk]) not in page


def test_a_closed_season_keeps_its_table_and_champions_until_reopened(
    client, alice, autumn, nights
):
    before = queries.season_table(autumn)
    client.force_login(alice)
    close = reverse("clubs:season_close", args=[autumn.club.slug, autumn.pk])
    assert "keeps its table and its champions" in client.get(close).content.decode()
    client.post(close)
    autumn.refresh_from_db()
    assert autumn.closed_at is not None
    # A night reopened afterwards (it no longer counts as finished): the kept table stands.
    tournaments.reopen_tournament(tournament=nights["second"], by=alice)
    assert queries.season_table(autumn) == before
    page = client.get(reverse("clubs:season", args=[autumn.club.slug, autumn.pk])).content.decode()
    champion = Player.objects.get(pk=before[0].player_id).name
    assert "Champion" in page and champion in page
    # Its dates no longer change; its name does.
    edit = reverse("clubs:season_edit", args=[autumn.club.slug, autumn.pk])
    client.post(edit, {"name": "Осень 2026", "starts": "2026-01-01", "ends": "2026-12-31"})
    autumn.refresh_from_db()
    assert (autumn.name, autumn.starts) == ("Осень 2026", AUTUMN[0])
    # Reopened, it is worked out from its nights as they are now.
    client.post(close)
    autumn.refresh_from_db()
    assert autumn.final_table is None
    assert queries.season_table(autumn) != before


def test_a_closed_seasons_table_names_the_account_a_guest_in_it_became(
    alice, carol, autumn, nights
):
    services.close_season(season=autumn, by=alice)
    kept = {row.player_id: row for row in queries.season_table(autumn)}
    vera = Player.objects.get(name="Вера", pk__in=kept)

    claims.decide(claim=claims.ask(guest=vera, by=carol), approve=True, by=alice)

    autumn.refresh_from_db()
    now = {row.player_id: row for row in queries.season_table(autumn)}
    carols = Player.objects.get(user=carol).pk
    assert vera.pk not in now and now[carols].points == kept[vera.pk].points


# --- shared and shown elsewhere ------------------------------------------------------------------


def test_the_embedded_table_may_be_framed_by_any_site_and_asks_again_every_minute(
    client, autumn, nights
):
    response = client.get(reverse("clubs:season_embed", args=[autumn.club.slug, autumn.pk]))
    assert "X-Frame-Options" not in response.headers
    assert "frame-ancestors *" in response.headers["Content-Security-Policy"]
    assert 'hx-trigger="every 60s"' in response.content.decode()
    assert 'class="topbar"' not in response.content.decode()
    # Elsewhere the site is framed by Telegram Web alone (the Mini App).
    page = client.get(reverse("clubs:season", args=[autumn.club.slug, autumn.pk]))
    assert "frame-ancestors https://web.telegram.org;" in page.headers["Content-Security-Policy"]
    # Nothing new since: the refresh changes nothing.
    club = Club.objects.get(pk=autumn.club_id)
    url = reverse("clubs:season_embed", args=[club.slug, autumn.pk])
    assert client.get(f"{url}?v={club.version}", HTTP_HX_REQUEST="true").status_code == 204


def test_a_night_finishing_moves_its_clubs_version(alice, club, django_capture_on_commit_callbacks):
    version = club.version
    with django_capture_on_commit_callbacks(execute=True):
        night(club, alice, "2026-09-05", FOUR)
    club.refresh_from_db()
    assert club.version > version


def test_the_printed_table_has_no_site_chrome(client, autumn, nights):
    page = client.get(reverse("clubs:season_print", args=[autumn.club.slug, autumn.pk]))
    text = page.content.decode()
    assert 'class="topbar"' not in text and "season-sheet" in text and "Анна" in text


def test_a_nights_projector_shows_the_season_table_between_rounds(
    client, alice, club, autumn, nights
):
    tonight = make_tournament(alice, club=club, date="2026-10-10", rounds_planned=1)
    enter(tonight, FOUR, alice)
    projector = reverse("tournaments:projector", args=[tonight.pk])
    assert "projector-season" in client.get(projector).content.decode()
    round_ = tournaments.seat_next_round(tournament=tonight, by=alice)
    assert round_ and "projector-season" not in client.get(projector).content.decode()
    # A night outside any season, or of no club, shows none.
    elsewhere = make_tournament(alice, club=club, date="2027-01-10")
    assert (
        "projector-season"
        not in client.get(reverse("tournaments:projector", args=[elsewhere.pk])).content.decode()
    )


def test_the_seasons_page_lists_past_seasons_with_their_champions(
    client, alice, club, autumn, nights
):
    services.close_season(season=autumn, by=alice)
    client.force_login(alice)
    page = client.get(reverse("clubs:seasons", args=[club.slug])).content.decode()
    champion = Player.objects.get(pk=queries.season_table(autumn)[0].player_id).name
    assert "Past seasons" in page and "Осень" in page and champion in page
    assert reverse("clubs:season_new", args=[club.slug]) in page


def test_the_pages_without_the_sites_frame_name_its_icon_and_favicon_ico_leads_to_it(
    client, autumn, nights, rf
):
    """A browser asks for /favicon.ico where a page names no icon: the printed table once
    logged a 404 for it. Every page that stands alone names the site's icon, and the address
    browsers guess leads to it."""
    icon = static("img/icon.svg")
    season = [autumn.club.slug, autumn.pk]
    standing_alone = {
        "print": client.get(reverse("clubs:season_print", args=season)).content.decode(),
        "embed": client.get(reverse("clubs:season_embed", args=season)).content.decode(),
        "500": get_template("500.html").render({}),
        "503": database_unreachable(rf.get("/")).content.decode(),
    }
    for name, page in standing_alone.items():
        assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in page, name
    guessed = client.get("/favicon.ico")
    assert guessed.status_code == 301 and guessed["Location"] == icon
    assert finders.find("img/icon.svg")
