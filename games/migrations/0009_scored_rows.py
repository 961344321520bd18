"""Match.scored_rows (the sheet as last scored) and Match.corrected, filled from the entries
and the corrections already stored."""

from django.db import migrations, models


def rows_from_entries(Seat, Entry, match) -> list:
    """The sheet read the long way: every entry of every round, a cell per seat in seat order."""
    seats = list(Seat.objects.filter(match=match).order_by("position").values_list("pk", flat=True))
    rows: dict[int, list] = {}
    entries = (
        Entry.objects.filter(round__match=match)
        .order_by("round__number")
        .values_list("round_id", "round__number", "seat_id", "kind", "score", "total", "event")
    )
    for round_id, number, seat_id, *values in entries:
        row = rows.setdefault(round_id, [round_id, number, [None] * len(seats)])
        row[2][seats.index(seat_id)] = [seat_id, *values]
    return list(rows.values())


def fill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    Entry = apps.get_model("games", "Entry")
    Correction = apps.get_model("games", "Correction")
    Match.objects.filter(pk__in=Correction.objects.values("match_id")).update(corrected=True)
    for match in Match.objects.filter(rounds__isnull=False).distinct().only("pk").iterator():
        rows = rows_from_entries(Seat, Entry, match)
        Match.objects.filter(pk=match.pk).update(scored_rows=rows)


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
