"""A stored match turned back into what the engine and the .mat writer speak.

:func:`games_in_force` reads the log rows in force (a row undone by a correction drops out, a replaced result
is replaced) and groups their engine actions by game; :func:`match_mat` writes them as a .mat match log in
GNU Backgammon's layout (DESIGN.md contract C: the file passes ``python -m engine check`` and imports into
gnubg). Nothing here writes to the database.

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
from engine.game import Phase
from engine.variants import VARIANTS
from games.engine_bridge import load_state
from games.models import Match
from games.services import effective_actions

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
        tags=mat_tags(match),
    )
