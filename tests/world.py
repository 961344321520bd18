"""A populated site in the states people meet, for tests that visit every page: tournaments
before seating, mid-round and finished; a running and a finished score sheet; profiles with
charts; live tables on your move, on a turned-up Queen, at a round's end and at the match's end,
on your move with a clock running, out of a round only bots play on, and one you resigned from;
a claim waiting for its judge; lena asking to join alice's club; carol's reviewed rounds and
practice positions (to solve, solved, the best move shown).

The cast: alice creates the score sheets and directs the tournaments, bob keeps score at
alice's running sheet, carol plays (an account at the sheets, the tournaments and the live
tables), lena asks for a guest, sam is staff."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS
from claims import services as claims
from claims.models import Claim
from clubs import services as clubs
from clubs.models import Club, JoinRequest, Season
from coach import services as coach
from coach.models import ReviewedDecision, RoundReview
from games import services
from games.models import Match, Player
from play import services as play
from play import vacations
from play.models import PlayTable
from tests.coach.mistakes import BUDGET, as_if_played, best_move, worst_move
from tests.factories import counts_tables_of, make_match, play_out, record
from tournaments import services as tournaments
from tournaments.models import Tournament
from tournaments.standings import DEFAULT_POINTS

ROLES = ("anonymous", "player", "scorekeeper", "director", "staff")
USERNAMES = {"player": "carol", "scorekeeper": "bob", "director": "alice", "staff": "sam"}


@dataclass
class World:
    users: dict[str, object]
    tournaments: dict[str, Tournament]
    matches: dict[str, Match]
    tables: dict[str, PlayTable]
    claim: Claim
    guest: Player
    club: Club
    seasons: dict[str, Season]
    people: dict[str, Player] = field(default_factory=dict)
    join_request: JoinRequest | None = None
    # carol's practice positions: one to solve, one solved, one whose best move she was shown.
    practice: dict[str, ReviewedDecision] = field(default_factory=dict)


def build_world() -> World:
    User = get_user_model()
    users = {
        name: User.objects.create_user(name, f"{name}@example.com", f"{name}-password")
        for name in ("alice", "bob", "carol", "lena")
    }
    users["sam"] = User.objects.create_superuser("sam", "sam@example.com", "sam-password")
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    # carol plays at alice's tables: she confirmed the first one that named her, so alice's
    # later tables (and tournaments) count for her at once.
    counts_tables_of(carol, alice)
    # bob names alice at a sheet of his own: a guest stands in until she confirms.
    make_match(bob, ["bob", "alice", "Zoe"])

    finished = make_match(alice, ["alice", "carol", "Anna", "Boris"])
    play_out(finished, alice, winner_index=1)
    # More finished matches, so that carol's profile draws its charts.
    for winner in (0, 2, 1):
        other = make_match(alice, ["alice", "carol", "Anna"])
        play_out(other, alice, winner_index=winner)
    running = make_match(alice, ["alice", "carol", "Anna", "Boris"])
    record(
        running,
        alice,
        {
            "alice": {"hand": "AC 10H"},
            "carol": {"out": "QS"},
            "Anna": {"points": 17},
            "Boris": {"points": 5},
        },
        {
            "alice": {"out": "9C"},
            "carol": {"hand": "KH JH"},
            "Anna": {"points": 3},
            "Boris": {"points": 9},
        },
    )
    services.add_scorekeeper(match=running, username="bob", by=alice)
    running.refresh_from_db()

    club = clubs.create_club(owner=alice, name="Клуб «Туз»")
    nights = _tournaments(alice, club)
    tables = _tables(carol)
    return World(
        users=users,
        club=club,
        seasons=_seasons(club, alice),
        tournaments=nights,
        matches={"running": running, "finished": finished},
        tables=tables,
        claim=claims.ask(guest=Player.objects.get(name="Boris"), by=users["lena"]),
        guest=Player.objects.get(name="Anna"),
        people={
            "carol": Player.objects.get(user=carol),
            "alice": Player.objects.get(user=alice),
            "bob": services.own_player(bob),
        },
        join_request=clubs.ask_to_join(club=club, user=users["lena"]),
        practice=_practice(carol),
    )


def _tournament(alice, name: str, names: list[str], club: Club, **fields) -> Tournament:
    tournament = tournaments.create_tournament(
        created_by=alice,
        club=club,
        variant=PRESETS["classic"],
        name=name,
        date=timezone.localdate(),
        place="Клуб «Туз»",
        preset="classic",
        rounds_planned=2,
        table_size=4,
        match_end="played_out",
        points_by_place={str(k): [float(p) for p in v] for k, v in DEFAULT_POINTS.items()},
        tie_breaks=["penalty_total", "deals_won"],
        **fields,
    )
    tournaments.add_entrants(tournament=tournament, names=names, by=alice, checked_in=True)
    return tournament


def _club_members(club: Club, alice) -> None:
    """carol and bob are members of alice's club, and so is the guest Анна."""
    for player in Player.objects.filter(Q(user__username__in=["carol", "bob"]) | Q(name="Анна")):
        clubs.add_member(club=club, player=player, by=alice)


def _seasons(club: Club, alice) -> dict[str, Season]:
    """The club's seasons: one running now (its finished night counts), a best-of-2 ranking
    over the same months that ranks from two nights (so nobody is ranked yet), and a closed
    one that kept its table and champions."""
    _club_members(club, alice)
    today = timezone.localdate()
    running = clubs.create_season(
        club=club,
        by=alice,
        name="Осень",
        starts=today - datetime.timedelta(days=60),
        ends=today + datetime.timedelta(days=30),
    )
    best = clubs.create_season(
        club=club,
        by=alice,
        name="Лучшие два вечера",
        starts=today - datetime.timedelta(days=60),
        ends=today + datetime.timedelta(days=30),
        best_nights=2,
        min_nights=2,
    )
    closed = clubs.create_season(
        club=club,
        by=alice,
        name="Лето",
        starts=today - datetime.timedelta(days=90),
        ends=today,
    )
    closed = clubs.close_season(season=closed, by=alice)
    return {"running": running, "best": best, "closed": closed}


def _tournaments(alice, club: Club) -> dict[str, Tournament]:
    """Three nights of alice's club: before seating, mid-round and finished."""
    names = ["carol", "Анна", "Борис", "Вера", "Глеб", "Даша", "Егор", "Женя"]
    before = _tournament(alice, "Вечер в клубе", names, club)
    middle = _tournament(alice, "Кубок осени", names, club, confirm_results=True)
    first = tournaments.seat_next_round(tournament=middle, by=alice)
    _round_to_confirm(first)
    play_out(first.tables.order_by("number").first().match, alice)
    over = _tournament(alice, "Финал года", names, club)
    for _ in range(2):
        round_ = tournaments.seat_next_round(tournament=over, by=alice)
        for table in round_.tables.all():
            play_out(table.match, alice)
        tournaments.close_round(round_=round_, by=alice)  # the last one finishes it
    for tournament in (before, middle, over):
        tournament.refresh_from_db()
    return {"before": before, "running": middle, "finished": over}


def _round_to_confirm(round_) -> None:
    """The running night confirms results: carol enters a round at table 2 and it waits for
    a second person (table 1, played out next by alice, a director, counts at once)."""
    first, second = round_.tables.order_by("number")
    carol = Player.objects.get(user__username="carol")
    if first.match.seats.filter(player=carol).exists():
        # Before table 1's scores: carol swaps to table 2 (the seating is drawn).
        guest = second.match.seats.order_by("position").first().player_id
        tournaments.swap_players(round_=round_, first=carol.pk, second=guest)
    match = Match.objects.get(pk=second.match_id)  # as the swap left it
    outcomes = {
        seat.position: {"out": "7C"} if index == 0 else {"points": 10 + index}
        for index, seat in enumerate(match.seats.order_by("position"))
    }
    services.record_round(match=match, outcomes=outcomes, version=match.version, by=carol.user)


def _seed_where(wanted, preset: str = "aaow", seats: int = 2) -> int:
    """The first seed whose first deal is `wanted` (a table deals from its seed)."""
    for seed in range(1000):
        if wanted(Game.new(PRESETS[preset], players=seats, seed=seed)):
            return seed
    raise AssertionError("no seed deals the position wanted")


def _table(carol, wanted, preset: str = "aaow", move_seconds: int | None = None) -> PlayTable:
    """carol against the greedy bot, the first seat to move hers."""
    return play.create_table(
        by=carol,
        preset=preset,
        variant=PRESETS[preset],
        seats=["me", "greedy"],
        seed=_seed_where(wanted, preset),
        move_seconds=move_seconds,
    )


def _out_of_round(carol) -> PlayTable:
    """carol has gone out of an aaow round that two bots play on (the deal played greedily
    until she is out, the bots' next move held back)."""
    table = play.create_table(
        by=carol, preset="aaow", variant=PRESETS["aaow"], seats=["me", "greedy", "expert"], seed=0
    )
    game = Game.from_json(table.state)
    bots = [make_bot("greedy", seed=seat) for seat in range(3)]
    while 0 not in game.view(0)["went_out"]:
        game.play(bots[game.to_move].choose(game.view(game.to_move), game.legal_moves()))
    assert not game.round_over
    PlayTable.objects.filter(pk=table.pk).update(state=game.to_json(), server_moves_at=None)
    table.refresh_from_db()
    return table


def _resigned(carol) -> PlayTable:
    """carol resigned from a table the greedy bot and her stand-in play on."""
    table = _table(carol, _carols_turn)
    play.leave(table=table, user=carol, status=table.status)
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=None)
    table.refresh_from_db()
    return table


def _on_vacation(carol, table: PlayTable) -> PlayTable:
    """carol's move at a correspondence table, her clock stopped by a vacation of five days."""
    now = timezone.now()
    vacations.take_vacation(user=carol, starts_at=now, ends_at=now + datetime.timedelta(days=5))
    table.refresh_from_db()
    return table


def _carols_turn(game: Game) -> bool:
    return game.to_move == 0 and not game.opening_queen


def _turned_up_queen(game: Game) -> bool:
    return game.to_move == 0 and game.opening_queen


def _play_on(table: PlayTable, user, *, until) -> PlayTable:
    """carol makes her first legal move and the bot its own until `until(game, table)`."""
    for _ in range(5000):
        table.refresh_from_db()
        game = Game.from_json(table.state)
        if until(game, table):
            return table
        if game.round_over:
            play.next_round(table=table, user=user, round_number=game.round + 1)
        elif game.to_move == 0:
            play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
        else:
            play.step(table=table, now=timezone.now() + datetime.timedelta(hours=1))
    raise AssertionError("the table never got there")


def _tables(carol) -> dict[str, PlayTable]:
    round_over = _play_on(
        _table(carol, _carols_turn), carol, until=lambda game, table: game.round_over
    )
    match_over = _play_on(
        _table(carol, _carols_turn, preset="classic"),
        carol,
        until=lambda game, table: table.status == PlayTable.Status.FINISHED,
    )
    # The pause before the next deal does not run out while a test visits the table.
    PlayTable.objects.filter(pk=round_over.pk).update(server_moves_at=None)
    # The coach has reviewed the finished match (its pages with marks); the round over waits.
    for review in RoundReview.objects.filter(table=match_over):
        coach.review_now(review, budget=0.001)
    waiting = play.create_table(
        by=carol, preset="classic", variant=PRESETS["classic"], seats=["me", "open"], public=True
    )
    return {
        "your_move": _table(carol, _carols_turn),
        "turned_up_queen": _table(carol, _turned_up_queen),
        "round_over": round_over,
        "match_over": match_over,
        "waiting": waiting,
        "timed": _table(carol, _carols_turn, move_seconds=120),
        "by_correspondence": _on_vacation(carol, _table(carol, _carols_turn, move_seconds=259200)),
        "out_of_round": _out_of_round(carol),
        "resigned": _resigned(carol),
    }


def _practice(carol) -> dict[str, ReviewedDecision]:
    """Every round finished at carol's tables reviewed (as the worker would), and three of her
    own moves made her costliest there (tests/coach/mistakes.py): one to solve, one solved, one
    whose best move she asked to see."""
    for review in RoundReview.objects.filter(status=RoundReview.Status.WAITING):
        coach.review_now(review, budget=BUDGET, seed=1)
    own = ReviewedDecision.objects.filter(player__user=carol, by="").order_by("pk")
    chosen = sorted(own, key=lambda decision: -max(loss for _, loss in decision.losses))[:3]
    to_solve, solved, shown = (as_if_played(d, worst_move(d)) for d in chosen)
    coach.try_move(user=carol, decision=solved, move=worst_move(solved))
    coach.try_move(user=carol, decision=solved, move=best_move(solved))
    coach.show_best(user=carol, decision=shown)
    return {"to_solve": to_solve, "solved": solved, "shown": shown}
