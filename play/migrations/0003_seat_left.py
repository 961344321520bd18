# A person may resign and leave a table in play (issue 19): the stand-in plays their seat to
# the match's end. The seat keeps who sat there; `left_at` says since when it plays itself.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0002_content_types'),
    ]

    operations = [
        migrations.AddField(
            model_name='playseat',
            name='left_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='left at'),
        ),
    ]
