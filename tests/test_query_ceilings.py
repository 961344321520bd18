"""The SQL query ceilings docs/benchmarks.md promises: the score sheet, the tournament page, the
statistics pages and the lobby of live play cost a fixed number of queries, whatever the number
of rounds, matches or tables."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.common import classic_rounds
from cards101.engine import Game
from cards101.rules import PRESETS
from claims import services as claims
from clubs import services as clubs
from games.models import Player
from play import services as play
from play.models import PlayTable
from tests.clubs.test_seasons import AUTUMN, night
from tests.coach.mistakes import mistakes_of, reviewed_table
from tests.factories import make_match, play_out, record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

# The figures of docs/benchmarks.md (bench/sheet.py, bench/standings_page.py).
SHEET_CACHED = 1  # the match, for the version the cached sheet is keyed on
SHEET_UNCACHED = 3  # the match (its scored rows), the seats, the ratings panel
SHEET_CREATOR_CACHED = 3  # the match, the session, the account (the round form is cached too)
# What waits for someone signed in, counted for the top bar (then cached for a minute): the
# pending claims and links, and, when claims wait, the judges of their guests (2).
WAITING = 1
WAITING_WITH_CLAIMS = WAITING + 2
# With the session and the account, whether anyone hides their name (read once until a name
# changes: the cache was emptied), and the top bar's count.
SHEET_CREATOR_UNCACHED = 5 + 1 + WAITING
# The tournament page read from the cache: its row and its rounds (the standings and the current
# round's tables are in the cached fragment); uncached, the standings and tables are read too.
TOURNAMENT_READER = 2
TOURNAMENT_READER_UNCACHED = 10
TOURNAMENT_DIRECTOR = 5  # with the session, the account, director rights and their entry


def sheet_of(creator, rounds: int):
    """A running 4-player classic match of `rounds` rounds, created by `creator`."""
    match = make_match(creator, [creator.username, "Anna", "Boris", "Vera"])
    names = [creator.username, "Anna", "Boris", "Vera"]
    record(match, creator, *classic_rounds(names, rounds))
    assert match.rounds.count() == rounds and not match.is_finished
    return match


@pytest.mark.parametrize("rounds", [5, 30])
def test_the_sheet_read_from_the_cache_costs_one_query(
    client, alice, rounds, django_assert_max_num_queries
):
    match = sheet_of(alice, rounds)
    client.get(match.get_absolute_url())  # renders the sheet into the cache
    with django_assert_max_num_queries(SHEET_CACHED):
        response = client.get(match.get_absolute_url())
    assert response.status_code == 200


@pytest.mark.parametrize("rounds", [5, 30])
def test_the_sheet_after_a_change_costs_a_fixed_number_of_queries(
    client, alice, rounds, django_assert_max_num_queries
):
    match = sheet_of(alice, rounds)
    cache.clear()
    with django_assert_max_num_queries(SHEET_UNCACHED):
        response = client.get(match.get_absolute_url())
    assert response.content.decode().count('<th scope="row" class="num">') == rounds + 1  # and Σ


@pytest.mark.parametrize("rounds", [5, 30])
def test_the_creators_sheet_with_the_round_form_costs_a_fixed_number_of_queries(
    client, alice, rounds, django_assert_max_num_queries
):
    match = sheet_of(alice, rounds)
    client.force_login(alice)
    client.get(match.get_absolute_url())
    with django_assert_max_num_queries(SHEET_CREATOR_CACHED):
        response = client.get(match.get_absolute_url())
    assert 'id="round-form"' in response.content.decode()

    cache.clear()
    with django_assert_max_num_queries(SHEET_CREATOR_UNCACHED):
        response = client.get(match.get_absolute_url())
    assert 'id="round-form"' in response.content.decode()


def tournament_of(director, rounds: int, players: int = 8):
    """A tournament of `rounds` closed rounds at tables of 4, each table played out."""
    tournament = make_tournament(director, rounds_planned=rounds)
    enter(tournament, [f"Player {number}" for number in range(players)], by=director)
    for _number in range(rounds):
        round_ = tournaments.seat_next_round(tournament=tournament, by=director)
        for table in round_.tables.select_related("match"):
            play_out(table.match, director)
        tournaments.close_round(round_=round_, by=director)
    return tournament


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_tournament_page_costs_a_fixed_number_of_queries(
    client, alice, rounds, django_assert_max_num_queries
):
    tournament = tournament_of(alice, rounds)
    url = tournament.get_absolute_url()
    with django_assert_max_num_queries(TOURNAMENT_READER_UNCACHED):
        client.get(url)
    with django_assert_max_num_queries(TOURNAMENT_READER):
        response = client.get(url)
    # In the standings and at a table of the latest round (earlier rounds are linked).
    assert response.content.decode().count(">Player 7<") == 2

    client.force_login(alice)
    client.get(url)
    with django_assert_max_num_queries(TOURNAMENT_DIRECTOR):
        response = client.get(url)
    assert response.status_code == 200


# --- statistics ----------------------------------------------------------------------------

# player, ratings, figures (2), prediction, rating chart, recent, opponents; and, outside the
# cached body, the panels of the apps that answer stats.signals.profile_panels: the club
# awards, one query for a player who never played a finished club night, and the coach's,
# one for a player none of whose moves was reviewed.
PROFILE = 10
# The coach's panel of a player with reviewed moves: their tables' accuracy, their kinds of
# mistakes, and (once for everyone, then cached) the site's accuracy per rules.
COACH_PANEL = 2
COACH_PANEL_UNCACHED = COACH_PANEL + 1
LEADERBOARD = 1
HEAD_TO_HEAD = 5


def history_of(creator, matches: int):
    """`matches` finished classic matches of alice against two guests."""
    for number in range(matches):
        play_out(make_match(creator, ["alice", "Dan", "Eve"]), creator, winner_index=number % 3)


@pytest.mark.parametrize("matches", [3, 12])
def test_statistics_pages_cost_a_fixed_number_of_queries(
    client, alice, matches, django_assert_max_num_queries
):
    history_of(alice, matches)
    ids = dict(Player.objects.values_list("name", "pk"))
    with django_assert_max_num_queries(PROFILE):
        response = client.get(reverse("stats:profile", args=[ids["alice"]]))
    assert response.content.decode().count('class="rating-dot"') == matches
    with django_assert_max_num_queries(LEADERBOARD):
        response = client.get(reverse("stats:leaderboard"), {"least": "1"})
    assert response.status_code == 200
    with django_assert_max_num_queries(HEAD_TO_HEAD):
        response = client.get(reverse("stats:head_to_head", args=[ids["alice"], ids["Dan"]]))
    assert response.content.decode().count("<tr>") >= matches


def test_the_profile_with_the_coachs_panel_costs_a_fixed_number_of_queries(
    client, alice, django_assert_max_num_queries
):
    for seed in (3, 4):
        reviewed_table(alice, seed=seed)
    player = Player.objects.get(user=alice)
    with django_assert_max_num_queries(PROFILE - 1 + COACH_PANEL_UNCACHED):
        response = client.get(reverse("stats:profile", args=[player.pk]))
    assert 'class="coach-panel panel"' in response.content.decode()
    with django_assert_max_num_queries(PROFILE - 1 + COACH_PANEL):
        response = client.get(reverse("stats:profile", args=[player.pk]))
    panel = response.content.decode().partition('class="coach-panel panel"')[2]
    assert panel.count('class="rating-dot"') == 2  # a point a reviewed table


# Signed in (session, user), whether anyone hides their name (read once until a name changes),
# the claim panel: the viewer's own claim, their player and whether they met the guest, the
# guest's judges (its tournaments' creators and directors, its clubs' owners and directors),
# the claims waiting for a judge, who decides them (their players); and the top bar's count.
GUEST_PROFILE_SIGNED_IN = PROFILE + 2 + 1 + 9 + WAITING_WITH_CLAIMS


@pytest.mark.parametrize("matches", [3, 12])
def test_a_guests_profile_for_a_signed_in_judge_costs_a_fixed_number_of_queries(
    client, alice, bob, matches, django_assert_max_num_queries
):
    history_of(alice, matches)
    dan = Player.objects.get(name="Dan")
    claims.ask(guest=dan, by=bob)
    client.force_login(alice)
    with django_assert_max_num_queries(GUEST_PROFILE_SIGNED_IN):
        response = client.get(reverse("stats:profile", args=[dan.pk]))
    assert "bob says they are the guest Dan" in response.content.decode()


# Session, account, the pending claims and links, the judges of the claims' guests (their
# tournaments' creators and directors, their clubs' owners and directors), the account's
# history (the top bar's count is the page's).
CLAIMS_PAGE = 2 + 1 + 3 + 1


@pytest.mark.parametrize("guests", [1, 6])
def test_the_claims_page_costs_the_same_however_many_claims_wait(
    client, alice, bob, guests, django_assert_max_num_queries
):
    names = [f"G{number}" for number in range(guests)]
    make_match(alice, ["alice", *names[:3]])
    if guests > 3:
        make_match(alice, ["alice", *names[3:]])
    for guest in Player.objects.filter(name__in=names):
        claims.ask(guest=guest, by=bob)
    client.force_login(alice)
    with django_assert_max_num_queries(CLAIMS_PAGE):
        page = client.get(reverse("claims:claims")).content.decode()
    assert page.count("bob says they are the guest") == guests


# --- hidden names ----------------------------------------------------------------------------


def private_queries(queries) -> list[str]:
    """The queries that ask who hides a name or who may see it."""
    return [
        q["sql"] for q in queries.captured_queries if '"private"' in q["sql"].partition("WHERE")[2]
    ]


@pytest.mark.parametrize("rounds", [5, 30])
def test_a_signed_in_reader_pays_one_query_for_hidden_names_where_names_are_shown(
    client, alice, bob, rounds, django_assert_max_num_queries
):
    """Once anyone hides, a signed-in reader of a page with names asks once who they may see;
    a page without names, or a poll answered 204, asks nothing."""
    match = sheet_of(alice, rounds)
    make_match(alice, ["alice", "bob"])
    claims.set_private(player=bob.player, private=True, by=bob)
    client.force_login(alice)
    client.get(match.get_absolute_url())
    with django_assert_max_num_queries(SHEET_CREATOR_CACHED + 1) as queries:
        response = client.get(match.get_absolute_url())
    assert 'id="round-form"' in response.content.decode()
    assert len(private_queries(queries)) == 1
    tournament = tournament_of(alice, 1)
    client.get(tournament.get_absolute_url())
    with django_assert_max_num_queries(TOURNAMENT_DIRECTOR + 1) as queries:
        client.get(tournament.get_absolute_url())
    assert len(private_queries(queries)) == 1
    live = reverse("games:match_live", args=[match.pk])
    for path, headers, status in (
        (reverse("games:rules"), {}, 200),
        (reverse("tournaments:list"), {}, 200),
        (f"{live}?v={match.version}", {"HX-Request": "true"}, 204),  # an unchanged poll
    ):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path, headers=headers).status_code == status
        assert private_queries(queries) == [], path


# --- live play -------------------------------------------------------------------------------

# The session and the account, the tables I sit at, the public tables waiting for players, the
# seats of both (one query), the top bar's count, and the correspondence tables where it is my
# move (none here: their seats are read only when there are some).
LOBBY = 2 + 1 + 1 + 1 + WAITING + 1


@pytest.mark.parametrize("tables", [1, 6])
def test_the_lobby_costs_the_same_however_many_tables(
    client, alice, bob, tables, django_assert_max_num_queries
):
    for _ in range(tables):
        play.create_table(
            by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy"]
        )
        play.create_table(
            by=bob, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"], public=True
        )
    client.force_login(alice)
    with django_assert_max_num_queries(LOBBY):
        body = client.get(reverse("play:lobby")).content.decode()
    # Each of my tables says whose move it is; each public one who waits there.
    assert body.count(" to move") + body.count("Your move") == tables
    assert body.count("bob</span> · ") == tables


# The session and the account; in the move's transaction (its savepoint and release in a
# test) the table, locked, with its match, and its seats with their players, read once each;
# the move kept and the table saved; after the commit, the event that tells the watchers (a
# row when the database carries them, as `make run` does; none on Redis); and the mover marked
# as watching the table (play.presence: nobody is told elsewhere of a move they see); and
# whether the table is a group chat's, whose journal follows it (chats, play.signals).
MOVE = 2 + 2 + 2 + 2 + 1 + 1 + 1


def test_a_move_reads_the_table_and_its_seats_once(
    client, alice, bob, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "open"], seed=7
    )
    play.join(table=table, user=bob, invite=table.invite)
    table.refresh_from_db()
    game = Game.from_json(table.state)
    mover = alice if game.to_move == 0 else bob
    move = next(move for move in game.legal_moves() if move.kind == "play")
    data = {"kind": "play", "version": table.version, "card": move.card.code}
    client.force_login(mover)
    with (
        django_assert_max_num_queries(MOVE) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(reverse("play:move", args=[table.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    # The board came back as the move left the table, drawn from what the move read.
    assert f'data-live-version="{table.version + 1}"' in response.content.decode()
    assert PlayTable.objects.get(pk=table.pk).moves_made == 1
    tables = [q["sql"] for q in queries if 'FROM "games_playtable"' in q["sql"]]
    seats = [q["sql"] for q in queries if 'FROM "games_playseat"' in q["sql"]]
    assert len(tables) == 1 and len(seats) == 1


# --- practice (coach) ----------------------------------------------------------------------

# The session and the account (the top bar's count is cached for a minute); the positions'
# count by label (whether inaccuracies are practised too), the positions listed with their
# practice and tables, and how many are solved.
PRACTICE_LIST = 2 + 3
# The session and the account; the position with its review and table, the person's practice
# of it, the table's seats with their players; once solved, the next position (the count by
# label, and the first unsolved).
PRACTICE_POSITION = 2 + 3
PRACTICE_POSITION_SOLVED = PRACTICE_POSITION + 2


@pytest.mark.parametrize("tables", [1, 3])
def test_practice_costs_the_same_however_many_positions(
    client, alice, tables, django_assert_max_num_queries
):
    positions = [mistakes_of(alice, seed=seed)[0] for seed in range(3, 3 + tables)]
    client.force_login(alice)
    client.get(reverse("coach:practice"))  # the top bar's count, then cached
    with django_assert_max_num_queries(PRACTICE_LIST):
        body = client.get(reverse("coach:practice")).content.decode()
    assert all(reverse("coach:practice_position", args=[p.pk]) in body for p in positions)
    first = reverse("coach:practice_position", args=[positions[0].pk])
    with django_assert_max_num_queries(PRACTICE_POSITION):
        body = client.get(first).content.decode()
    assert "What is best here?" in body
    client.post(
        reverse("coach:practice_answer", args=[positions[0].pk]),
        {k: v for k, v in positions[0].best.items() if v is not None},
    )
    with django_assert_max_num_queries(PRACTICE_POSITION_SOLVED):
        body = client.get(first).content.decode()
    assert "Best move!" in body


# --- clubs ---------------------------------------------------------------------------------

# A season's page from the cache: the season with its club, the nights it counts, their
# players. Worked out afresh, all nights' standings at once too: their entrants, finished
# tables, seats and deals won.
# And its awards: the nights' rounds, and the players who won them.
SEASON_PAGE = 3 + 2
SEASON_PAGE_UNCACHED = SEASON_PAGE + 4


@pytest.mark.parametrize("nights", [1, 4])
def test_a_seasons_page_costs_a_fixed_number_of_queries_however_many_nights(
    client, alice, nights, django_assert_max_num_queries
):
    club = clubs.create_club(owner=alice, name="Туз")
    season = clubs.create_season(
        club=club, by=alice, name="Осень", starts=AUTUMN[0], ends=AUTUMN[1]
    )
    for number in range(nights):
        names = ["Анна", "Борис", "Вера", f"Гость {number}"]
        night(club, alice, f"2026-09-{number + 10}", names, winner=number % 4)
    url = reverse("clubs:season", args=[club.slug, season.pk])
    cache.clear()
    with django_assert_max_num_queries(SEASON_PAGE_UNCACHED):
        client.get(url)
    with django_assert_max_num_queries(SEASON_PAGE):
        response = client.get(url)
    assert response.content.decode().count('class="name"') == 3 + nights


# --- the coach -----------------------------------------------------------------------------

# The replay of a reviewed round: the session and the account, the top bar's count, the table
# with its match, its seats, the kept moves; the coach's marks: the round's review and its
# decisions.
REPLAY_REVIEWED = 2 + WAITING + 1 + 1 + 1 + 2
# A match's review: the session, the account and the top bar's count; the table with its
# match, its seats; the reviews of its rounds and all their decisions.
MATCH_REVIEW = 2 + WAITING + 1 + 1 + 2
# After a round's board, the coach's panel for a seated person: the session and the account,
# the table, its seats, the reviews and the person's decisions.
ROUND_END_PANEL = 2 + 1 + 1 + 2


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_coachs_pages_cost_the_same_however_many_rounds_and_decisions(
    client, alice, rounds, django_assert_max_num_queries
):
    table = reviewed_table(alice, rounds=rounds)
    client.force_login(alice)
    client.get(reverse("play:lobby"))  # the top bar's count, as on any page after the first
    replay = reverse("play:replay", args=[table.pk, rounds])
    with django_assert_max_num_queries(REPLAY_REVIEWED):
        body = client.get(f"{replay}?step=3").content.decode()
    assert "coach-decisions" in body
    with django_assert_max_num_queries(MATCH_REVIEW):
        body = client.get(reverse("coach:table_review", args=[table.pk])).content.decode()
    assert body.count('class="coach-costliest"') >= 1
    panel = reverse("play:round_end", args=[table.pk])
    with django_assert_max_num_queries(ROUND_END_PANEL):
        body = client.get(f"{panel}?round={rounds}").content.decode()
    assert "Your accuracy" in body
