import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_division_casual"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="pairing", name="pairing_table_unique_per_round"),
        migrations.RenameField(model_name="pairing", old_name="table", new_name="board"),
        migrations.AlterField(
            model_name="pairing",
            name="board",
            field=models.PositiveSmallIntegerField(help_text="its number within the round, from 1"),
        ),
        migrations.AlterModelOptions(name="pairing", options={"ordering": ["round", "board"]}),
        migrations.AddConstraint(
            model_name="pairing",
            constraint=models.UniqueConstraint(fields=("round", "board"), name="pairing_board_unique_per_round"),
        ),
        migrations.AddField(
            model_name="event",
            name="tables_given",
            field=models.BooleanField(
                default=False, help_text="the director gave the venue's tables; otherwise there are as many as needed"
            ),
        ),
        migrations.CreateModel(
            name="Table",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "name",
                    models.CharField(
                        blank=True, help_text='shown instead of "Table N", e.g. "Feature table"', max_length=60
                    ),
                ),
                (
                    "held",
                    models.BooleanField(default=False, help_text="held back: a match is sent to it by hand only"),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="tables", to="tournaments.event"
                    ),
                ),
            ],
            options={
                "ordering": ["event", "number"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "number"), name="table_number_unique_per_event"),
                    models.CheckConstraint(condition=models.Q(("number__gte", 1)), name="table_number_from_1"),
                ],
            },
        ),
        migrations.AddField(
            model_name="pairing",
            name="table",
            field=models.ForeignKey(
                blank=True,
                help_text="the venue's table it plays at (while ready or being played)",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="pairings",
                to="tournaments.table",
            ),
        ),
        migrations.AddField(
            model_name="pairing",
            name="called_at",
            field=models.DateTimeField(blank=True, help_text="when its players were called to its table", null=True),
        ),
        migrations.AddConstraint(
            model_name="pairing",
            constraint=models.UniqueConstraint(
                condition=models.Q(("table__isnull", False)), fields=("table",), name="pairing_one_match_per_table"
            ),
        ),
    ]
