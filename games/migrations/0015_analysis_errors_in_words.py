"""Failed analyses stored with the text of an error raised inside GNU Backgammon's Python (anyone reading the match
could see it) now say that it failed in words, as new failures do (games.analysis.engine)."""

from django.db import migrations

#: What a stored error began with -> the words it says now.
IN_WORDS = {
    "GNU Backgammon reported: ": "GNU Backgammon could not analyse this match (its error is in the worker's log)",
    "GNU Backgammon exited before the request was sent: ": "GNU Backgammon exited before the match was sent to it",
    "GNU Backgammon answered what cannot be read: ": "GNU Backgammon answered what cannot be read",
}


def in_words(apps, schema_editor):
    analyses = apps.get_model("games", "MatchAnalysis").objects
    for start, words in IN_WORDS.items():
        analyses.filter(error__startswith=start).update(error=words)


class Migration(migrations.Migration):
    dependencies = [("games", "0014_correction_request_idempotency_key")]

    operations = [migrations.RunPython(in_words, migrations.RunPython.noop)]
