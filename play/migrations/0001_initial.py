# The tables played on the site move from games to play (issue 18). Their database tables
# stay as games made them (db_table, index and constraint names): only the migration state
# moves, so nothing is rewritten; games.0011 drops them from games' state.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0010_round_cut'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PlayTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('preset', models.CharField(choices=[('classic', 'Classic'), ('aaow', 'RD AAOW'), ('conventions', 'Table conventions')], max_length=20, verbose_name='rules')),
                        ('options', models.JSONField(verbose_name='options')),
                        ('seat_count', models.PositiveSmallIntegerField(verbose_name='seats')),
                        ('public', models.BooleanField(default=False, verbose_name='anyone may join from the lobby')),
                        ('move_seconds', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seconds per move')),
                        ('invite', models.CharField(max_length=32, unique=True)),
                        ('seed', models.BigIntegerField()),
                        ('status', models.CharField(choices=[('waiting', 'waiting for players'), ('playing', 'playing'), ('finished', 'finished')], default='waiting', max_length=10, verbose_name='status')),
                        ('state', models.JSONField(blank=True, null=True)),
                        ('version', models.PositiveIntegerField(default=1, verbose_name='version')),
                        ('server_moves_at', models.DateTimeField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='play_tables', to=settings.AUTH_USER_MODEL)),
                        ('match', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='play_table', to='games.match')),
                        ('rematch_of', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rematches', to='play.playtable')),
                    ],
                    options={
                        'verbose_name': 'table',
                        'verbose_name_plural': 'tables',
                        'db_table': 'games_playtable',
                        'ordering': ['-updated_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='PlaySeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('bot', models.CharField(blank=True, choices=[('random', 'random'), ('greedy', 'greedy'), ('expert', 'expert')], max_length=10, verbose_name='bot')),
                        ('timeouts', models.PositiveSmallIntegerField(default=0)),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to='games.player')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='play.playtable')),
                    ],
                    options={
                        'db_table': 'games_playseat',
                        'ordering': ['position'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'position'), name='play_seat_unique'), models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('table', 'user'), name='play_seat_user_unique')],
                    },
                ),
                migrations.CreateModel(
                    name='PlayMove',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('round', models.PositiveSmallIntegerField(verbose_name='round')),
                        ('number', models.PositiveIntegerField(verbose_name='move')),
                        ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('move', models.JSONField(verbose_name='move')),
                        ('by', models.CharField(blank=True, max_length=10)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='play.playtable')),
                    ],
                    options={
                        'db_table': 'games_playmove',
                        'ordering': ['number'],
                        'constraints': [models.UniqueConstraint(fields=('table', 'number'), name='play_move_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
