"""Awards only 101 has (issue 26, point 4): worked out from tiny hand-made rounds, then read
from a club night's stored rounds, on its tournament page and on the winners' profiles."""

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from claims import services as claims
from clubs import awards, services
from clubs.awards import (
    COMEBACK,
    FEWEST_POINTS,
    QUEEN_OUTS,
    RESETS_101,
    ROUNDS_WON,
    Award,
    RoundRecord,
)
from games.models import Player
from tests.clubs.test_seasons import AUTUMN, night
from tests.factories import counts_tables_of, record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

# --- the awards, from hand-made records (no database) ----------------------------------------


def line(player: int, number: int = 1, *, match: int = 1, **changes) -> RoundRecord:
    """Player `player`'s line of round `number`: by default held cards worth 10."""
    fields = {"kind": "hand", "went_out_with": "", "score": 10, "total": 10 * number, "event": ""}
    return RoundRecord(player_id=player, match_id=match, round_number=number, **(fields | changes))


def out(player: int, number: int = 1, card: str = "7C", **changes) -> RoundRecord:
    return line(player, number, **({"kind": "out", "went_out_with": card, "score": 0} | changes))


def only(found: list[Award], kind: str) -> Award | None:
    return next((award for award in found if award.kind == kind), None)


def test_the_most_resets_at_exactly_101_win_and_100_becoming_50_does_not_count():
    records = [
        line(1, 1, event="reset_to_0", total=0),
        line(1, 2, event="reset_to_0", total=0),
        line(2, 1, event="reset_to_0", total=0),
        line(3, 1, event="reset_to_50", total=50),
        line(3, 2, event="reset_to_50", total=50),
        line(3, 3, event="reset_to_50", total=50),
        line(4, 1, event="lost", total=110),
    ]
    assert awards.most_resets_101(records) == Award(RESETS_101, (1,), 2)


def test_rounds_won_with_a_queen_count_every_queen_and_no_other_card():
    records = [
        out(1, 1, "QS", score=-40),
        out(1, 2, "QH", score=-20),
        out(2, 1, "KS"),
        out(2, 2, "AS"),
        out(2, 3, "10S"),
        out(3, 1, "QD", score=-20),
        line(4, 1, score=6),  # held Q♠ and Q♥: not a round won
    ]
    assert awards.most_queen_outs(records) == Award(QUEEN_OUTS, (1,), 2)
    assert awards.most_rounds_won(records) == Award(ROUNDS_WON, (2,), 3)


def test_the_best_comeback_is_the_highest_total_a_match_winner_had():
    records = [
        # Player 1 won match 1 after a total of 80; player 2 reached 95 but lost.
        line(1, 1, total=80, won_match=True),
        out(1, 2, total=60, won_match=True),
        line(2, 1, total=95),
        # Player 3 won match 2, never above 40.
        line(3, 1, match=2, total=40, won_match=True),
    ]
    assert awards.best_comeback(records) == Award(COMEBACK, (1,), 80)


def test_a_winner_who_never_had_points_came_back_from_nothing():
    records = [out(1, 1, total=0, won_match=True), out(1, 2, "QS", total=-40, won_match=True)]
    assert awards.best_comeback(records) is None


def test_fewest_points_a_round_goes_to_the_lowest_average_of_those_who_played_enough():
    rounds = awards.FEWEST_POINTS_MIN_ROUNDS
    records = [line(1, n, score=4) for n in range(rounds)]
    records += [line(2, n, score=6) for n in range(rounds)]
    # Two good rounds are not a night: player 3 played too few.
    records += [out(3, n, "QS", score=-40) for n in range(2)]
    assert awards.fewest_points(records) == Award(FEWEST_POINTS, (1,), Fraction(4))


def test_fewest_points_needs_half_the_rounds_of_whoever_played_most():
    rounds = 4 * awards.FEWEST_POINTS_MIN_ROUNDS
    records = [line(1, n, score=8) for n in range(rounds)]
    # Enough rounds on their own, but fewer than half of player 1's.
    records += [line(2, n, score=1) for n in range(rounds // 2 - 1)]
    records += [line(3, n, score=5) for n in range(rounds // 2)]
    assert awards.fewest_points(records) == Award(FEWEST_POINTS, (3,), Fraction(5))


def test_players_level_share_an_award():
    records = [out(2, 1, "QS"), out(1, 2, "QH"), out(3, 3, "7C")]
    found = awards.awards(records)
    assert only(found, QUEEN_OUTS) == Award(QUEEN_OUTS, (1, 2), 1)
    assert only(found, ROUNDS_WON) == Award(ROUNDS_WON, (1, 2, 3), 1)


def test_an_award_nobody_earned_is_not_given():
    found = awards.awards([line(1, 1), line(2, 1)])
    assert found == []
    assert awards.awards([]) == []


def test_the_awards_read_in_russian_and_english_with_plural_forms():
    with translation.override("ru"):
        assert Award(RESETS_101, (1,), 3).text == "3 сброса ровно на 101"
        assert Award(RESETS_101, (1,), 1).text == "1 сброс ровно на 101"
        assert Award(RESETS_101, (1,), 5).text == "5 сбросов ровно на 101"
        assert Award(QUEEN_OUTS, (1,), 2).text == "2 выхода дамой"
        assert Award(COMEBACK, (1,), 95).text == "победа в партии после 95 очков"
        assert Award(COMEBACK, (1,), 21).text == "победа в партии после 21 очка"
        assert Award(ROUNDS_WON, (1,), 4).text == "4 выигранных раунда"
        assert Award(FEWEST_POINTS, (1,), Fraction(20, 3)).text == "6,7 очка за раунд"
        assert Award(RESETS_101, (1,), 3).title == "Больше всех сбросов ровно на 101"
    with translation.override("en"):
        assert Award(RESETS_101, (1,), 1).text == "1 reset at exactly 101"
        assert Award(ROUNDS_WON, (1,), 4).text == "4 rounds won"
        assert Award(FEWEST_POINTS, (1,), Fraction(20, 3)).text == "6.7 points a round"
        assert Award(COMEBACK, (1,), 95).title == "Best comeback"


# --- read from a club night's stored rounds --------------------------------------------------

# A classic table of alice and three guests, a round a line: Борис gets to 95, then goes out
# with two Queens and twice more and is the last left; Вера reaches exactly 101 twice, alice
# once. Totals after each round in the comments (alice, Борис, Вера, Глеб).
NAMES = ["alice", "Борис", "Вера", "Глеб"]
ROUNDS = [
    [{"out": "7C"}, {"points": 95}, {"points": 41}, {"points": 10}],  # 0 95 41 10
    [{"points": 50}, {"out": "QC"}, {"points": 60}, {"points": 30}],  # 50 75 0 40
    [{"points": 51}, {"out": "QS"}, {"points": 81}, {"points": 20}],  # 0 35 81 60
    [{"points": 10}, {"points": 5}, {"points": 20}, {"out": "QH"}],  # 10 40 0 40
    [{"points": 60}, {"out": "7C"}, {"points": 60}, {"points": 50}],  # 70 40 60 90
    [{"points": 40}, {"out": "7D"}, {"points": 50}, {"points": 20}],  # all but Борис lost
]


def scored_night(club, by, date: str = "2026-10-03", winner: str = "Борис"):
    """A finished one-table night of the club, the rounds above entered as written, `winner`
    playing Борис's part."""
    names = [winner if name == "Борис" else name for name in NAMES]
    tournament = make_tournament(by, club=club, date=date, rounds_planned=1)
    enter(tournament, names, by)
    tournament_round = tournaments.seat_next_round(tournament=tournament, by=by)
    match = tournament_round.tables.get().match
    record(match, by, *[dict(zip(names, outcomes, strict=True)) for outcomes in ROUNDS])
    assert match.is_finished
    tournaments.close_round(round_=tournament_round, by=by)
    tournament.refresh_from_db()
    if tournament.status != tournament.Status.FINISHED:
        tournaments.finish_tournament(tournament=tournament, by=by)
        tournament.refresh_from_db()
    return tournament


def named(found: list[Award]) -> dict[str, tuple[list[str], object]]:
    names = dict(Player.objects.values_list("pk", "name"))
    return {
        award.kind: (sorted(names[pk] for pk in award.player_ids), award.figure) for award in found
    }


def autumn(club, by):
    """The club's season from September to November 2026."""
    return services.create_season(club=club, by=by, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1])


@pytest.fixture
def club(alice):
    return services.create_club(owner=alice, name="Клуб «Туз»")


@pytest.mark.django_db
def test_a_nights_awards_are_read_from_its_stored_rounds(
    alice, club, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr(awards, "FEWEST_POINTS_MIN_ROUNDS", 3)
    tournament = scored_night(club, alice)
    with django_assert_max_num_queries(1):
        found = awards.night_awards(tournament)
    assert named(found) == {
        RESETS_101: (["Вера"], 2),
        QUEEN_OUTS: (["Борис"], 2),
        COMEBACK: (["Борис"], 95),
        ROUNDS_WON: (["Борис"], 4),
        # Борис: 95 - 20 - 40 + 5 + 0 + 0 over six rounds.
        FEWEST_POINTS: (["Борис"], Fraction(40, 6)),
    }


@pytest.mark.django_db
def test_only_a_clubs_finished_night_has_awards(alice, club):
    running = make_tournament(alice, club=club)
    enter(running, NAMES, alice)
    tournament_round = tournaments.seat_next_round(tournament=running, by=alice)
    record(
        tournament_round.tables.get().match,
        alice,
        *[dict(zip(NAMES, outcomes, strict=True)) for outcomes in ROUNDS[:3]],
    )
    assert awards.night_awards(running) == []
    assert awards.night_awards(night(None, alice, "2026-10-03", NAMES)) == []


@pytest.mark.django_db
def test_a_seasons_awards_count_its_nights_and_no_other(
    alice, bob, club, django_assert_max_num_queries
):
    season = autumn(club, alice)
    scored_night(club, alice, "2026-10-03")
    scored_night(club, alice, "2026-10-10")
    # Outside the season, or another club's: never counted.
    scored_night(club, alice, "2026-12-05")
    scored_night(services.create_club(owner=bob, name="Дама"), bob, "2026-10-17")
    with django_assert_max_num_queries(2):
        found = awards.season_awards(season)
    assert named(found)[RESETS_101] == (["Вера"], 4)
    assert named(found)[ROUNDS_WON] == (["Борис"], 8)
    assert named(found)[COMEBACK] == (["Борис"], 95)


@pytest.mark.django_db
def test_a_players_awards_name_their_nights_and_seasons(alice, club):
    season = autumn(club, alice)
    tournament = scored_night(club, alice)
    vera = Player.objects.get(name="Вера")
    won = awards.awards_of_player(vera.pk)
    assert [(item.award.kind, item.season, item.night) for item in won] == [
        (RESETS_101, season, None),
        (RESETS_101, None, tournament),
    ]
    assert awards.awards_of_player(Player.objects.get(name="Глеб").pk) == []


@pytest.mark.django_db
def test_a_player_who_never_played_a_club_night_costs_the_profile_one_query(
    alice, django_assert_num_queries
):
    player = Player.objects.get(user=alice)
    with django_assert_num_queries(1):
        assert awards.awards_of_player(player.pk) == []


@pytest.mark.django_db
def test_the_night_page_shows_its_awards_in_russian_and_english(client, alice, club):
    tournament = scored_night(club, alice)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Награды вечера" in page
    assert "Больше всех сбросов ровно на 101" in page and "2 сброса ровно на 101" in page
    assert "победа в партии после 95 очков" in page
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Awards of the night" in page and "2 rounds won with a Queen" in page


@pytest.mark.django_db
def test_a_tournament_of_no_club_shows_no_awards(client, alice):
    tournament = night(None, alice, "2026-10-03", NAMES)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Awards of the night" not in page


@pytest.mark.django_db
def test_a_profile_shows_the_players_awards_in_russian_and_english(client, alice, club):
    autumn(club, alice)
    scored_night(club, alice)
    boris = Player.objects.get(name="Борис")
    url = reverse("stats:profile", args=[boris.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Награды" in page
    assert page.count("4 выигранных раунда") == 2  # the night's and the season's
    assert "Лучший отыгрыш" in page and "Сезон <a" in page and "Осень" in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count("Most rounds won with a Queen") == 2
    assert "Season <a" in page and "Night <a" in page
    # Вера's awards are not Борис's.
    assert "resets at exactly 101" not in page


@pytest.mark.django_db
def test_a_profile_without_awards_shows_no_awards_panel(client, alice):
    page = client.get(reverse("stats:profile", args=[Player.objects.get(user=alice).pk]))
    assert 'id="player-awards-title"' not in page.content.decode()


@pytest.mark.django_db
def test_a_hidden_winners_name_is_shown_only_to_who_may_read_it(client, alice, bob, carol, club):
    counts_tables_of(carol, alice)
    tournament = scored_night(club, alice, winner="carol")
    claims.set_private(player=Player.objects.get(user=carol), private=True, by=carol)
    client.force_login(bob)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Awards of the night" in page and "Hidden player" in page
    assert "carol" not in page
    client.force_login(alice)  # she directed the night
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "carol" in page
