# The content type of Claim follows the model to the claims app, so that its permissions (and
# the groups and users holding them) and the admin's log of changes to claims point at it.
# Run after games lets go of Claim (games 0011), so that going back to the games app's
# migrations of before the move (as tests/test_upgrade.py does) takes it back too.

from django.db import migrations


def _move(apps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.filter(app_label=old, model="claim")
    # A database that never had the old one (new) has nothing to move. One that has both (it
    # was migrated back and forth: `migrate` makes the new one afresh on the way back) keeps
    # both as they are rather than lose the permissions and log lines of either.
    if not ContentType.objects.filter(app_label=new, model="claim").exists():
        moved.update(app_label=new)


def forwards(apps, schema_editor):
    _move(apps, "games", "claims")


def backwards(apps, schema_editor):
    _move(apps, "claims", "games")


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0001_initial"),
        ("games", "0011_claim_moves_to_claims"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
