# The tables played on the site moved to the play app (play.0001 takes them into its state
# with their database tables as they are): games lets go of them in its state only, so the
# tables and their rows stay where they are.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_round_cut'),
        ('play', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='PlayMove'),
                migrations.DeleteModel(name='PlaySeat'),
                migrations.DeleteModel(name='PlayTable'),
            ],
            database_operations=[],
        ),
    ]
