"""Replaying a .mat match log through the engine, and building a .mat record from a match's actions.

The syntax layer (:mod:`engine.formats.mat`) turns text into cells; here each cell becomes engine actions and every
one of them is checked by :class:`~engine.match.MatchState`: plays against dice and position, who may double, no
double in the Crawford game, take/drop only after a double, each game's points against its ending, each game's
score header against the earlier games, and that no game starts after the match is won
(docs/ARCHITECTURE.md, contract B).

Dialect rules (FORMATS.md 1.5): an empty play is a dance when nothing can be played, the forced play when exactly
one play is legal, and otherwise a roll followed by a resignation; a ``Wins`` line while the game is still being
played means the other player resigned, for the points written; ``Losses`` and ``Resigns`` offer the resignation;
Galaxy caps the final ``Wins`` at the points the winner needed, which is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.actions import (
    AcceptResignation,
    Action,
    ChooseDouble,
    ConcedeMatch,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    Take,
)
from engine.errors import EngineError
from engine.formats.mat import Cell, CellKind, GameRecord, MatchRecord, RollMarker, write_mat
from engine.game import Phase
from engine.match import MatchState
from engine.movegen import legal_plays
from engine.notation import parse_play
from engine.types import ResultKind
from engine.variants import NACKGAMMON, STANDARD, Variant


@dataclass(frozen=True, slots=True)
class LogFault:
    """The first fault of a log: 1-based game, the move number as printed (or None), and the reason."""

    game: int
    move: int | None
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"game": self.game, "move": self.move, "message": self.message}


@dataclass(slots=True)
class GameReplay:
    """One game of a replayed log: its actions (a play resolved to the engine's :class:`~engine.moves.Play`), the
    match state after each of them (what storing the log needs, so that it is not replayed again), and how it
    ended."""

    number: int
    start_score: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    states: list[MatchState] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    crawford: bool = False


@dataclass(slots=True)
class LogReplay:
    """The result of replaying a whole log: per-game actions, the final state, and the first fault if any."""

    record: MatchRecord
    variant: Variant
    crawford_rule: bool
    casual: bool = False  # the log's ``Casual`` tag: no cube, every game one point (see :func:`casual_of`)
    games: list[GameReplay] = field(default_factory=list)
    state: MatchState | None = None
    fault: LogFault | None = None

    @property
    def ok(self) -> bool:
        return self.fault is None

    @property
    def score(self) -> tuple[int, int]:
        """Points won in the replayed games, uncapped."""
        totals = [0, 0]
        for game in self.games:
            if game.winner is not None:
                totals[game.winner] += game.points
        return totals[0], totals[1]

    @property
    def winner(self) -> int | None:
        length = self.record.match_length
        s = self.score
        if length <= 0:
            return None
        if s[0] >= length:
            return 0
        if s[1] >= length:
            return 1
        return None


class _FaultError(Exception):
    def __init__(self, move: int | None, message: str) -> None:
        super().__init__(message)
        self.move = move
        self.message = message


def variant_of(record: MatchRecord) -> Variant:
    """The variant named by the log's ``Variation`` tag (standard when absent).

    :raises EngineError: for a variation the engine does not play (HyperGammon).
    """
    name = (record.tag("Variation") or "Backgammon").strip().lower().replace(" ", "")
    if name in ("backgammon", "standard", ""):
        return STANDARD
    if name == "nackgammon":
        return NACKGAMMON
    raise EngineError(f"the variation {record.tag('Variation')!r} is not supported (backgammon, nackgammon)")


def crawford_rule_of(record: MatchRecord) -> bool:
    """The ``Crawford`` tag says whether the rule is in force (on when absent, as gnubg assumes)."""
    return (record.tag("Crawford") or "On").strip().lower() not in ("off", "no", "false", "0")


def casual_of(record: MatchRecord) -> bool:
    """The ``Casual`` tag (this project's, beside ``CubeLimit "1"``, which gnubg reads as "no cube") says the match
    was casual: no cube and every game worth one point, a gammon too. Off when absent: .mat has no other way to say
    that a game borne off against a gammon counted one point."""
    return (record.tag("Casual") or "Off").strip().lower() in ("on", "yes", "true", "1")


def replay_record(record: MatchRecord) -> LogReplay:
    """Replay every game of ``record``; stops at the first fault and reports it (never raises for bad logs)."""
    try:
        variant = variant_of(record)
    except EngineError as exc:
        return LogReplay(record, STANDARD, True, fault=LogFault(1, None, str(exc)))
    crawford, casual = crawford_rule_of(record), casual_of(record)
    result = LogReplay(record, variant, crawford, casual=casual)
    if record.match_length < 0:
        result.fault = LogFault(1, None, "the match length cannot be negative")
        return result
    # A money session has no Crawford game whatever its tag says (as a stored money match is set up).
    state = MatchState.new(
        record.match_length, variant=variant, crawford_rule=crawford and record.match_length > 0, casual=casual
    )
    players = record.players
    for index, game in enumerate(record.games, start=1):
        try:
            _check_header(game, state, players, index)
            state = _replay_game(game, state, result, index, last=index == len(record.games))
        except _FaultError as fault:
            result.fault = LogFault(index, fault.move, fault.message)
            break
    result.state = state
    return result


def _check_header(game: GameRecord, state: MatchState, players: tuple[str, str], index: int) -> None:
    if state.is_over:
        raise _FaultError(
            None,
            f"game {game.number} starts after the match was won "
            f"({state.score[0]}-{state.score[1]} in a {state.length}-point match)",
        )
    if _fold(game.players) != _fold(players):
        raise _FaultError(
            None,
            f"the score line names {game.players[0]!r} and {game.players[1]!r}, "
            f"but the match is between {players[0]!r} and {players[1]!r}",
        )
    if game.score != state.score:
        raise _FaultError(
            None,
            f"the score line says {game.score[0]}-{game.score[1]}, "
            f"but the earlier games add up to {state.score[0]}-{state.score[1]}",
        )
    if game.set_position:
        raise _FaultError(None, "games that start from a set-up position (XG 'Set Pos') are not supported")


def _fold(names: tuple[str, str]) -> tuple[str, str]:
    return (" ".join(names[0].split()).casefold(), " ".join(names[1].split()).casefold())


def _replay_game(game: GameRecord, state: MatchState, result: LogReplay, index: int, *, last: bool) -> MatchState:
    replay = GameReplay(index, state.score, crawford=state.crawford_game)
    result.games.append(replay)
    run = _GameRun(state, replay, game)
    for cell in game.cells:
        run.cell(cell)
    return run.finish(last=last)


class _GameRun:
    """Feeds one game's cells to the match state, remembering what the log wrote about the result."""

    def __init__(self, state: MatchState, replay: GameReplay, game: GameRecord) -> None:
        self.state = state
        self.start = state
        self.replay = replay
        self.game = game
        self.written: Cell | None = None  # the Wins cell
        self.pending_resign: Cell | None = None  # a roll followed by no play: a resignation must follow
        self.last_move: int | None = None
        self.finished_at: MatchState | None = None

    # -- actions --------------------------------------------------------------------------------------------------

    def apply(self, action: Action, cell: Cell) -> None:
        try:
            if isinstance(action, Move) and isinstance(action.play, str):
                action = self._resolved(action)
            self.state = self.state.apply(action)
        except EngineError as exc:
            raise _FaultError(cell.move_number if cell.move_number is not None else self.last_move, str(exc)) from exc
        self.replay.actions.append(action)
        self.replay.states.append(self.state)
        if self.state.game_number != self.start.game_number or self.state.is_over:
            self.finished_at = self.state

    def _resolved(self, move: Move) -> Move:
        """The move with its written play resolved against the position and dice, as the engine reads it (the
        engine then finds it among the same legal plays, generated once); a move out of turn is left to the
        engine to refuse in its own words."""
        game = self.state.game
        if game.phase is not Phase.MOVE or game.dice is None or move.side != game.on_roll:
            return move
        assert isinstance(move.play, str)
        return Move(move.side, parse_play(move.play, game.position(), game.dice, legal=game.legal_plays()))

    @property
    def over(self) -> bool:
        return self.finished_at is not None

    def cell(self, cell: Cell) -> None:
        if cell.move_number is not None:
            self.last_move = cell.move_number
        kind = cell.kind
        if kind is CellKind.WINS:
            self._wins(cell)
            return
        if self.over:
            if kind is CellKind.LOSSES:
                return  # Galaxy writes "Losses N" for the loser after some endings; the Wins line decides
            raise _FaultError(self._move(cell), f"the game is already over, but the log goes on: {cell.text.strip()!r}")
        if self.pending_resign is not None and kind not in (CellKind.LOSSES, CellKind.RESIGNS):
            roll = self.pending_resign
            raise _FaultError(
                self._move(roll),
                f"no play is recorded for {_dice(roll)} although it can be played "
                f"(e.g. {self.state.game.legal_plays()[0]})",
            )
        side = cell.side
        if kind is CellKind.ROLL:
            self._roll(cell)
        elif kind is CellKind.DOUBLE:
            expected = self.state.game.cube.value * 2
            self.apply(Double(side), cell)
            if cell.value is not None and cell.value != expected:
                raise _FaultError(
                    self._move(cell), f"the double is written as => {cell.value}, but it makes the cube {expected}"
                )
        elif kind is CellKind.TAKE:
            self.apply(Take(side), cell)
        elif kind is CellKind.DROP:
            self.apply(Drop(side), cell)
        elif kind in (CellKind.BEAVER, CellKind.RACCOON):
            raise _FaultError(
                self._move(cell), "beavers and raccoons are money-game conventions, not used in match play"
            )
        elif kind in (CellKind.LOSSES, CellKind.RESIGNS):
            self._resign(side, cell.value, cell)

    def _move(self, cell: Cell) -> int | None:
        return cell.move_number if cell.move_number is not None else self.last_move

    def _roll(self, cell: Cell) -> None:
        assert cell.dice is not None
        side = cell.side
        self.apply(Roll(side, cell.dice), cell)
        if self.state.game.phase is not Phase.MOVE:
            return
        if cell.marker is RollMarker.ILLEGAL_PLAY:
            raise _FaultError(
                self._move(cell), "the board was edited here ('Illegal play'); such a game cannot be checked"
            )
        text = (cell.play or "").strip()
        if cell.marker is RollMarker.RESIGN_AFTER_ROLL:
            self.pending_resign = cell
            return
        if cell.marker is RollMarker.CANNOT_MOVE or not text:
            legal = self.state.game.legal_plays()
            if len(legal) == 0:
                self.apply(Move(side, ""), cell)
            elif len(legal) == 1 and cell.marker is None:
                self.apply(Move(side, legal[0]), cell)  # gnubg: an empty play with one legal play is that play
            elif cell.marker is RollMarker.CANNOT_MOVE:
                raise _FaultError(
                    self._move(cell), f"'Cannot Move' is written for {_dice(cell)}, but e.g. {legal[0]} is legal"
                )
            else:
                self.pending_resign = cell
            return
        self.apply(Move(side, text), cell)

    def _resign(self, side: int, points: int | None, cell: Cell) -> None:
        self.pending_resign = None
        if points is not None and self._is_concession(side, points):
            self.apply(ConcedeMatch(side), cell)
            return
        kind = self._kind_for(points, cell) if points is not None else ResultKind.SINGLE
        self.apply(Resign(side, kind), cell)

    def _is_concession(self, resigner: int, points: int) -> bool:
        """More than a backgammon is at stake and at least the points the opponent needs: the match is given up
        (Galaxy's ``Losses N`` for the whole match, Studio's nonsense ``Wins 4016 point``)."""
        needed = self._needed(1 - resigner)
        return needed is not None and points > 3 * self.state.game.cube.value and points >= needed

    def _kind_for(self, points: int, cell: Cell) -> ResultKind:
        cube = self.state.game.cube.value
        for kind in ResultKind:
            if points == kind * cube:
                return kind
        needed = self._needed(1 - cell.side) if cell.kind is CellKind.LOSSES else self._needed(cell.side)
        if needed is not None and points == needed:
            for kind in ResultKind:
                if kind * cube >= points:
                    return kind
        raise _FaultError(
            self._move(cell),
            f"{points} point{'s' if points != 1 else ''} cannot be won by resignation with the cube at {cube} "
            f"(a single, gammon or backgammon is worth {cube}, {2 * cube} or {3 * cube})",
        )

    def _needed(self, side: int) -> int | None:
        length = self.start.length
        return length - self.start.score[side] if length > 0 else None

    def _wins(self, cell: Cell) -> None:
        if self.written is not None:
            raise _FaultError(self._move(cell), "the game has two results")
        self.written = cell
        if not self.over:
            # Won while the game was still being played: the other player resigned.
            if cell.value is None:
                raise _FaultError(self._move(cell), "a resignation needs the points won ('Wins N points')")
            game = self.state.game
            if game.phase is Phase.OPENING and not self.replay.actions:
                self._scoresheet(cell)
                self._check_written()
                return
            if self.over:
                pass  # the resignation conceded the match
            elif game.phase is Phase.RESIGN_OFFERED:
                assert game.resignation is not None
                if game.resignation[0] == cell.side:
                    raise _FaultError(self._move(cell), "the player who resigned cannot be the one who wins")
                offered = game.resignation[1] * game.cube.value
                if cell.value not in (offered, self._needed(cell.side)):
                    raise _FaultError(
                        self._move(cell), f"{cell.value} points are written, but the resignation was for {offered}"
                    )
            else:
                if game.phase is Phase.DOUBLE_OFFERED:
                    raise _FaultError(self._move(cell), "a double is waiting for a take or a drop, not a result")
                self._resign(1 - cell.side, cell.value, cell)
            if not self.over:
                self.apply(AcceptResignation(cell.side), cell)
        self._check_written()

    def _scoresheet(self, cell: Cell) -> None:
        """A game written as its result only (no moves were recorded): the points must be possible."""
        assert cell.value is not None
        points = cell.value
        if self._is_concession(1 - cell.side, points):
            self.apply(ConcedeMatch(1 - cell.side), cell)
            return
        cube = 1
        while points > 3 * cube and points % (2 * cube) == 0:
            cube *= 2
        if points > 3 * cube or points % cube:
            raise _FaultError(self._move(cell), f"{points} points cannot be the result of one game")
        self.apply(GameResult(cell.side, ResultKind(points // cube), cube), cell)

    def _check_written(self) -> None:
        cell = self.written
        finished = self.finished_at
        if cell is None or finished is None:
            return
        outcome = finished.outcomes[-1]
        if cell.side != outcome.winner:
            raise _FaultError(
                self._move(cell),
                f"the log says the {'left' if cell.side == 0 else 'right'} player wins, but the game was won by "
                f"the other player ({outcome.ended_by})",
            )
        if cell.value is None:
            return
        needed = self._needed(outcome.winner)
        length = self.start.length
        capped = (
            finished.is_over
            and needed is not None
            and cell.value
            in (
                min(outcome.points, needed),
                min(outcome.points, length),
            )
        )
        if outcome.ended_by == "concession" or cell.value == outcome.points or capped:
            return
        kind = outcome.kind.label
        raise _FaultError(
            self._move(cell),
            f"the log says {cell.value} point{'s' if cell.value != 1 else ''}, but the game was a {kind} "
            f"with the cube at {outcome.cube_value}: {outcome.points} point{'s' if outcome.points != 1 else ''}",
        )

    def finish(self, *, last: bool) -> MatchState:
        if self.pending_resign is not None:
            roll = self.pending_resign
            raise _FaultError(self._move(roll), f"no play is recorded for {_dice(roll)} and no resignation follows")
        if self.finished_at is None:
            if last:
                return self.state  # the log stops in the middle of this game: a match in progress
            raise _FaultError(self.last_move, "the game has no result, but another game follows")
        outcome = self.finished_at.outcomes[-1]
        self.replay.winner = outcome.winner
        self.replay.points = outcome.points
        return self.finished_at


def _dice(cell: Cell) -> str:
    return f"{cell.dice[0]}{cell.dice[1]}" if cell.dice else "the roll"


# -- writing ---------------------------------------------------------------------------------------------------------


def record_from_games(
    games: Sequence[Sequence[Action]],
    *,
    players: tuple[str, str],
    match_length: int,
    variant: Variant = STANDARD,
    crawford_rule: bool = True,
    casual: bool = False,
    tags: Sequence[tuple[str, str]] = (),
) -> MatchRecord:
    """A .mat record of a match given as its games' actions (the inverse of :func:`replay_record`).

    Plays are written in gnubg's export style (one ``from/to`` per die, 25 = bar, 0 = off). A game entered from a
    scoresheet has no moves and is written as its result line only. Rejected resignations leave no trace, as in
    every .mat writer.

    :raises EngineError: if the actions are not a legal match, or the match cannot be written as .mat
        (Acey-Deucey's chosen doubles have no notation there).
    """
    if variant.acey_deucey:
        raise EngineError("Acey-Deucey matches cannot be written as .mat: the format has no way to record the double")
    all_tags = list(tags)
    if variant is not STANDARD and not any(k.lower() == "variation" for k, _ in all_tags):
        all_tags.append(("Variation", variant.label or variant.name))
    if not crawford_rule and not any(k.lower() == "crawford" for k, _ in all_tags):
        all_tags.append(("Crawford", "Off"))
    if casual:  # no cube (gnubg's reading of CubeLimit 1), and no gammons: the Casual tag (see casual_of)
        all_tags.extend([("CubeLimit", "1"), ("Casual", "On")])
    state = MatchState.new(match_length, variant=variant, crawford_rule=crawford_rule, casual=casual)
    out: list[GameRecord] = []
    for number, actions in enumerate(games, start=1):
        writer = _GameWriter(state)
        for action in actions:
            writer.add(action)
        state = writer.state
        final = state.is_over and number == len(games)
        out.append(
            GameRecord(number=number, players=players, score=writer.start_score, cells=tuple(writer.cells(final)))
        )
    return MatchRecord(match_length=match_length, games=tuple(out), tags=tuple(all_tags))


class _GameWriter:
    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.start_score = state.score
        self.start_games = len(state.outcomes)
        self._cells: list[Cell] = []
        self._roll: Cell | None = None  # the roll cell waiting for its play

    def add(self, action: Action) -> None:
        before = self.state
        game = before.game
        after = before.apply(action)
        if isinstance(action, (Roll, OpeningRoll)):
            side = after.game.on_roll
            dice = after.game.dice
            assert dice is not None
            self._flush_roll()
            self._roll = Cell(side=side, kind=CellKind.ROLL, dice=dice, play="")
        elif isinstance(action, Move):
            assert self._roll is not None and game.dice is not None
            play = action.play
            if isinstance(play, str):
                play = parse_play(play, game.position(), game.dice, legal=game.legal_plays())
            self._cells.append(replace(self._roll, play=play.mat()))
            self._roll = None
        elif isinstance(action, AcceptResignation) and self._roll is not None:
            # Rolled, then resigned: gnubg writes the roll with no play; when that would read as the one forced
            # play, XG's "???" says it unambiguously. (A rejected resignation leaves the roll waiting for its play.)
            assert game.dice is not None
            forced = len(legal_plays(game.position(), game.dice, enter_all_first=game.variant.enter_all_first)) == 1
            marker = RollMarker.RESIGN_AFTER_ROLL if forced else None
            self._cells.append(replace(self._roll, marker=marker))
            self._roll = None
        elif isinstance(action, Double):
            self._flush_roll()
            self._cells.append(Cell(side=action.side, kind=CellKind.DOUBLE, value=game.cube.value * 2))
        elif isinstance(action, Take):
            self._cells.append(Cell(side=action.side, kind=CellKind.TAKE))
        elif isinstance(action, Drop):
            self._cells.append(Cell(side=action.side, kind=CellKind.DROP))
        elif isinstance(action, ChooseDouble):
            raise EngineError("Acey-Deucey's chosen double cannot be written in a .mat file")
        self.state = after

    def _flush_roll(self) -> None:
        if self._roll is not None:
            self._cells.append(self._roll)
            self._roll = None

    def cells(self, final: bool) -> list[Cell]:
        # Dice rolled but not yet played when the record stops (a match in progress) cannot be written: an empty
        # play would read back as a dance or a resignation.
        if self._roll is not None and self.state.game.phase is not Phase.MOVE:
            self._flush_roll()
        self._roll = None
        cells = list(self._cells)
        if len(self.state.outcomes) > self.start_games:
            outcome = self.state.outcomes[self.start_games]
            points = outcome.points
            if outcome.ended_by == "concession":
                # Written as more than a backgammon is worth, which reads back as a concession here. GNU Backgammon
                # has no concession: it reads the line as a backgammon resignation (3 x cube), which wins the match
                # there only when that covers the points the winner needed.
                points = max(points, 3 * outcome.cube_value + 1)
            cells.append(Cell(side=outcome.winner, kind=CellKind.WINS, value=points, and_the_match=final))
        return cells


def write_match(
    games: Sequence[Sequence[Action]],
    *,
    players: tuple[str, str],
    match_length: int,
    variant: Variant = STANDARD,
    crawford_rule: bool = True,
    casual: bool = False,
    tags: Sequence[tuple[str, str]] = (),
) -> str:
    """The .mat text of a match given as its games' actions (see :func:`record_from_games`)."""
    record = record_from_games(
        games,
        players=players,
        match_length=match_length,
        variant=variant,
        crawford_rule=crawford_rule,
        casual=casual,
        tags=tags,
    )
    return write_mat(record)
