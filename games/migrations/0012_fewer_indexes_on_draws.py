"""The winner's and the creator's indexes of a match leave out the matches without one (a round robin's draw writes
100,000 matches and more, none with either). Only the two indexes change: the foreign keys stay as they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: The indexes Django made for the two fields, with their columns.
FIELD_INDEXES = [("games_match_created_by_id_624697d7", "created_by_id"), ("games_match_winner_id_c6927c51", "winner_id")]


def drop_index(name: str, column: str) -> migrations.RunSQL:
    return migrations.RunSQL(
        f'DROP INDEX IF EXISTS "{name}"', reverse_sql=f'CREATE INDEX "{name}" ON "games_match" ("{column}")'
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_decision_evaluation"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="created_by",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="winner",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="matches_won",
                        to="games.player",
                    ),
                ),
            ],
            database_operations=[drop_index(name, column) for name, column in FIELD_INDEXES],
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(condition=models.Q(("winner__isnull", False)), fields=["winner"], name="match_winner"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("created_by__isnull", False)), fields=["created_by"], name="match_created_by"
            ),
        ),
    ]
