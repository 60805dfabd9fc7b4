"""``python manage.py season_points [CLUB/SEASON ...]``: rewrite the stored points of every season (or of those
named, such as ``oslo-bk/autumn``) from the counted results, as the follow-up's task does for one event: after a
restore, a manual change to the database, or a broker that was down. Idempotent: running it twice writes the same
rows. Prints one line per season; an unknown season exits 2 with one line on stderr and rewrites nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Season
from tournaments.selectors.seasons import season_contributions
from tournaments.services.seasons import recompute_season_points


class Command(BaseCommand):
    help = "Rewrite the stored points of every season (or of the seasons named CLUB/SEASON) from the results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("seasons", nargs="*", metavar="CLUB/SEASON", help="a season's club and its address")

    def handle(self, *args: Any, **options: Any) -> None:
        seasons = list(Season.objects.select_related("club").order_by("club__slug", "starts_on", "pk"))
        if options["seasons"]:
            named = {f"{s.club.slug}/{s.slug}": s for s in seasons}
            unknown = [n for n in options["seasons"] if n not in named]
            if unknown:
                example = next(iter(named), "oslo-bk/autumn")
                raise CommandError(
                    f"no season {', '.join(unknown)}: name a season as CLUB/SEASON, such as {example}", returncode=2
                )
            seasons = [named[n] for n in options["seasons"]]
        for season in seasons:
            rows = recompute_season_points(season.pk, season_contributions)
            self.stdout.write(f"{season.club.slug}/{season.slug}: {rows} rows")
