"""manage.py demo: what `make run` loads for a first look at the site."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from cards101.rules import PRESETS, score_match
from clubs.models import Club
from clubs.queries import season_nights, season_table
from coach.models import ReviewedDecision, RoundReview
from config.management.commands.demo import CLAIMANT, DEMO_PASSWORD, DEMO_USERNAME, PLAYED
from games.models import Match, Player
from games.queries import round_outcomes
from play.models import PlayTable
from stats.models import Rating
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_the_demo_loads_matches_a_tournament_bot_games_and_months_of_history(client):
    assert DEMO_USERNAME in demo()
    assert client.login(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert Match.objects.casual().filter(status=Match.Status.RUNNING).count() == 1
    nights = Tournament.objects.filter(created_by__username=DEMO_USERNAME)
    assert nights.filter(status=Tournament.Status.RUNNING).count() == 1
    # The demo's club: its season counts two finished nights, and tonight's belongs to it.
    club = Club.objects.get(owner__username=DEMO_USERNAME)
    assert club.slug == "klub-sto-odno"
    assert set(nights.values_list("club", flat=True)) == {club.pk}
    season = club.seasons.get()
    assert len(season_nights(season)) == 2
    assert len(season_table(season)) >= 8
    played = Match.objects.filter(kind=Match.Kind.ONLINE)
    # The bots' matches, and the demo user's at a table on the site, reviewed by the coach.
    assert played.count() == sum(matches for _, _, matches in PLAYED) + 1
    table = PlayTable.objects.get(created_by__username=DEMO_USERNAME)
    assert table.status == PlayTable.Status.FINISHED
    reviews = RoundReview.objects.filter(table=table)
    assert reviews.count() == table.match.rounds.count() > 1
    assert set(reviews.values_list("status", flat=True)) == {"done"}
    mine = ReviewedDecision.objects.filter(review__table=table, seat=0)
    assert mine.exclude(label="best").exists()  # mistakes to practise

    # History enough for profiles, charts and leaderboards to look real.
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    assert finished.count() >= 100
    assert set(finished.values_list("preset", flat=True)) == set(PRESETS)
    dates = sorted(finished.values_list("finished_at", flat=True))
    assert dates[-1] - dates[0] > datetime.timedelta(days=120)
    assert Player.objects.filter(seats__match__in=finished).distinct().count() >= 12
    assert Rating.objects.filter(pool__preset="classic", matches__gte=10).count() >= 3
    for match in finished.filter(kind__in=[Match.Kind.ONLINE, Match.Kind.CASUAL])[:40]:
        # Real deals, played to the end: the stored rounds score to a finished match.
        seats = list(match.seats.order_by("position").values_list("position", flat=True))
        rounds = [round_outcomes(round_) for round_ in match.rounds.order_by("number")]
        assert score_match(PRESETS[match.preset], seats, rounds).finished

    # A claim waits for the demo user: lena asks for the guest typed in for her.
    claims = client.get(reverse("claims:claims")).content.decode()
    assert f"{CLAIMANT} says they are the guest Lena" in claims

    # Loading it again adds nothing.
    counts = (Match.objects.count(), Tournament.objects.count(), Rating.objects.count())
    demo()
    assert (Match.objects.count(), Tournament.objects.count(), Rating.objects.count()) == counts
