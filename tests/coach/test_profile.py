"""The coach's panel on a player's profile: accuracy over time, the kinds of mistakes they
make most with an example each, and their accuracy against the site's at the same rules;
only their own moves count."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cards101 import analysis
from claims import services as claims
from coach import profile, queries
from coach.models import ReviewedDecision, RoundReview
from games.models import Player
from tests.coach.mistakes import mistakes_of, reviewed_table

pytestmark = pytest.mark.django_db


def profile_of(client, user, **headers) -> str:
    player = Player.objects.get(user=user)
    return client.get(reverse("stats:profile", args=[player.pk]), **headers).content.decode()


def own(user):
    return ReviewedDecision.objects.filter(player__user=user, by="")


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values)


def test_a_player_with_reviewed_moves_has_the_coach_panel(client, alice, bob):
    mistakes_of(alice, count=1, rounds=2)
    reviewed_table(bob, seed=3)
    body = profile_of(client, alice)
    mine = mean(own(alice).values_list("accuracy", flat=True))
    site = mean(ReviewedDecision.objects.filter(by="").values_list("accuracy", flat=True))
    assert 'id="coach-panel-title">Coach<' in body
    assert f"Accuracy {round(mine)}% over {own(alice).count()} reviewed decisions" in body
    versus = re.search(r'<table class="preview-table coach-versus">.*?</table>', body, re.S)[0]
    assert "Classic" in versus and f"{round(mine)}%" in versus and f"{round(site)}%" in versus
    # One table is no line yet (the sentence above says it); two are, their figures listed.
    assert 'class="rating-dot"' not in body
    reviewed_table(alice, seed=5)
    body = profile_of(client, alice)
    assert body.count('class="rating-dot"') == 2
    assert "<desc" in body and "The figures" in body


def test_the_kinds_of_mistakes_come_most_frequent_first_with_the_costliest_example(client, alice):
    reviewed_table(alice, rounds=3)
    reviewed_table(alice, rounds=3, seed=5)
    own(alice).update(kind="", label="best")
    first, second, third = own(alice).order_by("pk")[:3]
    for decision, kind, loss in (
        (first, "drew", 20.0),
        (second, "queen_kept", 9.0),
        (third, "queen_kept", 12.0),
    ):
        decision.kind, decision.loss, decision.label = kind, loss, analysis.label_of(loss)
        decision.save()
    body = profile_of(client, alice)
    listed = re.findall(r'<li><strong>([^<]+)</strong>: (\d+ times?) · <a href="([^"]+)"', body)

    def step(decision) -> str:
        number = decision.review.round + 1
        replay = reverse("play:replay", args=[decision.review.table_id, number])
        return f"{replay}?step={decision.index}"

    assert listed == [
        ("Kept a Queen too long", "2 times", step(third)),
        ("Drew where a card could be played", "1 time", step(first)),
    ]
    assert "the costliest: about 12 points" in body


def test_a_stand_ins_moves_do_not_count(client, alice):
    mistakes_of(alice, count=1, rounds=2)
    before = profile_of(client, alice)
    counted = own(alice).count()
    stand_in = own(alice).order_by("pk").first()
    stand_in.by, stand_in.loss, stand_in.accuracy, stand_in.kind = "timer", 40.0, 1.8, "drew"
    stand_in.save()
    after = profile_of(client, alice)
    assert f"over {counted} reviewed decisions" in before
    assert f"over {counted - 1} reviewed decision" in after


def test_a_player_with_nothing_reviewed_has_no_panel_and_costs_one_query(client, alice):
    player = Player.objects.get(user=alice)
    with CaptureQueriesContext(connection) as captured:
        assert queries.panel_of(player) is None
    assert len(captured) == 1
    assert "coach-panel" not in profile_of(client, alice)


def test_the_panel_costs_two_queries_with_the_sites_accuracy_cached(alice):
    mistakes_of(alice, count=1, rounds=2)
    player = Player.objects.get(user=alice)
    queries.panel_of(player)
    with CaptureQueriesContext(connection) as captured:
        assert queries.panel_of(player) is not None
    assert len(captured) == 2


def test_the_practice_link_is_on_ones_own_profile_only(client, alice, bob):
    mistakes_of(alice, count=1)
    practice = reverse("coach:practice")
    assert practice not in profile_of(client, alice)
    client.force_login(bob)
    assert practice not in profile_of(client, alice)
    client.force_login(alice)
    assert f'href="{practice}">Practise your mistakes' in profile_of(client, alice).replace(
        'class="button" ', ""
    )


def test_a_hidden_players_panel_is_not_shown_to_a_stranger(client, alice, bob):
    mistakes_of(alice, count=1)
    claims.set_private(player=Player.objects.get(user=alice), private=True, by=alice)
    client.force_login(bob)
    assert "coach-panel" not in profile_of(client, alice)
    client.force_login(alice)
    assert "coach-panel" in profile_of(client, alice)


def test_the_panel_reads_in_russian_with_numbers_for_the_browser_unlocalized(client, alice):
    reviewed_table(alice, rounds=3)
    decision = own(alice).order_by("pk").first()
    decision.label, decision.kind, decision.loss = "mistake", "queen_kept", 7.5
    decision.accuracy = analysis.accuracy([7.5])
    decision.save()
    # A second table a day later: two points on the chart.
    later = mistakes_of(alice, count=1, seed=11)[0]
    RoundReview.objects.filter(table=later.review.table).update(
        created_at=timezone.now() + datetime.timedelta(days=1)
    )
    body = profile_of(client, alice, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Тренер" in body and "Дама придержана слишком долго" in body
    assert body.count('class="rating-dot"') == 2
    svg = re.search(r"<svg class=\"chart\" viewBox=\"0 0 600 200\".*?</svg>", body, re.S)[0]
    for value in re.findall(r' (?:cx|cy|x|y|x1|x2|y1|y2)="([^"]+)"', svg):
        assert re.fullmatch(r"-?\d+(\.\d+)?", value), value
    points = re.search(r'points="([^"]+)"', svg)[1]
    assert all(re.fullmatch(r"[\d.]+,[\d.]+", pair) for pair in points.split())


def test_many_tables_are_drawn_a_point_a_week():
    start = timezone.now() - datetime.timedelta(weeks=10)
    tables = [
        {
            "at": start + datetime.timedelta(days=day),
            "accuracy": 50.0 + day % 7,
            "decisions": 1 + day % 3,
            "review__table__preset": "classic",
        }
        for day in range(profile.WEEKLY_FROM + 10)
    ]
    points = profile.points_of(tables)
    assert 5 <= len(points) <= 7 and all(point.week for point in points)
    assert sum(point.decisions for point in points) == sum(row["decisions"] for row in tables)
    assert points[0].label.startswith("week of ")
