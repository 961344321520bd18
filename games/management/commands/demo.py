"""Load a small demo: an account to log in with, a few players, a finished and a running match."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import services
from games.models import Match, Player
from games.rules import PRESETS

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "play-101-demo"

# Rounds of the finished match (classic: first out ends a round, last survivor wins).
FINISHED_ROUNDS = [
    {"demo": {"out": "QS"}, "Anna": {"hand": "AC 10H"}, "Boris": {"hand": "7D 8D"}},
    {"demo": {"hand": "KH JH"}, "Anna": {"out": "9C"}, "Boris": {"hand": "AS AD AH"}},
    {"demo": {"hand": "10S"}, "Anna": {"hand": "QH QD"}, "Boris": {"out": "6C"}},
    {"demo": {"out": "QC"}, "Anna": {"hand": "AC KD 10D"}, "Boris": {"hand": "AS 10C 8H"}},
    {"demo": {"hand": "7S 8S"}, "Anna": {"out": "JD"}, "Boris": {"hand": "AH AC 10S"}},
    {"demo": {"out": "6H"}, "Anna": {"hand": "KC 10C"}},
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


class Command(BaseCommand):
    help = "Create the demo account and two demo matches (does nothing if they exist)."

    def handle(self, *args, **options):
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            with transaction.atomic():
                user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
                self._create_matches(user)
        if not Match.objects.filter(created_by=user).exists():
            self._create_matches(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo account: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r} "
                "(log in at http://127.0.0.1:8000/accounts/login/)"
            )
        )

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
        for number, outcomes in enumerate(FINISHED_ROUNDS, start=1):
            services.record_round(match=finished, number=number, outcomes=outcomes, by=user)
        running = services.create_match(
            created_by=user,
            players=[me, *guests.values()],
            preset="conventions",
            variant=PRESETS["conventions"],
        )
        for number, outcomes in enumerate(RUNNING_ROUNDS, start=1):
            services.record_round(match=running, number=number, outcomes=outcomes, by=user)
