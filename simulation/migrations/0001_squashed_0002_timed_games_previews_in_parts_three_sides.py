# Squashes 0001 and 0002: the state they end in, one CreateModel per model, in an order where every
# model comes after the ones it points to. A new database applies this one; a database that has
# applied some of them goes on with the replaced files, which stay until every deployment has
# applied 0002_timed_games_previews_in_parts_three_sides. `squashmigrations` keeps the replaced operations nearly one for one (an
# AddField or an AddConstraint for each later change), and each operation renders the related
# models again: applying those took about twice as long, paid by every new test database.
# Checked against the replaced migrations: the same model states (the autodetector finds no
# change), the same schema on SQLite and PostgreSQL (sqlite_master, pg_dump --schema-only), the
# same content types and permissions.

import django.contrib.auth.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('simulation', '0001_initial'), ('simulation', '0002_timed_games_previews_in_parts_three_sides')]

    initial = True

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('tournaments', '0003_stage_third_place'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SimulationUser',
            fields=[
            ],
            options={
                'proxy': True,
                'indexes': [],
                'constraints': [],
            },
            bases=('auth.user',),
            managers=[
                ('objects', django.contrib.auth.models.UserManager()),
            ],
        ),
        migrations.CreateModel(
            name='AutoPlay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('scope', models.CharField(choices=[('match', 'Match'), ('round', 'Round of play'), ('stage', 'Stage'), ('category', 'Rest of the category')], max_length=10)),
                ('round_of_play', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('players', models.JSONField(blank=True, help_text="Match scope: profiles per side overriding the entries'.", null=True)),
                ('seed', models.BigIntegerField(default=1)),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('games_played', models.PositiveIntegerField(default=0)),
                ('games_expected', models.PositiveIntegerField(default=0)),
                ('shots', models.PositiveBigIntegerField(default=0, help_text="Physics shots simulated: the games' shots, and the players' search where the records count it.")),
                ('batches', models.PositiveIntegerField(default=0)),
                ('in_flight', models.JSONField(blank=True, default=list)),
                ('phase', models.CharField(blank=True, max_length=200)),
                ('error', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('category', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.category')),
                ('match', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.match')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('stage', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.stage')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [],
                'constraints': [],
            },
        ),
        migrations.CreateModel(
            name='DryRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('preset', models.CharField(blank=True, max_length=40)),
                ('entries', models.PositiveIntegerField(default=0)),
                ('boards', models.PositiveIntegerField(default=0)),
                ('seed', models.BigIntegerField(default=1)),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('phase', models.CharField(blank=True, max_length=200)),
                ('error', models.TextField(blank=True)),
                ('summary', models.JSONField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('copy', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='dry_run_copy', to='tournaments.tournament')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('run', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='dry_run', to='simulation.autoplay')),
                ('source', models.ForeignKey(blank=True, help_text='The tournament whose players and format are rehearsed, if any.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='dry_runs', to='tournaments.tournament')),
                ('source_category', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.category')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [],
                'constraints': [],
            },
        ),
        migrations.CreateModel(
            name='EntryProfile',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('players', models.JSONField()),
                ('label', models.CharField(blank=True, max_length=100)),
                ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='sim_profile', to='tournaments.entry')),
            ],
            options={
                'indexes': [],
                'constraints': [],
            },
        ),
        migrations.CreateModel(
            name='MatchPreview',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('games', models.PositiveIntegerField(default=200)),
                ('players', models.JSONField(help_text="Profiles per side: {'a': [...], 'b': [...]}")),
                ('seed', models.BigIntegerField(default=1)),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('result', models.JSONField(blank=True, null=True)),
                ('error', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.match')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('parts', models.JSONField(blank=True, default=dict)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [],
                'constraints': [],
            },
        ),
        migrations.CreateModel(
            name='SimulatedGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('record', models.BinaryField(help_text='zlib-compressed JSON game record')),
                ('raw_size', models.PositiveIntegerField(help_text='Size of the JSON record in bytes.')),
                ('seed', models.BigIntegerField()),
                ('shots', models.PositiveIntegerField()),
                ('rounds', models.PositiveSmallIntegerField()),
                ('tied_rounds', models.PositiveSmallIntegerField()),
                ('twenties_a', models.PositiveSmallIntegerField()),
                ('twenties_b', models.PositiveSmallIntegerField()),
                ('players_per_side', models.PositiveSmallIntegerField(default=1)),
                ('open20_attempts_a', models.PositiveIntegerField()),
                ('open20_attempts_b', models.PositiveIntegerField()),
                ('open20_made_a', models.PositiveIntegerField()),
                ('open20_made_b', models.PositiveIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='simulation', to='tournaments.game')),
                ('open20_attempts_c', models.PositiveIntegerField(default=0)),
                ('open20_made_c', models.PositiveIntegerField(default=0)),
                ('rounds_cut_short', models.PositiveSmallIntegerField(default=0)),
                ('sides', models.PositiveSmallIntegerField(default=2)),
                ('twenties_c', models.PositiveSmallIntegerField(default=0)),
            ],
            options={
                'indexes': [],
                'constraints': [],
            },
        ),
    ]
