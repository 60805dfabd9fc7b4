"""How the analysis hears of matches: a finished match is analysed (settings permitting), a correction to a
result redoes the analysis of a match that had one, and where GAME_ANALYSIS_CHECKS say so each game is analysed as
it ends. Connected in GamesConfig.ready."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import DatabaseError

from games.analysis.service import GNUBG_VARIANTS, AnalysisRefusedError, request_analysis, should_analyse
from games.hooks import GAME_ANALYSIS_CHECKS
from games.models import Match, MatchAnalysis

log = logging.getLogger(__name__)


def on_match_changed(sender: Any, match_id: int, imported: bool = False, attached: bool = True, **kwargs: Any) -> None:
    """A match finished or had its result corrected: (re)analyse it if it is analysed automatically or already was.

    A match just imported from a log has no analysis to redo; one imported into nothing (``attached`` false: no
    event, so no IMPORT_ANALYSIS_CHECKS to ask) is analysed only when settings.ANALYSIS_IMPORTED says every import
    is, and costs no query otherwise."""
    if imported and not attached and not settings.ANALYSIS_IMPORTED:
        return
    try:
        match = Match.objects.get(pk=match_id)
        if should_analyse(match, imported=imported) or (not imported and _has_analysis(match_id)):
            request_analysis(match_id)
    except AnalysisRefusedError as exc:  # a match finished before any play (a forfeit): nothing to analyse
        log.info("match %s is not analysed: %s", match_id, exc)
    except DatabaseError:
        log.exception("could not request the analysis of match %s", match_id)


def _has_analysis(match_id: int) -> bool:
    return MatchAnalysis.objects.filter(match_id=match_id).exists()


def on_game_finished(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A game ended in a match that goes on: analyse the match so far if its games are analysed one by one."""
    try:
        match = Match.objects.get(pk=match_id)
        if match.entry_mode != Match.EntryMode.MOVES or match.variant not in GNUBG_VARIANTS:
            return
        if any(check(match) for check in GAME_ANALYSIS_CHECKS):
            request_analysis(match_id)
    except AnalysisRefusedError as exc:  # a game resigned before any play
        log.info("match %s is not analysed yet: %s", match_id, exc)
    except DatabaseError:
        log.exception("could not request the analysis of match %s", match_id)
