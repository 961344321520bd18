"""Each table counts the moves it keeps, so that a move is numbered without counting them."""

from django.db import migrations, models
from django.db.models import Max


def count_kept_moves(apps, schema_editor):
    PlayTable = apps.get_model("play", "PlayTable")
    for pk, kept in PlayTable.objects.annotate(kept=Max("moves__number")).values_list("pk", "kept"):
        if kept:
            PlayTable.objects.filter(pk=pk).update(moves_made=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_table_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="playtable",
            name="moves_made",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_kept_moves, migrations.RunPython.noop),
    ]
