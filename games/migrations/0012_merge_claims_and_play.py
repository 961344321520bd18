# Claims and live play left games in two migrations made side by side; this joins them.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_claim_moves_to_claims"),
        ("games", "0011_play_models_move_to_play"),
    ]

    operations = []
