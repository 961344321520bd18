# The content types of the moved models follow them from games to play, so that their
# permissions (and the groups and people holding them) and the admin's log of changes to
# them lead to today's models. A content type the other app already has (one made for it by
# an earlier run) is left alone, as Django does when it renames a model.

from django.db import migrations

MODELS = ('playtable', 'playseat', 'playmove')


def move(apps, source: str, target: str) -> None:
    ContentType = apps.get_model('contenttypes', 'ContentType')
    for model in MODELS:
        if ContentType.objects.filter(app_label=target, model=model).exists():
            continue
        ContentType.objects.filter(app_label=source, model=model).update(app_label=target)
    ContentType.objects.clear_cache()


def forwards(apps, schema_editor) -> None:
    move(apps, 'games', 'play')


def backwards(apps, schema_editor) -> None:
    move(apps, 'play', 'games')


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('play', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
