"""Rounds finished before the coach came are queued for review by a migration: a waiting
review for each finished round of every played table, none twice."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from coach.models import RoundReview
from tests.coach.factories import played_table


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@pytest.mark.django_db(transaction=True)
def test_the_migration_queues_every_finished_round_of_every_played_table(alice):
    two_rounds = played_table(alice, rounds=2)
    one_round = played_table(alice, seed=11)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        migrate([("coach", "0001_initial")])
        # As a database had them before the coach: finished rounds, no review.
        RoundReview.objects.all().delete()
        RoundReview.objects.create(table=one_round, round=0, status="done")  # kept as it is
    finally:
        migrate(latest)
    queued = RoundReview.objects.order_by("table", "round").values_list("table", "round", "status")
    assert list(queued) == [
        (two_rounds.pk, 0, "waiting"),
        (two_rounds.pk, 1, "waiting"),
        (one_round.pk, 0, "done"),
    ]
