"""Stored analyses with made-up figures, for the tests of what the pages and the API make of them (no gnubg)."""

from __future__ import annotations

from typing import Any

from games.models import Match, MatchAnalysis, PlayerAnalysis
from tournaments import services
from tournaments.models import Division, Pairing


def store_analysis(
    match: Match,
    *,
    plies: int = 0,
    format_version: int = MatchAnalysis.FORMAT_VERSION,
    errors: tuple[float, float] = (0.5, 0.5),
) -> MatchAnalysis:
    """A done analysis of ``match`` as its log stands: each player 90 unforced moves and 10 close cube decisions,
    his chequer error from ``errors``, no cube error, no luck (so his PR is 5 x his error)."""
    analysis = MatchAnalysis.objects.create(
        match=match,
        status=MatchAnalysis.Status.DONE,
        plies=plies,
        engine="GNU Backgammon 1.0",
        match_seq=match.seq,
        format_version=format_version,
    )
    for side, error in enumerate(errors):
        PlayerAnalysis.objects.create(
            analysis=analysis,
            side=side,
            player=match.player(side),
            unforced_moves=90,
            chequer_error=error,
            close_cube_decisions=10,
            cube_error=0.0,
            luck=0.0,
            pr=5 * error,
        )
    return analysis


def played_division(division_of: Any, as_director: Any, drive: Any, settings: Any) -> tuple[Division, list[Match]]:
    """A 4-player Swiss division of 1-point matches, its first round played out (two finished matches)."""
    settings.ANALYSIS_MIN_DECISIONS = 1
    division = division_of("swiss", 4, match_length=1, rounds_planned=1)
    services.start_division(division, actor=as_director)
    matches = [p.match for p in Pairing.objects.filter(division=division, match__isnull=False).order_by("id")]
    for seed, match in enumerate(matches):
        driver = drive(match, seed=seed)
        while not driver.is_over:
            driver.play_out()
    return division, [Match.objects.get(pk=m.pk) for m in matches]
