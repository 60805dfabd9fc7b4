"""A pairing's round, division and table have no index of their own: the constraints that begin with their columns
serve every query on them ((round, board), (division, key) and the tables held); the winner's index leaves out
the pairings not decided. A round robin's draw writes 100,000 pairings and more, each paying for every index. Only
the indexes change: the foreign keys stay as they are (Django's own AlterField would drop and re-check each, and
with the table's it would drop the index of the constraint ``pairing_one_match_per_table``)."""

import django.db.models.deletion
from django.db import migrations, models

#: The indexes Django made for the four fields, with their columns.
FIELD_INDEXES = [
    ("tournaments_pairing_division_id_bbaaf7b9", "division_id"),
    ("tournaments_pairing_round_id_03a42bd0", "round_id"),
    ("tournaments_pairing_table_id_3620d77c", "table_id"),
    ("tournaments_pairing_winner_id_84534256", "winner_id"),
]


def drop_index(name: str, column: str) -> migrations.RunSQL:
    return migrations.RunSQL(
        f'DROP INDEX IF EXISTS "{name}"', reverse_sql=f'CREATE INDEX "{name}" ON "tournaments_pairing" ("{column}")'
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_fewer_indexes_on_draws"),
        ("tournaments", "0010_division_swiss_knockout"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="pairing",
                    name="division",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairings",
                        to="tournaments.division",
                    ),
                ),
                migrations.AlterField(
                    model_name="pairing",
                    name="round",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairings",
                        to="tournaments.round",
                    ),
                ),
                migrations.AlterField(
                    model_name="pairing",
                    name="table",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        help_text="the venue's table it plays at (while ready or being played)",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="pairings",
                        to="tournaments.table",
                    ),
                ),
                migrations.AlterField(
                    model_name="pairing",
                    name="winner",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournaments.entry",
                    ),
                ),
            ],
            database_operations=[drop_index(name, column) for name, column in FIELD_INDEXES],
        ),
        migrations.AddIndex(
            model_name="pairing",
            index=models.Index(
                condition=models.Q(("winner__isnull", False)), fields=["winner"], name="pairing_winner"
            ),
        ),
    ]
