"""manage.py demo: what `make run` loads for a first look at the site."""

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Match
from games.rules import PRESETS, score_match
from games.services import round_outcomes
from tournaments.management.commands.demo import DEMO_PASSWORD, DEMO_USERNAME, PLAYED
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_the_demo_loads_an_account_matches_a_tournament_and_games_played_by_bots(client):
    assert DEMO_USERNAME in demo()
    assert client.login(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    casual = Match.objects.casual().filter(created_by__username=DEMO_USERNAME)
    assert sorted(match.status for match in casual) == ["finished", "running"]
    assert Tournament.objects.filter(created_by__username=DEMO_USERNAME).count() == 1

    played = Match.objects.filter(kind=Match.Kind.ONLINE)
    assert played.count() == sum(matches for _, _, matches in PLAYED)
    for match in played:
        # Real deals, played to the end: the stored rounds score to a finished match.
        assert match.status == Match.Status.FINISHED
        seats = list(match.seats.order_by("position").values_list("position", flat=True))
        rounds = [round_outcomes(round_) for round_ in match.rounds.order_by("number")]
        assert score_match(PRESETS[match.preset], seats, rounds).finished


def test_loading_the_demo_again_adds_nothing():
    demo()
    counts = (Match.objects.count(), Tournament.objects.count())
    demo()
    assert (Match.objects.count(), Tournament.objects.count()) == counts
