# Squashes 0001 to 0006: the state they end in, one CreateModel per model, in an order where every
# model comes after the ones it points to. A new database applies this one; a database that has
# applied some of them goes on with the replaced files, which stay until every deployment has
# applied 0006_row_validated_by. `squashmigrations` keeps the replaced operations nearly one for one (an
# AddField or an AddConstraint for each later change), and each operation renders the related
# models again: applying those took about twice as long, paid by every new test database.
# Checked against the replaced migrations: the same model states (the autodetector finds no
# change), the same schema on SQLite and PostgreSQL (sqlite_master, pg_dump --schema-only), the
# same content types and permissions.

import django.db.models.deletion
import django.utils.timezone
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('scoring', '0001_initial'), ('scoring', '0002_scorecard_historicalcardrow_cardrow_and_more'), ('scoring', '0003_paper_rows'), ('scoring', '0004_closed_stage_changes'), ('scoring', '0005_shootout_history'), ('scoring', '0006_row_validated_by')]

    initial = True

    dependencies = [
        ('tournaments', '0001_initial'),
        ('tournaments', '0002_tournamentrole'),
        ('tournaments', '0010_round_clock'),
        ('tournaments', '0012_role_history'),
        ('tournaments', '0015_player_claimed_with'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ShootOut',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('order', models.PositiveSmallIntegerField(default=1)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='shootouts', to='tournaments.stage')),
                ('recorded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['stage', 'order'],
                'indexes': [],
                'constraints': [models.UniqueConstraint(fields=('stage', 'order'), name='shootout_unique_order')],
            },
        ),
        migrations.CreateModel(
            name='ShootOutScore',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('twenties', models.PositiveSmallIntegerField()),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.entry')),
                ('shootout', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='scoring.shootout')),
            ],
            options={
                'indexes': [],
                'constraints': [models.UniqueConstraint(fields=('shootout', 'entry'), name='shootout_score_unique'), models.CheckConstraint(condition=models.Q(('twenties__lte', 12)), name='shootout_at_most_12_shots')],
            },
        ),
        migrations.CreateModel(
            name='ScoreCard',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cards', to='tournaments.entry')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cards', to='tournaments.stage')),
            ],
            options={
                'indexes': [],
                'constraints': [models.UniqueConstraint(fields=('stage', 'entry'), name='scorecard_unique_per_stage')],
            },
        ),
        migrations.CreateModel(
            name='HistoricalCardRow',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('status', models.CharField(choices=[('filled', 'Filled'), ('awaiting', 'Entered from paper, awaiting confirmation'), ('validated', 'Validated by the opponent'), ('verified', 'Verified at the scoring table'), ('voided', 'Voided'), ('disputed', 'Disputed')], default='filled', max_length=10)),
                ('rounds', models.JSONField(default=list)),
                ('version', models.PositiveIntegerField(default=1)),
                ('simulated', models.BooleanField(default=False)),
                ('validated_number', models.CharField(blank=True, max_length=20)),
                ('validated_initials', models.CharField(blank=True, max_length=5)),
                ('validated_at', models.DateTimeField(blank=True, null=True)),
                ('referee_initials', models.CharField(blank=True, max_length=5)),
                ('verified_at', models.DateTimeField(blank=True, null=True)),
                ('void_reason', models.CharField(blank=True, max_length=200)),
                ('updated_at', models.DateTimeField(blank=True, editable=False)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('filled_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.game')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('verified_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('card', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.scorecard')),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('confirmed_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('entered_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('validated_how', models.CharField(blank=True, choices=[('phone', "Opponent's phone"), ('paper', 'Paper card'), ('simulated', 'Simulated')], max_length=10)),
                ('validated_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('validated_device', models.CharField(blank=True, max_length=16)),
                ('validated_entry', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry')),
            ],
            options={
                'verbose_name': 'historical card row',
                'verbose_name_plural': 'historical card rows',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
                'indexes': [],
                'constraints': [],
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='CardRow',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('filled', 'Filled'), ('awaiting', 'Entered from paper, awaiting confirmation'), ('validated', 'Validated by the opponent'), ('verified', 'Verified at the scoring table'), ('voided', 'Voided'), ('disputed', 'Disputed')], default='filled', max_length=10)),
                ('rounds', models.JSONField(default=list)),
                ('version', models.PositiveIntegerField(default=1)),
                ('simulated', models.BooleanField(default=False)),
                ('validated_number', models.CharField(blank=True, max_length=20)),
                ('validated_initials', models.CharField(blank=True, max_length=5)),
                ('validated_at', models.DateTimeField(blank=True, null=True)),
                ('referee_initials', models.CharField(blank=True, max_length=5)),
                ('verified_at', models.DateTimeField(blank=True, null=True)),
                ('void_reason', models.CharField(blank=True, max_length=200)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('filled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_rows', to='tournaments.game')),
                ('verified_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rows', to='scoring.scorecard')),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('validated_how', models.CharField(blank=True, choices=[('phone', "Opponent's phone"), ('paper', 'Paper card'), ('simulated', 'Simulated')], max_length=10)),
                ('validated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('validated_device', models.CharField(blank=True, max_length=16)),
                ('validated_entry', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.entry')),
            ],
            options={
                'ordering': ['card', 'game__match__round_of_play', 'game__number'],
                'indexes': [],
                'constraints': [models.UniqueConstraint(fields=('card', 'game'), name='cardrow_unique_game'), models.CheckConstraint(condition=models.Q(models.Q(('status', 'voided'), _negated=True), models.Q(('void_reason', ''), _negated=True), _connector='OR'), name='cardrow_void_has_reason')],
            },
        ),
        migrations.CreateModel(
            name='StageAdvance',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('advanced_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('undone_at', models.DateTimeField(blank=True, null=True)),
                ('into', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.stage')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='advances', to='tournaments.stage')),
                ('undone_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['stage', '-advanced_at', '-id'],
                'indexes': [],
                'constraints': [],
            },
        ),
        migrations.CreateModel(
            name='ClosedStageChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('changed_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('initials', models.CharField(max_length=5)),
                ('reason', models.TextField()),
                ('before', models.JSONField(default=list)),
                ('after', models.JSONField(default=list)),
                ('impact', models.TextField()),
                ('changed_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.game')),
                ('into', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.stage')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='closed_changes', to='tournaments.stage')),
            ],
            options={
                'ordering': ['-changed_at', '-id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='closed_change_has_reason')],
                'indexes': [],
            },
        ),
        migrations.CreateModel(
            name='HistoricalShootOut',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('order', models.PositiveSmallIntegerField(default=1)),
                ('created_at', models.DateTimeField(blank=True, editable=False)),
                ('history_change_reason', models.TextField(null=True)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('recorded_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('stage', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.stage')),
            ],
            options={
                'verbose_name': 'historical shoot out',
                'verbose_name_plural': 'historical shoot outs',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
                'indexes': [],
                'constraints': [],
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalShootOutScore',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('twenties', models.PositiveSmallIntegerField()),
                ('history_change_reason', models.TextField(null=True)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('entry', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('shootout', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.shootout')),
            ],
            options={
                'verbose_name': 'historical shoot out score',
                'verbose_name_plural': 'historical shoot out scores',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
                'indexes': [],
                'constraints': [],
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
    ]
