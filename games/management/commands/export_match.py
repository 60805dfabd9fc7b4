"""``python manage.py export_match ID --format mat [--output FILE]`` (DESIGN.md contract C).

Writes the match's log in force as a .mat match log in GNU Backgammon's layout (``games.export.match_mat``): a
file that ``python -m engine check`` accepts and GNU Backgammon imports. Standard output unless ``--output``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import EngineError
from games.export import match_mat
from games.models import Match

FORMATS = ("mat",)


class Command(BaseCommand):
    help = "Write a stored match as a .mat match log (GNU Backgammon's layout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int, metavar="ID", help="the match's id")
        parser.add_argument("--format", default="mat", help="the file format (only mat)")
        parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["format"] not in FORMATS:
            raise CommandError("only --format mat is supported")
        match_id = options["match_id"]
        match = Match.objects.select_related("player1", "player2").filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"there is no match {match_id}")
        try:
            text = match_mat(match)
        except EngineError as exc:
            raise CommandError(f"match {match_id} cannot be written as .mat: {exc}") from exc
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {options['output']}: {exc.strerror or exc}") from exc
        else:
            self.stdout.write(text, ending="")
