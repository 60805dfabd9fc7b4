"""How the analysis hears of matches: a finished match is analysed (settings permitting), a correction to a
result redoes the analysis of a match that had one, and where GAME_ANALYSIS_CHECKS say so each game is analysed as
it ends. Plugged in by GamesConfig.ready: the first two as a result writer (games.hooks.RESULT_WRITERS), in the
transaction that changed the result, so that the request that ends a match writes nothing after its commit; an
imported match through its signal."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction

from games.analysis.selectors import unanalysable_reason
from games.analysis.service import (
    GNUBG_VARIANTS,
    AnalysisRefusedError,
    request_analysis,
    request_locked_analysis,
    should_analyse,
)
from games.hooks import GAME_ANALYSIS_CHECKS
from games.models import Match, MatchAnalysis

log = logging.getLogger(__name__)


def request_with_result(match: Match) -> None:
    """A match finished or had its result corrected (``games.hooks.RESULT_WRITERS``, in that write's transaction, the
    match row locked and written): (re)analyse it if it is analysed automatically or already was. The request is a
    row of the match's own (``MatchAnalysis``, after the match in the lock order) committed with the result, written
    on the match in hand in one upsert (:func:`request_locked_analysis`), and the job is enqueued after the commit;
    in a savepoint, so that a failure here leaves the result recorded. A match gnubg cannot analyse (a scoresheet
    match, a variant it does not play) costs no statement."""
    if unanalysable_reason(match):
        return
    if not (should_analyse(match) or _has_analysis(match.pk)):
        return
    try:
        with transaction.atomic():
            request_locked_analysis(match)
    except AnalysisRefusedError as exc:  # a match finished before any play (a forfeit): nothing to analyse
        log.info("match %s is not analysed: %s", match.pk, exc)
    except DatabaseError:
        log.exception("could not request the analysis of match %s", match.pk)


def on_match_imported(sender: Any, match_id: int, imported: bool = False, attached: bool = True, **kwargs: Any) -> None:
    """A match imported from a log is analysed as settings.ANALYSIS_IMPORTED or its event says; one imported into
    nothing (``attached`` false: no event, so no IMPORT_ANALYSIS_CHECKS to ask) costs no query unless
    ANALYSIS_IMPORTED is on. Any other finished match was asked for in its own transaction
    (:func:`request_with_result`)."""
    if not imported or (not attached and not settings.ANALYSIS_IMPORTED):
        return
    try:
        match = Match.objects.get(pk=match_id)
        if should_analyse(match, imported=True):
            request_analysis(match_id)
    except AnalysisRefusedError as exc:
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
