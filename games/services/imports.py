"""Imports: match logs (.mat and the like) and matches given as data."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.bulk import copy_rows, create_keeping, update_rows
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
from games.access import revoked_entry_token
from games.engine_bridge import row_fields
from games.hooks import match_finished
from games.models import (
    Action,
    EntryToken,
    Game,
    Match,
    Player,
)
from games.selectors import in_force
from games.services.corrections import replay_log
from games.services.matches import _check_setup, new_match
from games.services.players import _players_named
from games.services.write import (
    CACHE_FIELDS,
    _collect_game,
    _KeyMemo,
    _position_after,
    _resolve_play,
    apply_caches,
    check_match_size,
)

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


# -- restore ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchToRestore:
    """A match as an archive carries it (tournaments.services.archive), its records checked: the unsaved match row
    (set-up, players, times; the caches are rewritten by the replay), its unsaved log rows in sequence order, and
    for each row the seq of the row it undoes and the side of the entry link that entered it (None: none)."""

    match: Match
    rows: list[Action]
    undoes: list[int | None]
    links: list[int | None]


def restore_players(players: Sequence[Player]) -> None:
    """Store the unsaved, checked players of an archive as new players (one INSERT; their ids are set)."""
    Player.objects.bulk_create(players)


def restore_matches(restored: Sequence[MatchToRestore]) -> list[list[Game]]:
    """Store matches restored from an archive with their logs as they were written (times, corrections, reasons,
    idempotency keys), then replay each log in force and set its caches and game rows as the write path does
    (:func:`apply_caches`); returns each match's game rows. A row entered from an entry link points at a revoked
    link of that side made for it (the link's secret never travels). Run inside the caller's transaction, with
    the same statements whatever the number of matches: the matches, the links, the log rows, the undone rows'
    links, the games and the caches, a few statements each.

    :raises ApplicationError: ILLEGAL_ACTION naming the action the engine refuses, ``match`` in the error being the
        place of its match in ``restored``.
    """
    matches = [one.match for one in restored]
    create_keeping(Match, matches, keep=("created_at",))
    tokens: dict[tuple[int, int], EntryToken] = {}
    for one in restored:
        for row, side in zip(one.rows, one.links, strict=True):
            row.match = one.match
            if side is None:
                continue
            if (one.match.pk, side) not in tokens:
                tokens[(one.match.pk, side)] = revoked_entry_token(one.match, side)
            row.entered_by_token = tokens[(one.match.pk, side)]
    EntryToken.objects.bulk_create(tokens.values())
    create_keeping(Action, [row for one in restored for row in one.rows], keep=("created_at",))
    undoing = []
    for one in restored:
        for row, target in zip(one.rows, one.undoes, strict=True):
            if target is not None:
                row.undoes = one.rows[target - 1]
                undoing.append(row)
    if undoing:
        update_rows(Action, undoing, ["undoes"])
    games = [_replay_restored(one.match, one.rows, n) for n, one in enumerate(restored)]
    Game.objects.bulk_create([game for rows in games for game in rows])
    update_rows(Match, matches, CACHE_FIELDS)
    return games


def _replay_restored(match: Match, rows: list[Action], place: int) -> list[Game]:
    def refused(row: Action, exc: Exception) -> ApplicationError:
        message = f"action {row.seq} ({row.kind}) is refused by the engine: {exc}"
        return ApplicationError(ErrorCode.ILLEGAL_ACTION, message, match=place)

    return replay_log(match, in_force(rows), refused).games


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
        if self.only_results and self.rows:
            match.entry_mode = Match.EntryMode.SCORESHEET
        apply_caches(match, self.state, seq=len(self.rows), started=bool(self.rows), now=self.now)
