"""Imports: match logs (.mat and the like) and matches given as data."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.bulk import copy_rows
from common.errors import ApplicationError, ErrorCode
from engine.actions import Action as EngineAction
from engine.actions import (
    ConcedeMatch,
    GameResult,
    Move,
)
from engine.errors import EngineError
from engine.formats.matlog import LogReplay
from engine.match import MatchState
from engine.moves import Play
from engine.variants import VARIANTS
from games.engine_bridge import row_fields
from games.hooks import match_finished
from games.models import (
    Action,
    Game,
    Match,
)
from games.services.matches import _check_setup, new_match
from games.services.players import _players_named
from games.services.write import _collect_game, _KeyMemo, _position_after, _resolve_play, check_match_size

# -- import ----------------------------------------------------------------------------------------------------------


class MatchToImport:
    """A whole match ready to store with :func:`import_matches`: its set-up and its log's rows, prepared from its
    actions and the engine's state after each (the states themselves are not kept: a batch of prepared matches
    holds plain rows only)."""

    def __init__(
        self,
        *,
        players: tuple[str, str],
        length: int,
        variant: str,
        crawford: bool,
        log: _ImportedLog,
        source: str,
        casual: bool = False,
    ) -> None:
        self.players = players
        self.length = length
        self.variant = variant
        self.crawford = crawford
        self.casual = casual
        self.log = log
        self.source = source

    @property
    def actions(self) -> int:
        return len(self.log.rows)

    @classmethod
    def of_actions(
        cls,
        *,
        players: tuple[str, str],
        length: int,
        variant: str,
        crawford: bool,
        games: Sequence[Iterable[EngineAction]],
        states: Sequence[Sequence[MatchState]] | None = None,
        source: str = "",
        casual: bool = False,
    ) -> MatchToImport:
        """The match of these actions, game by game. ``states``, when given, are the engine's states after each
        of them, from a replay of these very actions from the start of a match of this set-up, and are used as
        they are; without them the actions are replayed.

        :raises ApplicationError: MATCH_TOO_LONG past the games or actions a match holds; INVALID_INPUT for a
            length or variant no match has; ILLEGAL_ACTION with the engine's reason and the action's place.
        """
        by_game = [list(actions) for actions in games]
        check_match_size(games=len(by_game), actions=sum(len(actions) for actions in by_game))
        _check_setup(length, variant, Match.EntryMode.MOVES)
        crawford = crawford and length > 0
        log = _ImportedLog(MatchState.new(length, variant=VARIANTS[variant], crawford_rule=crawford, casual=casual))
        for number, actions in enumerate(by_game, start=1):
            if states is None:
                log.replay(number, actions)
            else:
                log.take(actions, states[number - 1])
        return cls(
            players=players, length=length, variant=variant, crawford=crawford, log=log, source=source, casual=casual
        )

    @classmethod
    def of_log(cls, replay: LogReplay, *, source: str = "") -> MatchToImport:
        """A checked .mat log (:func:`engine.formats.matlog.replay_record` with no fault), with the states its check
        computed: it is not replayed again.

        :raises ApplicationError: as :meth:`of_actions`, but for ILLEGAL_ACTION.
        """
        assert replay.fault is None, "only a log that passed the check is stored"
        record = replay.record
        return cls.of_actions(
            players=record.players,
            length=record.match_length,
            variant=replay.variant.name,
            crawford=replay.crawford_rule,
            games=[game.actions for game in replay.games],
            states=[game.states for game in replay.games],
            source=source,
            casual=replay.casual,
        )


def import_match(
    *,
    players: tuple[str, str],
    length: int,
    variant: str,
    crawford: bool,
    games: Sequence[Iterable[EngineAction]],
    states: Sequence[Sequence[MatchState]] | None = None,
    source: str = "",
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
) -> Match:
    """Store a whole match (e.g. a replayed .mat log) with its full action log, exactly as if it had been entered
    action by action; nothing is stored if any action is refused.

    ``states``, when given, are the engine's states after each action of ``games`` (game by game), from a replay
    of these very actions from the start of a match of this set-up (:func:`import_log` passes those of the check),
    and are used as they are instead of replaying the actions again. The log is written with one COPY.
    ``attach``, when given, is called with the stored match inside the transaction (games.hooks.import_target: the
    event the match is imported into).

    :raises ApplicationError: ILLEGAL_ACTION with the engine's reason and the action's place; MATCH_TOO_LONG past
        the games or actions a match holds.
    """
    wanted = MatchToImport.of_actions(
        players=players, length=length, variant=variant, crawford=crawford, games=games, states=states, source=source
    )
    return import_matches([wanted], created_by=created_by, attach=attach)[0]


def import_log(
    replay: LogReplay,
    *,
    source: str = "",
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
    by_name: bool = True,
) -> Match:
    """Store a checked .mat log (:func:`engine.formats.matlog.replay_record` with no fault) with the states its
    check computed: the log is not replayed again. ``by_name``: as :func:`import_matches`.

    :raises ApplicationError: MATCH_TOO_LONG past the games or actions a match holds.
    """
    wanted = [MatchToImport.of_log(replay, source=source)]
    return import_matches(wanted, created_by=created_by, attach=attach, by_name=by_name)[0]


def import_matches(
    wanted: Sequence[MatchToImport],
    *,
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
    by_name: bool = True,
) -> list[Match]:
    """Store whole matches (:class:`MatchToImport`, e.g. checked .mat logs) with their full action logs in one
    transaction, each exactly as :func:`import_match` stores one, and with the same statements whatever their
    number and length: the players looked up in one query and the new ones written in one INSERT, the matches in
    one, every log row in one COPY and the games in one INSERT. Nothing is stored if any of them is refused (a
    caller that must tell which stores them one by one). A finished match is signalled after the commit
    (games.hooks.match_finished, ``imported=True``; ``attached`` says whether ``attach`` was given).

    ``by_name`` false (an import by an account anyone may have: a .mat can name anyone) makes a new player of every
    name, so that a fabricated log never attaches to a real player of that name; true (the operator's command,
    staff) takes the one player of exactly that name where there is one.

    :raises ApplicationError: INVALID_INPUT for a player's name no player may have.
    """
    with transaction.atomic():
        pairs = _players_named([one.players for one in wanted], by_name=by_name)
        matches = []
        for one, (p1, p2) in zip(wanted, pairs, strict=True):
            match = new_match(
                player1=p1, player2=p2, length=one.length, variant=one.variant, crawford=one.crawford,
                created_by=created_by, source=one.source, casual=one.casual,
            )  # fmt: skip
            one.log.finish(match)
            matches.append(match)
        Match.objects.bulk_create(matches)  # one INSERT, the ids read back
        logs = [one.log for one in wanted]
        copy_rows(
            Action,
            ["match_id", *_LOG_COLUMNS, *_LOG_DEFAULTS],
            (
                (match.pk, *row, *_LOG_DEFAULTS.values())
                for match, log in zip(matches, logs, strict=True)
                for row in log.rows
            ),
        )
        Game.objects.bulk_create(
            [Game(match=match, **game) for match, log in zip(matches, logs, strict=True) for game in log.games]
        )
        for match in matches:
            if attach is not None:
                attach(match)
            if match.status == Match.Status.FINISHED:
                _signal_imported(match.pk, attached=attach is not None)
        return matches


def _signal_imported(match_pk: int, *, attached: bool) -> None:
    transaction.on_commit(
        lambda: match_finished.send(sender=Match, match_id=match_pk, imported=True, attached=attached)
    )


#: The columns of an imported log row that the import computes.
_LOG_COLUMNS = (
    "seq", "game_number", "kind", "side", "die1", "die2", "play", "steps", "value", "data",
    "position_id", "match_id_after", "reason", "created_at",
)  # fmt: skip
#: Every other column of a log row, with its field's default (an imported row has no correction, no entering user
#: or link, no idempotency key): a column added to the model later is written too.
_LOG_DEFAULTS = {
    field.attname: field.get_default()
    for field in Action._meta.concrete_fields
    if not field.primary_key and field.attname not in ("match_id", *_LOG_COLUMNS)
}


class _ImportedLog:
    """The rows of an imported log, as column values for COPY (all but the match's id, which the match row gets
    when it is written), and its games' fields, built from each action and the state after it; ``state`` is the
    state after the last action taken."""

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.rows: list[tuple[Any, ...]] = []
        self.games: list[dict[str, Any]] = []
        self.only_results = True
        self.now = timezone.now()
        self.keys = _KeyMemo()

    def replay(self, number: int, actions: Iterable[EngineAction]) -> None:
        """Take the actions of game ``number``, each replayed through the engine (the state after it computed)."""
        for action in actions:
            if isinstance(action, Move):
                action = Move(action.side, _resolve_play(self.state, action))
            try:
                after = self.state.apply(action)
            except EngineError as exc:
                raise ApplicationError(ErrorCode.ILLEGAL_ACTION, f"game {number}: {exc}") from exc
            self.add(action, after)

    def take(self, actions: Sequence[EngineAction], states: Sequence[MatchState]) -> None:
        """Take the actions of one game with the states after them, as a replay of them computed."""
        if len(actions) != len(states):
            raise ValueError("one state after each action")
        for action, after in zip(actions, states, strict=True):
            if isinstance(action, Move) and not isinstance(action.play, Play):
                raise ValueError(f"a replayed move carries its resolved play, not {action.play!r}")
            self.add(action, after)

    def add(self, action: EngineAction, after: MatchState) -> None:
        before, play = self.state, action.play if isinstance(action, Move) else None
        assert play is None or isinstance(play, Play)
        fields = row_fields(action, after, play)
        self.only_results = self.only_results and isinstance(action, (GameResult, ConcedeMatch))
        self.rows.append(
            (
                len(self.rows) + 1, before.game_number, fields["kind"], fields.get("side"),
                fields.get("die1"), fields.get("die2"), fields.get("play", ""), fields.get("steps", ""),
                fields.get("value"), fields.get("data", {}), _position_after(before, after, action, play, self.keys),
                after.match_id(), "", self.now,
            )
        )  # fmt: skip
        _collect_game(self.games, before, after)
        self.state = after

    def finish(self, match: Match) -> None:
        """Set the match row's caches after this log (the row is written afterwards, with the others)."""
        state = self.state
        match.seq = len(self.rows)
        match.state = state.snapshot()
        match.score1, match.score2 = state.score
        if self.only_results and self.rows:
            match.entry_mode = Match.EntryMode.SCORESHEET
        if self.rows:
            match.status = Match.Status.IN_PROGRESS
            match.started_at = self.now
        if state.is_over:
            match.status = Match.Status.FINISHED
            match.winner = match.player(state.winner or 0)
            match.finished_at = match.started_at
