"""Match.scored_rows (the sheet as last scored) and Match.corrected, filled from the entries
and the corrections already stored."""

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter

from django.db import migrations, models

CHUNK = 500


def scored_rows(seats, entries) -> Iterator[tuple[int, list]]:
    """Each match's sheet read the long way, as (match id, rows): from its entries, a row per
    round and a cell per seat in seat order. `seats` and `entries` are querysets (all of them,
    or one match's); they are read once each, in chunks."""
    order: dict[int, list[int]] = {}
    for match_id, seat_id in (
        seats.order_by("match_id", "position").values_list("match_id", "pk").iterator(CHUNK)
    ):
        order.setdefault(match_id, []).append(seat_id)
    read = (
        entries.order_by("round__match_id", "round__number")
        .values_list(
            "round__match_id",
            "round_id",
            "round__number",
            "seat_id",
            "kind",
            "score",
            "total",
            "event",
        )
        .iterator(CHUNK)
    )
    for match_id, in_match in groupby(read, key=itemgetter(0)):
        positions = order[match_id]
        rows: dict[int, list] = {}
        for _match_id, round_id, number, seat_id, *values in in_match:
            row = rows.setdefault(round_id, [round_id, number, [None] * len(positions)])
            row[2][positions.index(seat_id)] = [seat_id, *values]
        yield match_id, list(rows.values())


def fill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    Entry = apps.get_model("games", "Entry")
    Correction = apps.get_model("games", "Correction")
    Match.objects.filter(pk__in=Correction.objects.values("match_id")).update(corrected=True)
    batch = []
    for match_id, rows in scored_rows(Seat.objects.all(), Entry.objects.all()):
        batch.append(Match(pk=match_id, scored_rows=rows))
        if len(batch) == CHUNK:
            Match.objects.bulk_update(batch, ["scored_rows"])
            batch = []
    Match.objects.bulk_update(batch, ["scored_rows"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_name_key_ordering"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="corrected",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name="match",
            name="scored_rows",
            field=models.JSONField(default=list, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
