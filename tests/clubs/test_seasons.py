"""A club and its seasons (issue 26, the beginning): a club at a readable address, its nights
(tournaments of the club), and a season's table, which sums the tournament points each player
earned at the club's finished nights dated within it, and nothing else."""

import datetime
from fractions import Fraction

import pytest

from cards101.rules import PRESETS
from clubs import queries, services
from clubs.models import Member
from games.models import Player
from tests.factories import play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments
from tournaments.queries import standings_of

pytestmark = pytest.mark.django_db

AUTUMN = (datetime.date(2026, 9, 1), datetime.date(2026, 11, 30))


def night(club, by, date: str, names: list[str], winner: int = 0):
    """A finished one-round night of the club: one table of these names, `winner` first."""
    tournament = make_tournament(by, club=club, date=date, rounds_planned=1)
    enter(tournament, names, by)
    tournament_round = tournaments.seat_next_round(tournament=tournament, by=by)
    play_out(tournament_round.tables.get().match, by, winner_index=winner)
    tournaments.close_round(round_=tournament_round, by=by)
    tournament.refresh_from_db()
    if tournament.status != tournament.Status.FINISHED:
        tournaments.finish_tournament(tournament=tournament, by=by)
        tournament.refresh_from_db()
    assert tournament.status == tournament.Status.FINISHED
    return tournament


def points_of(table) -> dict[str, tuple[Fraction, int, int]]:
    names = dict(Player.objects.values_list("pk", "name"))
    return {names[row.player_id]: (row.points, row.nights, row.place) for row in table}


def test_a_club_gets_a_readable_address_from_a_cyrillic_name_and_its_owner_is_a_member(alice):
    club = services.create_club(owner=alice, name="Сто одно — клуб «Туз»")
    assert club.slug == "sto-odno-klub-tuz"
    assert club.name == "Сто одно — клуб «Туз»"
    owner = Member.objects.get(club=club)
    assert owner.player.user == alice and owner.role == Member.Role.OWNER
    # The same name again: the next free address.
    assert services.create_club(owner=alice, name="Сто одно: клуб Туз").slug == (
        "sto-odno-klub-tuz-2"
    )
    assert services.create_club(owner=alice, name="101").slug == "101"
    assert services.create_club(owner=alice, name="♠♥").slug == "club"


def test_a_club_needs_a_name(alice):
    with pytest.raises(services.ClubError, match="A club needs a name"):
        services.create_club(owner=alice, name="   ")


def test_a_night_belongs_to_its_club(alice):
    club = services.create_club(owner=alice, name="Туз")
    tournament = make_tournament(alice, club=club)
    assert tournament.club == club
    assert list(club.nights.all()) == [tournament]
    assert make_tournament(alice).club is None


def test_only_the_clubs_owner_and_directors_make_seasons(alice, bob):
    club = services.create_club(owner=alice, name="Туз")
    with pytest.raises(services.ClubError, match="Only the club's owner and directors"):
        services.create_season(club=club, by=bob, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1])
    Member.objects.create(club=club, player=Player.objects.get(user=bob), role=Member.Role.DIRECTOR)
    season = services.create_season(
        club=club, by=bob, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1]
    )
    assert season.club == club
    with pytest.raises(services.ClubError, match="cannot end before it starts"):
        services.create_season(club=club, by=alice, name="Назад", starts=AUTUMN[1], ends=AUTUMN[0])


def test_the_season_table_sums_the_points_of_the_clubs_nights_within_its_dates(alice, bob):
    club = services.create_club(owner=alice, name="Туз")
    other = services.create_club(owner=bob, name="Дама")
    season = services.create_season(
        club=club, by=alice, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1]
    )
    # Tables of 4: 3, 2, 1 and 0 points by place.
    night(club, alice, "2026-09-05", ["Анна", "Борис", "Вера", "Глеб"], winner=0)
    night(club, alice, "2026-10-03", ["Анна", "Борис", "Вера", "Даша"], winner=1)
    # Never counted: a night before the season, a night of another club, a night unfinished.
    night(club, alice, "2026-08-29", ["Анна", "Борис", "Вера", "Глеб"], winner=3)
    night(other, bob, "2026-09-12", ["Анна", "Борис", "Вера", "Глеб"], winner=3)
    unfinished = make_tournament(alice, club=club, date="2026-11-07")
    enter(unfinished, ["Анна", "Борис", "Вера", "Глеб"], alice)

    table = queries.season_table(season)
    by_name = points_of(table)
    assert set(by_name) == {"Анна", "Борис", "Вера", "Глеб", "Даша"}
    # Each player's points are the sum over the two nights that count.
    for name, (points, nights, _place) in by_name.items():
        earned = [
            standing.points
            for tournament in queries.season_nights(season)
            for standing in standings_of(tournament)
            if Player.objects.get(pk=standing.player).name == name and standing.tables
        ]
        assert (points, nights) == (sum(earned, Fraction(0)), len(earned)), name
    assert [row.points for row in table] == sorted((row.points for row in table), reverse=True)
    assert by_name["Анна"][1] == 2 and by_name["Глеб"][1] == 1 and by_name["Даша"][1] == 1
    assert sum(row.points for row in table) == 2 * (3 + 2 + 1 + 0)
    assert table[0].place == 1


def test_a_season_of_best_nights_counts_each_players_best(alice):
    club = services.create_club(owner=alice, name="Туз")
    best = services.create_season(
        club=club, by=alice, name="Лучшие 1", starts=AUTUMN[0], ends=AUTUMN[1], best_nights=1
    )
    league = services.create_season(
        club=club, by=alice, name="Лига", starts=AUTUMN[0], ends=AUTUMN[1]
    )
    names = ["Анна", "Борис", "Вера", "Глеб"]
    night(club, alice, "2026-09-05", names, winner=0)
    night(club, alice, "2026-10-03", names, winner=0)
    league_rows, best_rows = (
        points_of(queries.season_table(league)),
        points_of(queries.season_table(best)),
    )
    for name in names:
        all_points, nights, _ = league_rows[name]
        best_points, best_count, _ = best_rows[name]
        assert nights == best_count == 2  # nights played, whatever counts
        assert best_points <= all_points
        assert best_points * 2 >= all_points  # the better of two nights
    # Two nights of 3 + 2 + 1 + 0 points: the league counts all 12, the best night of each
    # fewer (every night's points are shared by the same four).
    assert sum(row[0] for row in league_rows.values()) == 12
    assert sum(row[0] for row in best_rows.values()) < 12


@pytest.mark.django_db
def test_a_clubs_night_asks_for_confirmed_results_unless_told_otherwise(alice):
    club = services.create_club(owner=alice, name="Туз")
    fields = {
        "created_by": alice,
        "variant": PRESETS["classic"],
        "name": "Пятница",
        "date": datetime.date(2026, 11, 27),
        "preset": "classic",
        "points_by_place": club.points_by_place,
    }
    assert tournaments.create_tournament(club=club, **fields).confirm_results
    assert not tournaments.create_tournament(
        club=club, confirm_results=False, **fields
    ).confirm_results
    assert not tournaments.create_tournament(**fields).confirm_results
