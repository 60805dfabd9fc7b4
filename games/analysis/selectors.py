"""The reads of the analysis: a match's analysis as the contract's report, for its page, and a player's PR."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.models import Decision, Match, MatchAnalysis, PlayerAnalysis


def analysis_report(analysis: MatchAnalysis) -> dict[str, Any]:
    """DESIGN.md contract F: ``{"match", "plies", "engine", "players": [player1, player2]}`` (two queries)."""
    rows = list(analysis.players.select_related("player").order_by("side"))
    return {
        "match": analysis.match_id,
        "plies": analysis.plies,
        "engine": analysis.engine,
        "players": [
            {
                "name": row.player.display_name,
                "unforced_moves": row.unforced_moves,
                "chequer_error": row.chequer_error,
                "close_cube_decisions": row.close_cube_decisions,
                "cube_error": row.cube_error,
                "luck": row.luck,
                "pr": row.pr,
            }
            for row in rows
        ],
    }


@dataclass(frozen=True)
class MatchAnalysisView:
    """What a match page shows of its analysis: the state, the reason when there is none, the two players' rows."""

    status: str
    message: str
    players: tuple[PlayerAnalysis, ...] = ()
    plies: int = 0
    engine: str = ""

    @property
    def done(self) -> bool:
        return self.status == MatchAnalysis.Status.DONE


def match_analysis(match: Match) -> MatchAnalysisView | None:
    """The analysis of a match for its page, or None when none was asked for (one or two queries)."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None:
        return None
    if analysis.status == MatchAnalysis.Status.DONE and analysis.match_seq != match.seq:
        return MatchAnalysisView(status=MatchAnalysis.Status.PENDING, message="the analysis is being redone")
    if analysis.status == MatchAnalysis.Status.DONE:
        players = tuple(analysis.players.order_by("side"))
        return MatchAnalysisView(
            status=analysis.status, message="", players=players, plies=analysis.plies, engine=analysis.engine
        )
    messages = {
        MatchAnalysis.Status.PENDING: "analysis by GNU Backgammon is under way",
        MatchAnalysis.Status.FAILED: f"analysis failed: {analysis.error}",
        MatchAnalysis.Status.UNAVAILABLE: f"analysis unavailable: {analysis.error}",
    }
    return MatchAnalysisView(status=analysis.status, message=messages.get(analysis.status, ""))


def marked_decisions(match: Match, game_number: int) -> dict[tuple[str, int], Decision]:
    """A game's decisions that gnubg marked, by (kind, move number) for plays and (kind, turn) for cube actions."""
    analysis = MatchAnalysis.objects.filter(match=match, status=MatchAnalysis.Status.DONE, match_seq=match.seq).first()
    if analysis is None:
        return {}
    rows = analysis.decisions.filter(game_number=game_number).exclude(mark="", cube_mark="")
    return {(row.kind, row.move_number if row.move_number is not None else row.turn): row for row in rows}


def player_pr_history(player_id: int) -> QuerySet[PlayerAnalysis]:
    """A player's analysed matches, newest first, with the match (its log analysed as it stands)."""
    return (
        PlayerAnalysis.objects.filter(player_id=player_id, analysis__status=MatchAnalysis.Status.DONE)
        .select_related("analysis__match__player1", "analysis__match__player2")
        .order_by("-analysis__match__finished_at", "-analysis__match_id")
    )
