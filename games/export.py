"""A stored match turned back into what the engine and the .mat and SGF writers speak.

:func:`games_in_force` reads the log rows in force (a row undone by a correction drops out, a replaced result
is replaced) and groups their engine actions by game; :func:`match_mat` writes them as a .mat match log in
GNU Backgammon's layout (docs/ARCHITECTURE.md contract C: the file passes ``python -m engine check`` and imports into
gnubg); :func:`match_sgf` as GNU Backgammon's SGF, with gnubg's analysis of the match when it has one of the log
in force (a .mat log has no place for an analysis). Nothing here writes to the database.

What a .mat log cannot say is left out of it: a rejected resignation (no .mat writer keeps one), and at the end
of a match in progress the dice rolled but not yet played, and a resignation not yet answered. The file then
holds the match up to its last complete turn.
"""

from __future__ import annotations

from django.utils import timezone

from engine.actions import Action as EngineAction
from engine.actions import PenaltyPoints, RejectResignation, Resign
from engine.errors import EngineError
from engine.formats.matlog import write_match
from engine.formats.sgf import AnalysisKey, Candidate, CubeEvaluation, DecisionAnalysis, write_sgf
from engine.game import Phase
from engine.variants import VARIANTS
from games.analysis.selectors import is_up_to_date
from games.engine_bridge import load_state
from games.models import Decision, Match, MatchAnalysis
from games.selectors import effective_actions

#: What the ``Site`` tag of an exported log says.
SITE = "bgmatch"


def games_in_force(match: Match) -> list[list[EngineAction]]:
    """The engine actions of the log in force, one list per game in game order (one query).

    Rows that are no engine action (void, finish) are left out: a .mat log has no place for them.
    """
    by_game: dict[int, list[EngineAction]] = {}
    for row, action in effective_actions(match):
        if action is not None:
            by_game.setdefault(row.game_number, []).append(action)
    return [by_game[number] for number in sorted(by_game)]


def mat_games(match: Match) -> list[list[EngineAction]]:
    """The games of :func:`games_in_force` as a .mat log can hold them (see the module's docstring)."""
    games = [_without_rejected_resignations(actions) for actions in games_in_force(match)]
    if any(isinstance(action, PenaltyPoints) for actions in games for action in actions):
        raise EngineError("this match has penalty points, which a .mat log has no place for")
    if games:
        game = load_state(match).game  # the cached state after the last action in force
        last = games[-1]
        if game.phase is Phase.RESIGN_OFFERED:
            last.pop()  # the resignation
            if game.resume is Phase.MOVE:
                last.pop()  # offered after rolling: the roll, not played
        elif game.phase is Phase.MOVE:
            last.pop()  # the roll, not played yet
        if not last:
            games.pop()
    return games


def _without_rejected_resignations(actions: list[EngineAction]) -> list[EngineAction]:
    kept: list[EngineAction] = []
    for action in actions:
        if isinstance(action, RejectResignation) and kept and isinstance(kept[-1], Resign):
            kept.pop()
        else:
            kept.append(action)
    return kept


def mat_tags(match: Match) -> list[tuple[str, str]]:
    """The header tags of an exported log: the site, and the day the match started (``YYYY.MM.DD``)."""
    tags = [("Site", SITE)]
    if match.started_at is not None:
        tags.append(("EventDate", timezone.localtime(match.started_at).strftime("%Y.%m.%d")))
    return tags


def match_mat(match: Match) -> str:
    """The .mat text of ``match`` (players by display name, player 1 in the left column).

    :raises EngineError: when the match cannot be written as .mat (an Acey-Deucey match, a player name holding
        ``:``), with the engine's reason.
    """
    return write_match(
        mat_games(match),
        players=(match.player1.display_name, match.player2.display_name),
        match_length=match.length,
        variant=VARIANTS[match.variant],
        crawford_rule=match.crawford,
        casual=match.casual,
        tags=mat_tags(match),
    )


def match_sgf(match: Match) -> str:
    """The SGF text of ``match`` (GNU Backgammon's dialect; player 1 is White), with gnubg's analysis when the
    match has one of its log in force.

    :raises EngineError: when the match cannot be written as SGF (an Acey-Deucey match, penalty points), with the
        engine's reason.
    """
    date = timezone.localtime(match.started_at).strftime("%Y-%m-%d") if match.started_at is not None else ""
    return write_sgf(
        games_in_force(match),
        players=(match.player1.display_name, match.player2.display_name),
        match_length=match.length,
        variant=VARIANTS[match.variant],
        crawford_rule=match.crawford,
        casual=match.casual,
        date=date,
        place=SITE,
        analysis=sgf_analysis(match),
    )


def sgf_analysis(match: Match) -> dict[AnalysisKey, DecisionAnalysis]:
    """gnubg's analysis of each decision of the match, keyed as the SGF writer places it (the n-th play or cube
    action of a game); empty unless the match's analysis is up to date: done, of the log in force, in the current
    format (one query, two with an analysis)."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None or not is_up_to_date(analysis, match):
        return {}
    notes: dict[AnalysisKey, DecisionAnalysis] = {}
    cube_actions: dict[int, int] = {}
    for decision in analysis.decisions.order_by("game_number", "turn"):
        game = decision.game_number
        if decision.kind == Decision.Kind.MOVE:
            if decision.move_number is not None:
                notes[(game, "move", decision.move_number)] = _decision_analysis(decision, analysis.plies)
        else:
            cube_actions[game] = cube_actions.get(game, 0) + 1
            notes[(game, "cube", cube_actions[game])] = _decision_analysis(decision, analysis.plies)
    return notes


def _decision_analysis(decision: Decision, plies: int) -> DecisionAnalysis:
    evaluation = decision.evaluation or {}
    candidates = tuple(
        Candidate(
            move=tuple((int(src), int(dst)) for src, dst in entry["move"]),
            probs=_probs(entry["probs"]),
            equity=float(entry["equity"]),
        )
        for entry in evaluation.get("candidates") or ()
    )
    cube = evaluation.get("cube")
    return DecisionAnalysis(
        candidates=candidates,
        played=evaluation.get("played"),
        cube=CubeEvaluation(
            probs=_probs(cube["probs"]),
            cubeless=float(cube["cubeless"]),
            no_double=float(cube["no_double"]),
            double_take=float(cube["double_take"]),
        )
        if cube
        else None,
        mark=decision.mark,
        cube_mark=decision.cube_mark if decision.kind == Decision.Kind.MOVE else "",
        luck=decision.luck,
        luck_mark=decision.luck_mark,
        plies=plies,
    )


def _probs(values: list[float]) -> tuple[float, float, float, float, float]:
    a, b, c, d, e = (float(v) for v in values)
    return (a, b, c, d, e)


#: The file formats a match is exported in, by extension.
EXPORTS = {"mat": match_mat, "sgf": match_sgf}


def match_file(match: Match, file_format: str) -> str:
    """The text of ``match`` in ``file_format`` (a key of :data:`EXPORTS`).

    :raises EngineError: when the match cannot be written in that format, with the reason.
    """
    return EXPORTS[file_format](match)
