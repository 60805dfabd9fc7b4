"""``python manage.py requeue_analyses [--limit N]``: redo the analyses done in an older format.

An analysis stored before the way its figures are computed changed (games.models.MatchAnalysis.FORMAT_VERSION)
is out of date: it counts towards no PR and its match page says it is being redone. This asks for each again, at
the depth it was done at, on the ``analysis`` queue (Celery beat does the same, 100 every five minutes).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.analysis.service import requeue_out_of_date


class Command(BaseCommand):
    help = "Ask again for every analysis done in an older format (it is redone on the analysis queue)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="at most this many (the oldest first)")

    def handle(self, *args: Any, **options: Any) -> None:
        limit = options["limit"]
        if limit is not None and limit < 1:
            raise CommandError(f"--limit {limit} is not a number of analyses: give 1 or more, or leave it out")
        requeued = requeue_out_of_date(limit=limit)
        shown = ", ".join(f"#{match_id}" for match_id in requeued)
        self.stdout.write(
            f"{len(requeued)} out-of-date analys{'is' if len(requeued) == 1 else 'es'} asked for again"
            + (f": matches {shown}" if requeued else "")
        )
