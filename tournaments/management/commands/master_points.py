"""``python manage.py master_points EVENT_SLUG --system usbgf [--json]``: the master points of an event's players
(contract H).

With ``--json`` it prints one JSON object: the event, the system, the divisions (their field, weight, places paid,
whether they are finished) and ``players``, per player of the event's divisions, ``name``, ``division``, ``place``
(the best place of a shared one, such as 3 for "3-4"; null without a place), ``places`` ("3-4"), ``match_wins``,
``match_win_points``, ``placement_points`` and ``total`` (floats, unrounded). Without it, a table per division.

An unknown event or system exits 2 with one line on stderr.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.selectors.points import SYSTEMS, EventPoints, master_points, points_report


class Command(BaseCommand):
    help = "Print the master points of an event's players (USBGF 2019: match wins and placement)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="EVENT_SLUG", help="the event's address")
        parser.add_argument(
            "--system", default="usbgf", help=f"the points system: {', '.join(SYSTEMS)} (default usbgf)"
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")

    def handle(self, *args: Any, **options: Any) -> None:
        slug, system = options["slug"], options["system"]
        if system not in SYSTEMS:
            raise CommandError(f"unknown points system {system!r}: use {', '.join(SYSTEMS)}", returncode=2)
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"there is no event with the address {slug!r}", returncode=2)
        found = master_points(event, system=system)
        if options["json"]:
            self.stdout.write(json.dumps(points_report(found)))
        else:
            self.stdout.write(as_text(found))


def as_text(found: EventPoints) -> str:
    event = found.event
    lines = [f"{event.name}: master points ({found.system.upper()}), event weight {event.points_weight:g}"]
    for d in found.divisions:
        state = "finished" if d.finished else "not finished: places so far"
        if not d.standings_current:
            state += "; standings being computed"
        lines += [
            "",
            f"{d.name}: {d.players} players, division weight {d.weight:g}, top {d.places_paid} places paid ({state})",
            f"{'Place':>6}  {'Player':<28} {'Wins':>4} {'Wins pts':>9} {'Place pts':>9} {'Total':>8}",
        ]
        for p in d.scored:
            e = p.earned
            place = str(p.place) if p.place else "-"
            lines.append(
                f"{place:>6}  {p.name[:28]:<28} {e.match_wins:>4} {e.match_win_points:>9.2f} "
                f"{e.placement_points:>9.2f} {e.total:>8.2f}"
            )
        if not d.players:
            lines.append("        (nobody entered)")
    return "\n".join(lines)
