"""The rounds finished at played tables before the coach came: each queued for review (a
waiting row each; the worker reviews them when nothing else is due)."""

from django.db import migrations

BATCH = 1000


def queue_finished_rounds(apps, schema_editor) -> None:
    PlayTable = apps.get_model("play", "PlayTable")
    Round = apps.get_model("games", "Round")
    RoundReview = apps.get_model("coach", "RoundReview")
    # A played table's match has a round for each of its finished rounds (the table's own
    # rounds, 0-based, in order): games.services.store_played_round.
    tables = PlayTable.objects.filter(match__isnull=False).values_list("pk", "match_id")
    waiting = []
    for table_id, match_id in tables.iterator():
        finished = Round.objects.filter(match_id=match_id).count()
        waiting += [RoundReview(table_id=table_id, round=index) for index in range(finished)]
        if len(waiting) >= BATCH:
            RoundReview.objects.bulk_create(waiting, ignore_conflicts=True)
            waiting = []
    RoundReview.objects.bulk_create(waiting, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("coach", "0001_initial"),
        ("games", "0014_round_confirmation"),
        ("play", "0008_merge_0007_correspondence_0007_seat_watched_at"),
    ]

    operations = [migrations.RunPython(queue_finished_rounds, migrations.RunPython.noop)]
