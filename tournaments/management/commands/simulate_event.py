"""``python manage.py simulate_event --format FORMAT --players N [--rounds R] [--knockout K] [--seed S]
[--entry-mode MODE]``

Runs a whole rehearsal event through the services on the configured database and prints one JSON document
(docs/ARCHITECTURE.md contract E; the fields are defined in tournaments/simulation.py and must stay stable).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.errors import ApplicationError
from tournaments.models import FORMATS, KNOCKOUT_SIZES
from tournaments.simulation import simulate_event


class Command(BaseCommand):
    help = "Run a rehearsal event with random but legal results and print its report as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--players", required=True, type=int, help="number of players (at least 1)")
        parser.add_argument("--rounds", type=int, help="Swiss: rounds to play (default: log2 of the field, rounded up)")
        parser.add_argument(
            "--knockout",
            type=int,
            choices=KNOCKOUT_SIZES,
            help="Swiss into a knockout: the top players who go into it (default: the largest the field fills)",
        )
        parser.add_argument("--seed", type=int, default=0, help="random seed of the ratings and results")
        parser.add_argument("--entry-mode", choices=("scoresheet", "moves"), default="scoresheet")
        parser.add_argument("--length", type=int, default=5, help="match length in points (default 5)")
        parser.add_argument(
            "--casual", action="store_true", help="a casual division: no cube, every game worth one point"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 1:
            raise CommandError("--players must be at least 1")
        if options["knockout"] is not None and options["format"] != "swiss-knockout":
            raise CommandError("--knockout is for --format swiss-knockout only")
        if options["rounds"] is not None and options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        try:
            report = simulate_event(
                format=options["format"],
                players=options["players"],
                rounds=options["rounds"],
                knockout=options["knockout"],
                seed=options["seed"],
                casual=options["casual"],
                entry_mode=options["entry_mode"],
                match_length=options["length"],
            )
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(json.dumps(report))
