"""Load a demo: an account, a few players, a finished and a running match, a tournament, matches
bots played on the site (`manage.py simulate --save`), and half a year of club history: well
over a hundred finished matches among a dozen people, played card by card by the engine (each
person a bot of their own strength), so that profiles, charts and ratings look real.

A site-wide command, in config with `serve`: it seeds every app, and only config may import
them all (the apps import one way: games never imports tournaments)."""

import datetime
from io import StringIO
from random import Random

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS, deck, must_cover
from claims import services as claims
from clubs import services as clubs
from clubs.models import Club
from coach import services as coach
from coach.models import RoundReview
from games import services
from games.models import Match, Player
from play import services as play
from play.models import PlayTable
from tournaments import services as tournaments
from tournaments.models import Tournament
from tournaments.standings import DEFAULT_POINTS

TOURNAMENT_PLAYERS = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Igor", "Katya"]

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "play-101-demo"
CLAIMANT = "lena"  # an account that asks for the guest typed in for her

# Rounds of the finished match (classic: first out ends a round, last survivor wins; a 6
# must be covered, so nobody goes out on one).
FINISHED_ROUNDS = [
    {"demo": {"out": "QS"}, "Anna": {"hand": "AC 10H"}, "Boris": {"hand": "7D 8D"}},
    {"demo": {"hand": "KH JH"}, "Anna": {"out": "9C"}, "Boris": {"hand": "AS AD AH"}},
    {"demo": {"hand": "10S"}, "Anna": {"hand": "QH QD"}, "Boris": {"out": "7C"}},
    {"demo": {"out": "QC"}, "Anna": {"hand": "AC KD 10D"}, "Boris": {"hand": "AS 10C 8H"}},
    {"demo": {"hand": "7S 8S"}, "Anna": {"out": "JD"}, "Boris": {"hand": "AH AC 10S"}},
    {"demo": {"out": "7H"}, "Anna": {"hand": "KC 10C"}},
    {"demo": {"hand": "AS AH AD AC 10H"}, "Anna": {"out": "KC"}},
    {"demo": {"out": "QD"}, "Anna": {"hand": "AH AD AC 10D 10S 10C"}},
]
RUNNING_ROUNDS = [
    {
        "demo": {"out": "QS"},
        "Anna": {"hand": "9H AC"},
        "Boris": {"points": 17},
        "Vera": {"hand": "QH"},
    },
    {
        "demo": {"hand": "7S 8S"},
        "Anna": {"hand": "6D"},
        "Boris": {"out": "AD"},
        "Vera": {"hand": "KS"},
    },
    {
        "demo": {"hand": "JC"},
        "Anna": {"out": "QH"},
        "Boris": {"hand": "10H 10C"},
        "Vera": {"hand": "8H"},
    },
]

# Half a year of club history: each person and how often they make the greedy bot's move
# rather than a random one (their strength).
HISTORY_PEOPLE = {
    "demo": 0.8,
    "Anna": 0.95,
    "Boris": 0.6,
    "Vera": 0.85,
    "Gleb": 0.4,
    "Dasha": 0.75,
    "Egor": 0.5,
    "Zhenya": 0.9,
    "Igor": 0.3,
    "Katya": 0.7,
    "Lena": 0.65,
    "Misha": 0.55,
}
HISTORY_MATCHES = 120
HISTORY_DAYS = 180
HISTORY_PRESETS = ("classic", "classic", "aaow", "conventions")

# Matches played on the site by bots: (preset, the bot in each seat, how many).
# The demo user's table on the site: its moves at most (a match ends long before), how often
# the demo user plays at random (the coach finds mistakes to show), and the coach's budget a
# decision (small: `make run` stays quick; the worker's default is 0.1 s).
DEMO_TABLE_MOVES = 5_000
DEMO_AT_RANDOM = 0.3
DEMO_REVIEW_BUDGET = 0.005

PLAYED = [
    ("aaow", ("greedy", "greedy", "random"), 4),
    ("conventions", ("greedy", "random"), 3),
]


class Command(BaseCommand):
    help = (
        "Create the demo account, its matches, a club tournament and matches played by bots "
        "(what exists already is left as it is)."
    )

    def handle(self, *args, **options):
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            with transaction.atomic():
                user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
                self._create_matches(user)
        if not Match.objects.casual().filter(created_by=user).exists():
            self._create_matches(user)
        club = Club.objects.filter(owner=user).first()
        if club is None:
            club = self._create_club(user)
        if not Tournament.objects.filter(created_by=user, status="running").exists():
            self._create_tournament(user, club)
        if not Match.objects.filter(created_by=user, kind=Match.Kind.ONLINE).exists():
            self._play_on_the_site()
        if not PlayTable.objects.filter(created_by=user, status=PlayTable.Status.FINISHED).exists():
            self._play_a_reviewed_table(user)
        if Match.objects.filter(created_by=user, finished_at__lt=_history_end()).count() < 10:
            self._play_history(user)
        if not User.objects.filter(username=CLAIMANT).exists():
            self._ask_for_a_guest(User)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo account: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}"
            )
        )

    def _ask_for_a_guest(self, User) -> None:
        """Lena has made an account and asks for the guest the demo user typed in for her:
        her claim waits for the demo user on the claims page."""
        lena = User.objects.create_user(CLAIMANT, password=DEMO_PASSWORD)
        guest = Player.objects.filter(name="Lena", user=None).order_by("pk").first()
        if guest is not None:
            claims.ask(guest=guest, by=lena)

    def _create_matches(self, user) -> None:
        me = Player.objects.get(user=user)
        guests = {
            name: Player.objects.get_or_create(name=name, user=None, added_by=user)[0]
            for name in ("Anna", "Boris", "Vera")
        }
        finished = services.create_match(
            created_by=user,
            players=[me, guests["Anna"], guests["Boris"]],
            preset="classic",
            variant=PRESETS["classic"],
        )
        for outcomes in FINISHED_ROUNDS:
            _record(finished, user, outcomes)
        running = services.create_match(
            created_by=user,
            players=[me, *guests.values()],
            preset="conventions",
            variant=PRESETS["conventions"],
        )
        for outcomes in RUNNING_ROUNDS:
            _record(running, user, outcomes)

    def _play_on_the_site(self) -> None:
        """Matches bots played through to the end, stored as played on the site."""
        for preset, bots, matches in PLAYED:
            call_command(
                "simulate",
                preset=preset,
                players=len(bots),
                bots=",".join(bots),
                matches=matches,
                seed=101,
                save=True,
                user=DEMO_USERNAME,
                stdout=StringIO(),
                stderr=StringIO(),
            )

    def _play_a_reviewed_table(self, user) -> None:
        """A match the demo user played at a table on the site against two bots, card by card
        through the play services (a greedy choice mostly, now and then one at random), its
        rounds reviewed by the coach at a small budget (`make run` stays quick): the coach's
        review, the replay's marks and practice have something to show a new visitor."""
        table = play.create_table(
            by=user,
            preset="classic",
            variant=PRESETS["classic"],
            seats=["me", "greedy", "random"],
            seed=2028,
        )
        greedy, chance = make_bot("greedy", seed=28), Random(28)
        # The bots move at once (their time is taken as come), not at a person's pace.
        later = timezone.now() + datetime.timedelta(hours=1)
        for _ in range(DEMO_TABLE_MOVES):
            table.refresh_from_db()
            game = Game.from_json(table.state)
            if game.match_over:
                break
            if game.round_over:
                play.next_round(table=table, user=user, round_number=game.round + 1)
            elif game.to_move == 0:
                legal = game.legal_moves()
                move = greedy.choose(game.view(0), legal)
                if chance.random() < DEMO_AT_RANDOM:
                    move = chance.choice(legal)
                play.play(table=table, user=user, move=move, version=table.version)
            else:
                play.step(table=table, now=later)
        for review in RoundReview.objects.filter(table=table, status=RoundReview.Status.WAITING):
            coach.review_now(review, budget=DEMO_REVIEW_BUDGET)

    def _play_history(self, user) -> None:
        """Matches of two to four of HISTORY_PEOPLE, one every day and a half or so, played
        out by the engine and entered as the score sheets of those evenings."""
        people = {
            name: Player.objects.get(user=user)
            if name == DEMO_USERNAME
            else Player.objects.get_or_create(name=name, user=None, added_by=user)[0]
            for name in HISTORY_PEOPLE
        }
        random = Random(2026)
        end = _history_end()
        step = datetime.timedelta(days=HISTORY_DAYS) / HISTORY_MATCHES
        for number in range(HISTORY_MATCHES):
            preset = random.choice(HISTORY_PRESETS)
            names = random.sample(list(HISTORY_PEOPLE), random.choice((2, 3, 3, 4)))
            rounds = _played_out(PRESETS[preset], names, seed=number)
            match = services.create_match(
                created_by=user,
                players=[people[name] for name in names],
                preset=preset,
                variant=PRESETS[preset],
            )
            when = (
                end
                - step * (HISTORY_MATCHES - number)
                + datetime.timedelta(minutes=random.randrange(600))
            )
            services.store_history(match=match, rounds=rounds, finished_at=when, by=user)

    def _create_club(self, user) -> Club:
        """The demo user's club: its regulars as members, a season running since two months
        ago, and two finished nights in it (the season's table and awards have something to
        show)."""
        club = clubs.create_club(owner=user, name="Клуб «Сто одно»", city="Тверь")
        clubs.add_members_named(club=club, names=TOURNAMENT_PLAYERS[:8], by=user)
        today = timezone.localdate()
        clubs.create_season(
            club=club,
            by=user,
            name="Осень",
            starts=today - datetime.timedelta(days=60),
            ends=today + datetime.timedelta(days=30),
        )
        random = Random(7)
        for weeks_ago in (2, 1):
            night = tournaments.create_tournament(
                created_by=user,
                club=club,
                variant=PRESETS[club.preset],
                name=f"Пятница, {weeks_ago} нед. назад" if weeks_ago > 1 else "Прошлая пятница",
                date=today - datetime.timedelta(weeks=weeks_ago),
                place=club.name,
                preset=club.preset,
                rounds_planned=2,
                table_size=4,
                match_end="deals",
                deals_per_match=3,
                points_by_place=club.points_by_place,
                tie_breaks=club.tie_breaks,
            )
            tournaments.add_entrants(
                tournament=night,
                names=random.sample(TOURNAMENT_PLAYERS, 8),
                by=user,
                checked_in=True,
            )
            for _ in range(2):
                round_ = tournaments.seat_next_round(tournament=night, by=user)
                for table in round_.tables.select_related("match"):
                    _play(table.match, user, random, deals=3)
                tournaments.close_round(round_=round_, by=user)  # the last one finishes it
        return club

    def _create_tournament(self, user, club: Club) -> None:
        """A club evening: 10 players, round 1 played and closed, round 2 under way."""
        tournament = tournaments.create_tournament(
            created_by=user,
            club=club,
            variant=PRESETS["classic"],
            name="Пятничный вечер клуба",
            date=timezone.localdate(),
            place="Клуб «101»",
            description="Три тура за столами на четверых и троих, затем финальный стол.",
            preset="classic",
            rounds_planned=3,
            table_size=4,
            match_end="deals",
            deals_per_match=4,
            points_by_place={str(k): [float(p) for p in v] for k, v in DEFAULT_POINTS.items()},
            tie_breaks=["penalty_total", "deals_won", "opponents_points"],
            final_table_size=4,
        )
        tournaments.add_entrants(
            tournament=tournament, names=["demo", *TOURNAMENT_PLAYERS], by=user, checked_in=True
        )
        random = Random(101)
        first = tournaments.seat_next_round(tournament=tournament, by=user)
        for table in first.tables.select_related("match"):
            _play(table.match, user, random, deals=4)
        tournaments.close_round(round_=first, by=user)
        second = tournaments.seat_next_round(tournament=tournament, by=user)
        for table in second.tables.select_related("match")[:2]:
            _play(table.match, user, random, deals=2)


def _history_end() -> datetime.datetime:
    """The history ends the day before the demo is loaded."""
    return timezone.now() - datetime.timedelta(days=1)


def _played_out(variant, names: list[str], seed: int) -> list[dict]:
    """A whole match played card by card, each seat a greedy bot that now and then plays at
    random (less often the stronger the person): its rounds as score_match takes them."""
    game = Game.new(variant, players=len(names), seed=f"demo:{seed}")
    greedy = make_bot("greedy", seed=seed)
    chance = Random(seed)
    rounds = []
    while True:
        while not game.round_over:
            seat = game.to_move
            legal = game.legal_moves()
            if chance.random() < HISTORY_PEOPLE[names[seat]]:
                move = greedy.choose(game.view(seat), legal)
            else:
                move = chance.choice(legal)
            game.play(move)
        rounds.append(game.round_outcomes)
        if game.match_over:
            return rounds
        game.next_round()


def _record(match, user, outcomes_by_name: dict) -> None:
    """Enter a round written with the demo's names (unique within each demo match)."""
    match.refresh_from_db()
    position = {seat.player.name: seat.position for seat in match.seats.select_related("player")}
    outcomes = {position[name]: outcome for name, outcome in outcomes_by_name.items()}
    services.record_round(match=match, outcomes=outcomes, version=match.version, by=user)


def _play(match, user, random: Random, deals: int) -> None:
    """Deals of plausible play: one player goes out, the others keep one to four cards."""
    positions = list(match.seats.order_by("position").values_list("position", flat=True))
    variant = match.variant
    for _deal in range(deals):
        cards = list(deck(36))
        random.shuffle(cards)
        winner = random.choice(positions)
        # Nobody goes out on a card they must cover (a 6 in classic).
        out = next(card for card in reversed(cards) if not must_cover(variant, card))
        cards.remove(out)
        outcomes = {winner: {"out": out.code}}
        for position in positions:
            if position != winner:
                held = [cards.pop().code for _ in range(random.randint(1, 4))]
                outcomes[position] = {"hand": " ".join(held)}
        match.refresh_from_db()
        services.record_round(match=match, outcomes=outcomes, version=match.version, by=user)
        match.refresh_from_db()
        if match.is_finished:
            break
