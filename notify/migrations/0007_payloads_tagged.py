"""Every notification's payload names its class in the catalogue (notify.kinds: `what`), as
those of the kinds that had several already did."""

from django.db import migrations

UNTAGGED = {"your_move": "move", "to_confirm": "confirm", "test": "test"}


def tag(apps, schema_editor):
    Notification = apps.get_model("notify", "Notification")
    for notification in Notification.objects.filter(kind__in=UNTAGGED):
        if "what" not in notification.payload:
            notification.payload = {**notification.payload, "what": UNTAGGED[notification.kind]}
            notification.save(update_fields=["payload"])


class Migration(migrations.Migration):
    dependencies = [("notify", "0006_telegram_app")]

    operations = [migrations.RunPython(tag, migrations.RunPython.noop)]
