"""``python manage.py load_demo``: create the demo event (idempotent). ``make run`` calls it.

With ``--login`` (refused unless DEBUG is on) it also makes a local director account ``demo`` / ``demo`` that
directs the demo event, so a first visitor can try the directors' pages.

Its finished matches are analysed by GNU Backgammon when it is installed (ANALYSIS_AUTO); the command says how
many, or how to get gnubg when it is missing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.actor import SYSTEM
from games.analysis.engine import availability
from games.models import MatchAnalysis
from tournaments.demo import load_demo
from tournaments.services import add_director


class Command(BaseCommand):
    help = "Load the demo event built from real match logs (does nothing if it is already there)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--login", action="store_true", help="also create the local director account demo/demo")

    def handle(self, *args: Any, **options: Any) -> None:
        director = None
        if options["login"]:
            if not settings.DEBUG:
                raise CommandError("--login makes a well-known password: only with DEBUG on (a local first look)")
            director, _ = get_user_model().objects.get_or_create(username="demo")
            director.set_password("demo")
            director.save()
        event = load_demo(director=director)
        if director is not None:
            add_director(event, actor=SYSTEM, user=director)
        self.stdout.write(f"demo event: /events/{event.slug}/" + (" (director login: demo / demo)" if director else ""))
        self.stdout.write(self._analysis_note(event.pk))

    def _analysis_note(self, event_id: int) -> str:
        available, detail = availability()
        if not available:
            return (
                f"analysis: unavailable ({detail}). Install GNU Backgammon (Debian/Ubuntu: sudo apt-get install gnubg) "
                "or set GNUBG_PATH, then run `python manage.py analyse_match ID` for a match, or load the demo afresh"
            )
        done = MatchAnalysis.objects.filter(
            match__pairing__division__event_id=event_id, status=MatchAnalysis.Status.DONE
        ).count()
        return f"analysis: {done} matches analysed by {detail} (PR and luck on the match pages, PR tables per division)"
