"""Writing a match as GNU Backgammon's SGF (GM[6]), with the analysis where there is one (FORMATS.md section 2).

One game tree per game, concatenated. White (``W``) is side 0, the first player of the match; Black (``B``) is
side 1. A play is ``;W[<dice><from><to>...]``, one from/to pair of letters per die (``a``..``x`` a side's points 1..24
seen from White, so Black's own point p is ``x`` minus p-1; ``y`` the bar, ``z`` off); cube actions are
``;W[double]``, ``;B[take]``, ``;B[drop]``. A root node carries the match length, the game's number and score
(``MI``), the players, the rules (``RU``: ``Crawford``, ``CrawfordGame`` in the Crawford game itself, ``Nackgammon``,
``NoCube``) and the result (``RE[W+2]``, ``R`` for a resignation). Match play has no beavers (the engine refuses
them), so a beaver never has to be written.

The analysis of a decision, when given, is written as gnubg writes it after ``analyse match``: ``A`` the candidate
plays with their evaluation (the five outcome probabilities and the equity), ``DA`` the cube decision before a
play or of a cube action (probabilities, cubeless equity, cubeful equity of no double and of double, take), ``LU``
the luck of the roll with ``GW``/``GB`` (good for White or for Black, ``[2]`` very), ``BM[1]``/``BM[2]``/``DO[]`` the
mark of the play or cube action (bad, very bad, doubtful) and ``BC``/``DC`` the mark of the cube decision before a
play.

What SGF cannot say is refused or left out: Acey-Deucey (gnubg's rules know no such variant), penalty points
(no SGF property gives points outside a game), a rejected resignation (no trace, as in gnubg), and at the end of a
match in progress a resignation not yet answered. A concession of the whole match is written as a resignation of
a backgammon (gnubg has no concession; it reads the .mat export the same way). Dice rolled and not played (the
end of a match in progress, a roll before a resignation) are written as gnubg saves them (``;PL[W]DI[62]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.actions import (
    Action,
    ChooseDouble,
    Double,
    Drop,
    Move,
    OpeningRoll,
    PenaltyPoints,
    RejectResignation,
    Roll,
    Take,
)
from engine.errors import EngineError
from engine.game import Phase
from engine.match import MatchState
from engine.moves import Play
from engine.notation import parse_play
from engine.types import BAR, OFF
from engine.variants import NACKGAMMON, STANDARD, Variant

#: How gnubg's marks are written: a play's or a cube action's (BM/DO), and the cube decision before a play (BC/DC).
_SKILL = {"verybad": "BM[2]", "bad": "BM[1]", "doubtful": "DO[]"}
_CUBE_SKILL = {"verybad": "BC[2]", "bad": "BC[1]", "doubtful": "DC[]"}
#: gnubg's luck marks, from the roller's side: how good the roll was for him, and how much.
_LUCK = {"verygood": (True, 2), "good": (True, 1), "bad": (False, 1), "verybad": (False, 2)}
_COLOUR = "WB"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of gnubg's candidate list: its steps as gnubg gives them (``((24, 18), (13, 11))``, the mover's
    points, 25 the bar, 0 off), the five outcome probabilities (win, win gammon, win backgammon, lose gammon, lose
    backgammon) and its equity."""

    move: tuple[tuple[int, int], ...]
    probs: tuple[float, float, float, float, float]
    equity: float


@dataclass(frozen=True, slots=True)
class CubeEvaluation:
    """gnubg's evaluation of a cube decision: the probabilities, the cubeless equity, and the cubeful equity of no
    double and of double, take (match winning chances in match play, money equity in money play, as gnubg keeps
    them)."""

    probs: tuple[float, float, float, float, float]
    cubeless: float
    no_double: float
    double_take: float


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    """The analysis of one play or cube action, in gnubg's terms (all optional).

    ``candidates`` and ``played`` (the index of the play made among them) make the ``A`` property; ``cube`` the
    ``DA``; ``mark`` is the play's or the cube action's mark, ``cube_mark`` that of the cube decision before a
    play (``doubtful``, ``bad``, ``very bad``); ``luck`` and ``luck_mark`` (``very good``, ``good``, ``bad``,
    ``very bad``) the roll's. ``plies`` is the depth of the evaluation.
    """

    candidates: tuple[Candidate, ...] = ()
    played: int | None = None
    cube: CubeEvaluation | None = None
    mark: str = ""
    cube_mark: str = ""
    luck: float | None = None
    luck_mark: str = ""
    plies: int = 0


#: Where an analysis belongs: (game number from 1, ``"move"`` or ``"cube"``, the n-th play or cube action of the
#: game from 1).
AnalysisKey = tuple[int, str, int]


def write_sgf(
    games: Sequence[Sequence[Action]],
    *,
    players: tuple[str, str],
    match_length: int,
    variant: Variant = STANDARD,
    crawford_rule: bool = True,
    casual: bool = False,
    date: str = "",
    event: str = "",
    round_name: str = "",
    place: str = "",
    application: str = "bgmatch",
    analysis: Mapping[AnalysisKey, DecisionAnalysis] | None = None,
) -> str:
    """The SGF text of a match given as its games' actions (``date`` as ``YYYY-MM-DD``).

    :raises EngineError: if the actions are not a legal match, or the match cannot be written as SGF (Acey-Deucey,
        penalty points), with the reason.
    """
    if variant.acey_deucey:
        raise EngineError(
            "Acey-Deucey matches cannot be written as SGF: GNU Backgammon's rules know standard backgammon, "
            "Nackgammon and Hypergammon only"
        )
    if variant not in (STANDARD, NACKGAMMON):
        raise EngineError(f"the variant {variant.name!r} cannot be written as SGF (standard or Nackgammon only)")
    notes = analysis or {}
    state = MatchState.new(match_length, variant=variant, crawford_rule=crawford_rule, casual=casual)
    header = {"DT": date, "EV": event, "RO": round_name, "PC": place}
    trees: list[str] = []
    for index, actions in enumerate(games):
        writer = _GameWriter(state, index + 1, notes)
        for action in actions:
            writer.add(action)
        root = _root(
            state,
            writer,
            index=index,
            players=players,
            application=application,
            header=header if index == 0 else {},
        )
        trees.append("(" + root + "".join("\n;" + node for node in writer.finished_nodes()) + ")\n")
        state = writer.state
    return "".join(trees)


def _root(
    start: MatchState,
    writer: _GameWriter,
    *,
    index: int,
    players: tuple[str, str],
    application: str,
    header: Mapping[str, str],
) -> str:
    length = start.length
    parts = [
        f"FF[4]GM[6]CA[UTF-8]AP[{escape(application)}]",
        f"MI[length:{length}][game:{index}][ws:{start.score[0]}][bs:{start.score[1]}]",
        f"PW[{escape(players[0])}]PB[{escape(players[1])}]",
    ]
    parts.extend(f"{key}[{escape(value)}]" for key, value in header.items() if value)
    rules = []
    if start.casual:
        rules.append("NoCube")
    if start.crawford_rule:
        rules.append("Crawford")
    if start.crawford_game:
        rules.append("CrawfordGame")
    if start.variant == NACKGAMMON:
        rules.append("Nackgammon")
    if rules:
        parts.append(f"RU[{':'.join(rules)}]")
    result = writer.result()
    if result:
        parts.append(result)
    return ";" + "".join(parts)


def escape(text: str) -> str:
    """A property value with SGF's two special characters escaped (``\\`` and ``]``)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def point_letter(point: int, side: int) -> str:
    """The SGF letter of ``point`` in ``side``'s own numbering (25 the bar ``y``, 0 (or less, as gnubg gives it) off
    ``z``)."""
    if point == BAR:
        return "y"
    if point <= OFF:
        return "z"
    return chr(ord("a") + point - 1) if side == 0 else chr(ord("x") - (point - 1))


def move_letters(steps: Sequence[tuple[int, int]], side: int) -> str:
    """A play's from/to pairs as SGF letters, in the order given."""
    return "".join(point_letter(src, side) + point_letter(dst, side) for src, dst in steps)


class _GameWriter:
    """Turns one game's actions into SGF nodes, checking each against the engine."""

    def __init__(self, state: MatchState, number: int, notes: Mapping[AnalysisKey, DecisionAnalysis]) -> None:
        self.state = state
        self.number = number
        self.notes = notes
        self.start_games = len(state.outcomes)
        self.nodes: list[str] = []
        self.plays = 0
        self.cube_actions = 0
        self.roll: tuple[int, tuple[int, int]] | None = None  # (side, dice) waiting for its play

    def add(self, action: Action) -> None:
        before = self.state
        if isinstance(action, PenaltyPoints):
            raise EngineError("this match has penalty points, which an SGF file has no place for")
        if isinstance(action, ChooseDouble):
            raise EngineError("Acey-Deucey's chosen double cannot be written in an SGF file")
        after = before.apply(action)
        game = before.game
        if isinstance(action, (Roll, OpeningRoll)):
            dice = after.game.dice
            assert dice is not None
            self.roll = (after.game.on_roll, dice)
        elif isinstance(action, Move):
            assert self.roll is not None and game.dice is not None
            play = action.play
            if isinstance(play, str):
                play = parse_play(play, game.position(), game.dice, legal=game.legal_plays())
            self.plays += 1
            self.nodes.append(self._play_node(play))
            self.roll = None
        elif isinstance(action, (Double, Take, Drop)):
            self.cube_actions += 1
            word = {Double: "double", Take: "take", Drop: "drop"}[type(action)]
            note = self.notes.get((self.number, "cube", self.cube_actions))
            self.nodes.append(f"{_COLOUR[action.side]}[{word}]" + (_cube_properties(note) if note else ""))
        elif isinstance(action, RejectResignation):
            pass  # gnubg keeps no trace of a rejected resignation
        # A resignation and a concession leave no node: the result property says that the game was resigned.
        self.state = after
        if self.roll is not None and len(after.outcomes) > self.start_games:
            # Rolled, then resigned: the dice are kept as gnubg keeps dice not played.
            side, dice = self.roll
            self.nodes.append(f"PL[{_COLOUR[side]}]DI[{dice[0]}{dice[1]}]")
            self.roll = None

    def _play_node(self, play: Play) -> str:
        assert self.roll is not None
        side, dice = self.roll
        steps = [(step.src, step.dst) for step in play.steps]
        node = f"{_COLOUR[side]}[{dice[0]}{dice[1]}{move_letters(steps, side)}]"
        note = self.notes.get((self.number, "move", self.plays))
        return node + (_play_properties(note, side) if note else "")

    def finished_nodes(self) -> list[str]:
        """The nodes, with dice rolled and not yet played at the end written as gnubg saves them."""
        nodes = list(self.nodes)
        if self.roll is not None and self.state.game.phase is Phase.MOVE:
            side, dice = self.roll
            nodes.append(f"PL[{_COLOUR[side]}]DI[{dice[0]}{dice[1]}]")
        return nodes

    def result(self) -> str:
        if len(self.state.outcomes) <= self.start_games:
            return ""
        outcome = self.state.outcomes[self.start_games]
        points = outcome.points
        if outcome.ended_by == "concession":
            # SGF has no concession of the match: it is written as the largest resignation, a backgammon, which
            # gnubg scores at three times the cube (as it reads the .mat export of the same match).
            points = 3 * outcome.cube_value
        resigned = "R" if outcome.ended_by in ("resignation", "concession") else ""
        return f"RE[{_COLOUR[outcome.winner]}+{points}{resigned}]"


def _number(value: float) -> str:
    return f"{value:.6f}"


def _context(plies: int) -> str:
    """gnubg's evaluation context of an analysis: the plies, cubeful, deterministic, no noise, pruning."""
    return f"{plies}C"


def _play_properties(note: DecisionAnalysis, side: int) -> str:
    parts = []
    if note.cube is not None:
        parts.append(_double_analysis(note.cube, note.plies))
    if note.candidates:
        played = note.played if note.played is not None and 0 <= note.played < len(note.candidates) else 0
        entries = []
        for candidate in note.candidates:
            probs = " ".join(_number(p) for p in candidate.probs)
            entries.append(
                f"[{move_letters(candidate.move, side)} E ver 3 {probs} {_number(candidate.equity)} "
                f"{_context(note.plies)} 0 1 0.000000 1]"
            )
        parts.append(f"A[{played}]" + "".join(entries))
    if note.luck is not None:
        parts.append(f"LU[{note.luck:.5f}]")
    luck = _LUCK.get(note.luck_mark.replace(" ", ""))
    if luck is not None:
        good, size = luck
        favoured = side if good else 1 - side
        parts.append(f"G{_COLOUR[favoured]}[{size}]")
    parts.append(_SKILL.get(note.mark.replace(" ", ""), ""))
    parts.append(_CUBE_SKILL.get(note.cube_mark.replace(" ", ""), ""))
    return "".join(parts)


def _cube_properties(note: DecisionAnalysis) -> str:
    parts = [_double_analysis(note.cube, note.plies)] if note.cube is not None else []
    parts.append(_SKILL.get(note.mark.replace(" ", ""), ""))
    return "".join(parts)


def _double_analysis(cube: CubeEvaluation, plies: int) -> str:
    values: list[str] = []
    for cubeful in (cube.no_double, cube.double_take):
        values.extend(_number(v) for v in (*cube.probs, cube.cubeless, cubeful))
    return f"DA[E ver 3 {_context(plies)} 1 0.000000 1 {' '.join(values)}]"


__all__ = ["AnalysisKey", "Candidate", "CubeEvaluation", "DecisionAnalysis", "escape", "write_sgf"]
