# Claim now belongs to the claims app (claims 0001 takes it into its state, table and all):
# games lets go of it in its state only, so the table and its rows stay as they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_round_cut"),
        ("claims", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Claim")],
            database_operations=[],
        ),
    ]
