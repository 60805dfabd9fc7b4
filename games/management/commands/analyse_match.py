"""``python manage.py analyse_match ID [--plies N] [--json]`` (docs/ARCHITECTURE.md contract F).

Analyses a stored match with GNU Backgammon through the code path of the Celery task (games.analysis.service),
synchronously, and stores the result. ``--json`` prints one JSON object: the match, the plies, gnubg's version
and per player (player1 then player2) the unforced moves, chequer error, close cube decisions, cube error and luck
as gnubg reports them, with pr = 500 x (chequer_error + cube_error) / (unforced_moves + close_cube_decisions).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.analysis.engine import AnalysisFailedError
from games.analysis.selectors import analysis_report
from games.analysis.service import AnalysisRefusedError, analyse_match
from games.models import Match


class Command(BaseCommand):
    help = "Analyse a stored match with GNU Backgammon and store the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int, metavar="ID", help="the match's id")
        parser.add_argument("--plies", type=int, default=None, help="gnubg's evaluation depth (ANALYSIS_PLIES)")
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        match_id, plies = options["match_id"], options["plies"]
        if plies is not None and not 0 <= plies <= 4:
            raise CommandError(f"--plies {plies} is out of range: use 0 to 4 (0 is fast, 2 is gnubg's world class)")
        try:
            analysis = analyse_match(match_id, plies=plies)
        except Match.DoesNotExist:
            raise CommandError(f"there is no match {match_id}") from None
        except (AnalysisRefusedError, AnalysisFailedError) as exc:
            raise CommandError(f"match {match_id} was not analysed: {exc}") from exc
        report = analysis_report(analysis)
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(f"match {match_id}, {report['engine']}, {report['plies']} plies")
        for row in report["players"]:
            self.stdout.write(
                f"  {row['name']}: PR {row['pr']:.2f}, chequer error {row['chequer_error']:.3f} in "
                f"{row['unforced_moves']} unforced moves, cube error {row['cube_error']:.3f} in "
                f"{row['close_cube_decisions']} close cube decisions, luck {row['luck']:+.3f}"
            )
