# The Claim model moves here from the games app with its table, games_claim, as it is: only
# Django's idea of which app holds it changes (games 0011 drops it from games' state), so
# nothing is written to the database.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0010_round_cut"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Claim",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=[("claim", "claim"), ("link", "link")], max_length=8, verbose_name="kind")),
                        ("guest_number", models.PositiveIntegerField(verbose_name="guest's id")),
                        ("guest_name", models.CharField(max_length=40, verbose_name="guest's name")),
                        ("status", models.CharField(choices=[("pending", "waiting"), ("approved", "approved"), ("refused", "refused"), ("withdrawn", "withdrawn")], default="pending", max_length=10, verbose_name="status")),
                        ("asked_at", models.DateTimeField(auto_now_add=True)),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        ("seats_moved", models.PositiveIntegerField(blank=True, null=True)),
                        ("asked_by", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("decided_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("guest", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="claims", to="games.player")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="player_claims", to=settings.AUTH_USER_MODEL, verbose_name="account")),
                    ],
                    options={
                        "verbose_name": "claim",
                        "verbose_name_plural": "claims",
                        "db_table": "games_claim",
                        "ordering": ["-asked_at", "-pk"],
                        "constraints": [models.UniqueConstraint(condition=models.Q(("status", "pending")), fields=("guest", "user"), name="claim_pending_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
