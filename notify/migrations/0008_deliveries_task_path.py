"""The delivery task moved from notify.delivery to notify.services.deliveries: tasks
written before the move (waiting, or to be retried) name the old path, which no longer
imports; they are renamed, so that none is lost."""

from django.db import migrations

OLD = "notify.delivery.deliver"
NEW = "notify.services.deliveries.deliver"


def rename(apps, schema_editor, old=OLD, new=NEW):
    results = apps.get_model("django_tasks_database", "DBTaskResult")
    results.objects.using(schema_editor.connection.alias).filter(task_path=old).update(
        task_path=new
    )


def rename_back(apps, schema_editor):
    rename(apps, schema_editor, old=NEW, new=OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0007_payloads_tagged"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(rename, rename_back)]
