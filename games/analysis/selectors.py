"""The reads of the analysis: a match's analysis as the contract's report, for its page, and a player's PR."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, QuerySet, Sum

from engine.errors import EngineError
from games.engine_bridge import load_state
from games.models import Action, Decision, Match, MatchAnalysis, PlayerAnalysis


def analysis_report(analysis: MatchAnalysis) -> dict[str, Any]:
    """docs/ARCHITECTURE.md contract F: ``{"match", "plies", "engine", "players": [player1, player2]}`` (two
    queries)."""
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


#: gnubg's names of its depths, where it has one (its "world class" player evaluates at 2 plies).
DEPTH_NAMES = {2: "world class"}


def depth_label(plies: int) -> str:
    """The depth of an analysis as the pages say it: "0-ply", "2-ply (world class)", "3-ply"."""
    name = DEPTH_NAMES.get(plies)
    return f"{plies}-ply ({name})" if name else f"{plies}-ply"


#: The variants gnubg plays, by our name; the others get "analysis is not available for this variant".
GNUBG_VARIANTS = {"standard", "nackgammon"}


def unanalysable_reason(match: Match) -> str:
    """Why gnubg cannot analyse ``match`` (a variant it does not play, a scoresheet match), or "" when it can."""
    if match.variant not in GNUBG_VARIANTS:
        return f"Analysis is not available for the {match.get_variant_display()} variant"
    if match.entry_mode != Match.EntryMode.MOVES:
        return "Analysis is not available: only the game results of this match were recorded"
    return ""


def nothing_to_analyse(match: Match) -> str:
    """Why an analysable match cannot be analysed yet (no play of its log is in force: gnubg has nothing to
    analyse), or "" when it can. No query when the match's cached state shows a play (:func:`shows_a_play`), one
    otherwise."""
    if shows_a_play(match):
        return ""
    undone = Action.objects.filter(match=match, kind=Action.Kind.CORRECTION).values("undoes_id")
    if Action.objects.filter(match=match, kind=Action.Kind.PLAY).exclude(pk__in=undone).exists():
        return ""
    return (
        f"there is nothing to analyse yet: no play of match {match.pk} has been entered; ask again once the "
        "players have moved"
    )


def shows_a_play(match: Match) -> bool:
    """Whether ``match``'s cached state (the replay of its log in force) shows a play: one in the game it is at, or
    an earlier game borne off. False says nothing (an earlier game may have been resigned or dropped after plays)."""
    if not match.state:
        return False
    try:
        state = load_state(match)
    except EngineError:  # a snapshot of an older version: the log says
        return False
    return state.game.moves_played > 0 or any(outcome.ended_by == "bear-off" for outcome in state.outcomes)


#: What a match page says of an analysis done in an older format, until it is redone.
OUT_OF_DATE = "analysis out of date, being redone"


def is_up_to_date(analysis: MatchAnalysis, match: Match) -> bool:
    """Whether ``analysis`` is done, of ``match``'s log as it stands, in the current format."""
    return (
        analysis.status == MatchAnalysis.Status.DONE
        and analysis.match_seq == match.seq
        and analysis.format_version == MatchAnalysis.FORMAT_VERSION
    )


def out_of_date_analyses(*, limit: int | None = None) -> list[tuple[int, int]]:
    """(match id, plies) of the analyses done in an older format, oldest first, at most ``limit`` (one query)."""
    rows = (
        MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE, format_version__lt=MatchAnalysis.FORMAT_VERSION)
        .order_by("finished_at", "id")
        .values_list("match_id", "plies")
    )
    return list(rows if limit is None else rows[:limit])


def pending_requests() -> list[tuple[int, int]]:
    """(match id, plies asked) of the analyses asked for and not done yet, oldest request first (one query)."""
    rows = (
        MatchAnalysis.objects.filter(status=MatchAnalysis.Status.PENDING, requested_plies__isnull=False)
        .order_by("requested_at", "id")
        .values_list("match_id", "requested_plies")
    )
    return [(match_id, plies) for match_id, plies in rows if plies is not None]


def match_analysis(match: Match, analysis: MatchAnalysis | None) -> MatchAnalysisView | None:
    """The analysis ``analysis`` of ``match`` for its page; for a match gnubg cannot analyse, the reason; None
    when none was asked for (a query when done)."""
    if analysis is None:
        reason = unanalysable_reason(match)
        return MatchAnalysisView(status=MatchAnalysis.Status.UNAVAILABLE, message=reason) if reason else None
    if analysis.status == MatchAnalysis.Status.DONE and analysis.match_seq != match.seq:
        return MatchAnalysisView(status=MatchAnalysis.Status.PENDING, message="the analysis is being redone")
    if analysis.status == MatchAnalysis.Status.DONE and analysis.format_version != MatchAnalysis.FORMAT_VERSION:
        return MatchAnalysisView(status=MatchAnalysis.Status.PENDING, message=OUT_OF_DATE)
    if analysis.status == MatchAnalysis.Status.DONE:
        players = tuple(analysis.players.select_related("player").order_by("side"))
        return MatchAnalysisView(
            status=analysis.status, message="", players=players, plies=analysis.plies, engine=analysis.engine
        )
    messages: dict[str, str] = {
        MatchAnalysis.Status.PENDING: "analysis by GNU Backgammon is under way",
        MatchAnalysis.Status.FAILED: f"analysis failed: {analysis.error}",
        MatchAnalysis.Status.UNAVAILABLE: f"analysis unavailable: {analysis.error}",
    }
    return MatchAnalysisView(status=analysis.status, message=messages.get(analysis.status, ""))


@dataclass(frozen=True)
class LoggedDecision:
    """A line of the move list as the analysis pairs it with gnubg's records: its seq, game, side, dice (for a
    play) or cube action (``double``, ``take``, ``drop``)."""

    seq: int
    game: int
    side: int | None
    kind: str
    dice: tuple[int, int] | None = None


def match_analysis_of(match: Match) -> MatchAnalysisView | None:
    """:func:`match_analysis` of a match read on its own (one query, two when done)."""
    return match_analysis(match, MatchAnalysis.objects.filter(match=match).first())


def entry_decisions(match: Match, lines: list[LoggedDecision]) -> dict[int, Decision]:
    """The decisions gnubg marked, by the seq of the move-list line they are (one query).

    gnubg's records and the log are walked side by side per game: the n-th play of a game is gnubg's n-th move
    record, and the n-th cube action its n-th cube record; a pair whose side (or dice) differ is left unmarked.
    """
    rows = Decision.objects.filter(
        analysis__match=match,
        analysis__match_seq=match.seq,
        analysis__format_version=MatchAnalysis.FORMAT_VERSION,
        game_number__in={line.game for line in lines},
    ).order_by("game_number", "turn")  # the games of the lines only: a page shows a game at a time
    gnubg: dict[tuple[int, str], list[Decision]] = {}
    for row in rows:
        gnubg.setdefault((row.game_number, "move" if row.kind == Decision.Kind.MOVE else "cube"), []).append(row)
    seen: dict[tuple[int, str], int] = {}
    marks: dict[int, Decision] = {}
    for line in lines:
        group = (line.game, "move" if line.kind == Decision.Kind.MOVE else "cube")
        n = seen.get(group, 0)
        seen[group] = n + 1
        found = gnubg.get(group, [])
        if n >= len(found):
            continue
        row = found[n]
        same_dice = line.dice is None or sorted(line.dice) == sorted((row.die1 or 0, row.die2 or 0))
        if row.side == line.side and same_dice and (row.mark or row.cube_mark):
            marks[line.seq] = row
    return marks


def counted_analyses() -> QuerySet[PlayerAnalysis]:
    """The players' figures that count towards a PR: of finished matches (a match still under way, analysed on a
    director's request or game by game, is not a whole match), analysed as their log stands, in the current
    format (an out-of-date analysis counts once it is redone)."""
    return PlayerAnalysis.objects.filter(
        analysis__status=MatchAnalysis.Status.DONE,
        analysis__match_seq=F("analysis__match__seq"),
        analysis__format_version=MatchAnalysis.FORMAT_VERSION,
        analysis__match__status=Match.Status.FINISHED,
    )


def out_of_date_of_player(player_id: int) -> QuerySet[PlayerAnalysis]:
    """A player's figures in analyses done in an older format (MatchAnalysis.FORMAT_VERSION), waiting to be redone:
    they count nowhere until they are."""
    return PlayerAnalysis.objects.filter(
        player_id=player_id,
        analysis__status=MatchAnalysis.Status.DONE,
        analysis__format_version__lt=MatchAnalysis.FORMAT_VERSION,
    )


def player_pr_history(player_id: int) -> QuerySet[PlayerAnalysis]:
    """A player's analysed finished matches, newest first, with the match (its log analysed as it stands)."""
    return (
        counted_analyses()
        .filter(player_id=player_id)
        .select_related("analysis__match__player1", "analysis__match__player2")
        .order_by("-analysis__match__finished_at", "-analysis__match_id")
    )


@dataclass(frozen=True)
class OverallPr:
    plies: int
    matches: int
    decisions: int
    pr: float


def overall_pr(rows: QuerySet[PlayerAnalysis]) -> list[OverallPr]:
    """The PR over the given rows at each depth they were analysed at, shallowest first: 500 x their total error /
    their total decisions (one query). Figures of different depths do not compare, so they are not added up."""
    totals = (
        rows.order_by()
        .values("analysis__plies")
        .annotate(
            matches=Count("id"),
            decision_count=Sum(F("unforced_moves") + F("close_cube_decisions")),
            error=Sum(F("chequer_error") + F("cube_error")),
        )
        .order_by("analysis__plies")
    )
    found = []
    for t in totals:
        decisions, error = t["decision_count"] or 0, t["error"] or 0.0
        pr = 500.0 * error / decisions if decisions else 0.0
        found.append(OverallPr(t["analysis__plies"], t["matches"], decisions, pr))
    return found


def match_summary(match: Match, side: int) -> str:
    """A match from one side: "7-point match, won 7-4", "5-point match, lost 2-5" (his score first)."""
    length = "money game" if match.length == 0 else f"{match.length}-point match"
    own, other = (match.score1, match.score2) if side == 0 else (match.score2, match.score1)
    if match.winner_id is None:
        return f"{length}, {own}-{other}"
    won = match.winner_id == match.player(side).pk
    return f"{length}, {'won' if won else 'lost'} {own}-{other}"


#: The matches the PR chart of a player's page draws at most (his latest), and its size in SVG units.
CHART_MATCHES = 100
CHART_WIDTH, CHART_HEIGHT = 300, 100


@dataclass(frozen=True)
class PrPoint:
    """One match on the PR chart: when it finished, against whom, its PR, and where it is drawn (SVG units)."""

    when: dt.date | None
    opponent: str
    pr: float
    x: float
    y: float


@dataclass(frozen=True)
class PrChart:
    """A player's PR match by match, oldest first, drawn from 0 (bottom) to ``top`` (the top line)."""

    points: list[PrPoint]
    top: int

    @property
    def middle(self) -> str:
        """The value of the dashed line halfway up ("7.5" for a top of 15, "10" for 20)."""
        return f"{self.top / 2:g}"

    @property
    def lowest(self) -> float:
        return min(p.pr for p in self.points)

    @property
    def highest(self) -> float:
        return max(p.pr for p in self.points)

    @property
    def latest(self) -> PrPoint:
        return self.points[-1]

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def pr_chart(history: QuerySet[PlayerAnalysis]) -> PrChart | None:
    """The chart of :func:`player_pr_history`'s latest CHART_MATCHES matches (one query), or None with fewer than
    two: the top line is the first multiple of 5 above the highest PR (at least 10), so no point sits on it."""
    rows = list(history[:CHART_MATCHES])[::-1]
    if len(rows) < 2:
        return None
    top = max(10, 5 * (math.floor(max(row.pr for row in rows) / 5) + 1))
    step = CHART_WIDTH / (len(rows) - 1)
    points = []
    for n, row in enumerate(rows):
        match = row.analysis.match
        finished = match.finished_at.date() if match.finished_at else None
        opponent = match.player(1 - row.side).display_name
        y = CHART_HEIGHT - min(row.pr, top) / top * CHART_HEIGHT
        points.append(PrPoint(finished, opponent, row.pr, round(n * step, 1), round(y, 1)))
    return PrChart(points, top)
