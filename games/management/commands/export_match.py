"""``python manage.py export_match ID [--format mat|sgf] [--output FILE]`` (docs/ARCHITECTURE.md contract C).

Writes the match's log in force as a .mat match log in GNU Backgammon's layout (``games.export.match_mat``): a
file that ``python -m engine check`` accepts and GNU Backgammon imports; with ``--format sgf`` as GNU Backgammon's
SGF, with gnubg's analysis of the match when it has one (``games.export.match_sgf``). Standard output unless
``--output``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import EngineError
from games.export import EXPORTS, match_file
from games.models import Match


class Command(BaseCommand):
    help = "Write a stored match as a .mat match log (GNU Backgammon's layout) or as GNU Backgammon's SGF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int, metavar="ID", help="the match's id")
        parser.add_argument("--format", default="mat", help="the file format: mat (default) or sgf (with the analysis)")
        parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        file_format = options["format"]
        if file_format not in EXPORTS:
            raise CommandError(f"--format is mat or sgf, not {file_format!r}")
        match_id = options["match_id"]
        match = Match.objects.select_related("player1", "player2").filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"there is no match {match_id}")
        try:
            text = match_file(match, file_format)
        except EngineError as exc:
            raise CommandError(f"match {match_id} cannot be written as .{file_format}: {exc}") from exc
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {options['output']}: {exc.strerror or exc}") from exc
        else:
            self.stdout.write(text, ending="")
