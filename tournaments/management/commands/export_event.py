"""``python manage.py export_event SLUG [--out FILE]``: write an event as one archive file (default ``<slug>.zip``).

The archive (``tournaments.services.archive``) holds ``event.json`` (the event, its divisions, players, every match
with its whole action log, standings and rating list) and a .mat match log per match that the format can hold; another
installation reads it back with ``python manage.py import_event``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services.archive import export_event


class Command(BaseCommand):
    help = "Write an event (divisions, players, matches with their logs, standings, ratings) as one .zip archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG", help="the event's address")
        parser.add_argument("--out", "-o", metavar="FILE", help="where to write the archive (default: SLUG.zip)")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"there is no event with the address {slug!r}")
        path = Path(options["out"] or f"{slug}.zip")
        data = export_event(event)
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from exc
        self.stdout.write(f"wrote {path}: {event.name} ({len(data)} bytes)")
