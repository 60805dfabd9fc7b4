"""``python manage.py import_event FILE [--slug NEW] [--director USERNAME]``: read an event archive made by
``export_event`` (on this installation or another) as a new event.

Everything is created anew (players too: never merged with players of the same name), every match's log is
replayed through the engine and must give the result the file says, and nothing is stored if anything is wrong.
``--director`` names the user who directs the imported event (directors do not travel between installations);
without it, only staff can direct it until a director is added. An address already in use needs ``--slug``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError
from games.models import Match
from tournaments.services.archive import import_event


class Command(BaseCommand):
    help = "Import an event archive (made by export_event) as a new event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the .zip archive")
        parser.add_argument("--slug", metavar="NEW", help="the new event's address (default: the file's)")
        parser.add_argument("--director", metavar="USERNAME", help="the user who directs the imported event")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        actor = SYSTEM
        if options["director"] is not None:
            user = get_user_model().objects.filter(username=options["director"]).first()
            if user is None:
                raise CommandError(f"there is no user {options['director']!r}")
            actor = Actor(user=user)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
        try:
            event = import_event(data, slug=options["slug"], actor=actor)
        except ApplicationError as exc:
            raise CommandError(f"{path} was not imported: {exc.message}") from exc
        matches = Match.objects.filter(pairing__division__event=event).count()
        director = options["director"] or "none yet (staff direct it)"
        self.stdout.write(
            f"imported {path}: event {event.slug!r} ({event.name}), {event.divisions.count()} divisions, "
            f"{matches} matches; director: {director}"
        )
