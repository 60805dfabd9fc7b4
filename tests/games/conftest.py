"""Fixtures for the games app's tests: a cast of users and players, matches started through the services, a
driver that plays a match action by action through the services, and a check that a refusal wrote nothing.

Everything is set up through ``games.services`` (STYLE.md 4.7: set-up through services, not raw ORM); the only
direct reads are of the rows the services wrote.

The driver (:class:`Driver`) rolls seeded dice, picks a random legal play from ``selectors.live_state`` (checked
against the engine's ``legal_plays`` on the cached state), and keeps the list of engine actions it sent, so a test
can replay that list through ``engine/`` and compare the result with the database's caches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from engine.actions import (
    AcceptResignation,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.actions import Action as EngineAction
from engine.game import GameState, Outcome, Phase
from engine.match import MatchState
from engine.moves import Play
from engine.types import ResultKind
from games import selectors, services
from games.engine_bridge import load_state
from games.models import Action, EntryToken, Game, Match, Player

# -- the cast ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """Alice (side 0) and Bob (side 1) with accounts, the director who creates matches, a staff user, a stranger."""

    alice_user: Any
    bob_user: Any
    director: Any
    staff: Any
    stranger: Any
    alice: Player
    bob: Player

    @property
    def as_alice(self) -> Actor:
        return Actor(user=self.alice_user)

    @property
    def as_bob(self) -> Actor:
        return Actor(user=self.bob_user)

    @property
    def as_director(self) -> Actor:
        return Actor(user=self.director)

    @property
    def as_staff(self) -> Actor:
        return Actor(user=self.staff)

    @property
    def as_stranger(self) -> Actor:
        return Actor(user=self.stranger)


@pytest.fixture
def cast(django_user_model: Any) -> Cast:
    def user(name: str, **extra: Any) -> Any:
        return django_user_model.objects.create_user(username=name, password=None, **extra)

    alice_user, bob_user = user("alice"), user("bob")
    return Cast(
        alice_user=alice_user,
        bob_user=bob_user,
        director=user("dora"),
        staff=user("sam", is_staff=True),
        stranger=user("stan"),
        alice=services.create_player(display_name="Alice", user=alice_user),
        bob=services.create_player(display_name="Bob", user=bob_user),
    )


@pytest.fixture
def new_match(cast: Cast) -> Callable[..., Match]:
    """``new_match(length=7, **start_match options)``: Alice (side 0) vs Bob (side 1), created by the director."""

    def make(length: int = 7, **options: Any) -> Match:
        options.setdefault("created_by", cast.director)
        return services.start_match(player1=cast.alice, player2=cast.bob, length=length, **options)

    return make


# -- a refusal writes nothing ------------------------------------------------------------------------------------


def footprint(match_id: int) -> tuple[Any, ...]:
    """Everything a service could have written for a match (and the global row counts)."""
    match = Match.objects.values(
        "seq", "state", "status", "score1", "score2", "winner_id", "started_at", "finished_at"
    ).get(pk=match_id)
    games = list(Game.objects.filter(match_id=match_id).order_by("number").values_list())
    tokens = list(EntryToken.objects.filter(match_id=match_id).values_list("id", "revoked_at"))
    return match, games, tokens, Action.objects.count(), Game.objects.count(), Match.objects.count()


@contextmanager
def refused_cm(match: Match | int, code: ErrorCode, *words: str) -> Iterator[pytest.ExceptionInfo[ApplicationError]]:
    match_id = match if isinstance(match, int) else match.pk
    before = footprint(match_id)
    with pytest.raises(ApplicationError) as info:
        yield info
    error = info.value
    assert error.code is code, f"expected {code}, got {error.code}: {error.message}"
    for word in words:
        assert word.lower() in error.message.lower(), f"{word!r} not in {error.message!r}"
    assert footprint(match_id) == before, "a refused action wrote something"


@pytest.fixture
def refused() -> Callable[..., Any]:
    """``with refused(match, ErrorCode.X, "word", ...):`` the block raises ApplicationError X whose message has
    each word (case-insensitive), and the match's rows, caches and the global row counts are unchanged."""
    return refused_cm


# -- the driver --------------------------------------------------------------------------------------------------


class Driver:
    """Plays one match through the services: seeded dice, random legal plays, explicit cube and resignation steps.

    Every call passes ``expected_seq`` = the last seq the driver saw, and checks that exactly one row was appended.
    ``sent`` is the list of engine actions sent, in order (plays as resolved :class:`Play` values).
    """

    def __init__(self, match: Match, *, seed: int = 0, actors: tuple[Actor, Actor] | None = None) -> None:
        self.match_id = match.pk
        self.match = match
        self.rng = random.Random(seed)
        self.actors = actors or (SYSTEM, SYSTEM)
        self.state: MatchState = load_state(match)
        self.seq = match.seq
        self.sent: list[EngineAction] = []
        self.check_selectors = True

    # -- state ------------------------------------------------------------------------------------------------

    @property
    def game(self) -> GameState:
        return self.state.game

    @property
    def games_over(self) -> int:
        return len(self.state.outcomes)

    @property
    def is_over(self) -> bool:
        return self.state.is_over or self.match.status in (
            Match.Status.FINISHED,
            Match.Status.FORFEITED,
            Match.Status.VOID,
        )

    def _took(self, recorded: services.Recorded, action: EngineAction) -> services.Recorded:
        assert not recorded.retried
        assert recorded.action.seq == self.seq + 1 == recorded.match.seq
        self.seq = recorded.match.seq
        self.match = recorded.match
        self.state = recorded.state
        self.sent.append(action)
        return recorded

    def dice(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    # -- one action each ----------------------------------------------------------------------------------------

    def opening(self, dice: tuple[int, int] | None = None) -> services.Recorded:
        while dice is None:
            d = self.dice()
            dice = d if d[0] != d[1] else None
        side = 0 if dice[0] > dice[1] else 1
        r = services.record_opening_roll(self.match_id, actor=self.actors[side], dice=dice, expected_seq=self.seq)
        return self._took(r, OpeningRoll(dice))

    def roll(self, dice: tuple[int, int] | None = None) -> services.Recorded:
        side = self.game.on_roll
        dice = dice or self.dice()
        r = services.record_roll(self.match_id, actor=self.actors[side], side=side, dice=dice, expected_seq=self.seq)
        return self._took(r, Roll(side, dice))

    def legal_plays(self) -> list[str]:
        """The legal plays of the dice just rolled, from the live state, checked against the engine's."""
        from_engine = sorted(str(p) for p in self.game.legal_plays())
        if not self.check_selectors:
            return from_engine
        match = Match.objects.select_related("player1", "player2").get(pk=self.match_id)
        cached = load_state(match)
        assert cached.snapshot() == self.state.snapshot()
        offered = selectors.live_state(match)["legal_plays"]
        assert sorted(offered) == from_engine
        return sorted(offered)

    def play(self, text: str | None = None) -> services.Recorded:
        side = self.game.on_roll
        if text is None:
            legal = self.legal_plays()
            text = self.rng.choice(legal) if legal else ""
        r = services.record_play(self.match_id, actor=self.actors[side], side=side, play=text, expected_seq=self.seq)
        return self._took(r, Move(side, _play_of(r.action)))

    def double(self) -> services.Recorded:
        side = self.game.on_roll
        r = services.offer_double(self.match_id, actor=self.actors[side], side=side, expected_seq=self.seq)
        return self._took(r, Double(side))

    def take(self) -> services.Recorded:
        side = self.game.actor
        r = services.take(self.match_id, actor=self.actors[side], side=side, expected_seq=self.seq)
        return self._took(r, Take(side))

    def drop(self) -> services.Recorded:
        side = self.game.actor
        r = services.drop(self.match_id, actor=self.actors[side], side=side, expected_seq=self.seq)
        return self._took(r, Drop(side))

    def resign(self, side: int, kind: int) -> services.Recorded:
        r = services.offer_resignation(
            self.match_id, actor=self.actors[side], side=side, kind=kind, expected_seq=self.seq
        )
        return self._took(r, Resign(side, ResultKind(kind)))

    def accept(self) -> services.Recorded:
        side = self.game.actor
        r = services.accept_resignation(self.match_id, actor=self.actors[side], side=side, expected_seq=self.seq)
        return self._took(r, AcceptResignation(side))

    def reject(self) -> services.Recorded:
        side = self.game.actor
        r = services.reject_resignation(self.match_id, actor=self.actors[side], side=side, expected_seq=self.seq)
        return self._took(r, RejectResignation(side))

    def result(self, winner: int, kind: int, cube: int = 1, *, actor: Actor = SYSTEM) -> services.Recorded:
        r = services.record_game_result(
            self.match_id, actor=actor, winner=winner, kind=kind, cube_value=cube, expected_seq=self.seq
        )
        assert isinstance(r.action.data, dict)
        return self._took(r, GameResult(winner, ResultKind(kind), cube, r.action.data["ended_by"]))

    # -- several ------------------------------------------------------------------------------------------------

    def turn(self) -> None:
        """Start the game if it has not started, else roll; then play the dice."""
        if self.game.phase is Phase.OPENING:
            self.opening()
        else:
            self.roll()
        self.play()

    def turns(self, count: int) -> bool:
        """Up to ``count`` turns; stops early (returning False) when the game ends by a bear-off."""
        games = self.games_over
        for _ in range(count):
            self.turn()
            if self.games_over > games:
                return False
        return True

    def to_roll_phase(self, side: int | None = None) -> bool:
        """Play turns until ``side`` (default: whoever) is to roll or double; False if the game ended first."""
        games = self.games_over
        if self.game.phase is Phase.OPENING:
            self.turn()
        while self.games_over == games and not (
            self.game.phase is Phase.ROLL and (side is None or self.game.on_roll == side)
        ):
            self.turn()
        return self.games_over == games

    def play_out(
        self,
        *,
        double_when: Callable[[Driver], bool] = lambda d: False,
        take_when: Callable[[Driver], bool] = lambda d: True,
        limit: int = 2000,
    ) -> Outcome:
        """Play the current game to its end; ``double_when`` is asked at each roll where the cube may be turned."""
        games = self.games_over
        for _ in range(limit):
            if self.games_over > games:
                return self.state.outcomes[-1]
            phase = self.game.phase
            if phase is Phase.OPENING:
                self.opening()
            elif phase is Phase.ROLL:
                if self.game.may_double(self.game.on_roll) and double_when(self):
                    self.double()
                else:
                    self.roll()
            elif phase is Phase.MOVE:
                self.play()
            elif phase is Phase.DOUBLE_OFFERED:
                (self.take if take_when(self) else self.drop)()
            else:
                raise AssertionError(f"the driver does not handle {phase}")
        raise AssertionError("the game did not end")


def _play_of(row: Action) -> Play:
    from games.engine_bridge import play_from_steps

    return play_from_steps(row.steps)


@pytest.fixture
def drive() -> Callable[..., Driver]:
    """``drive(match, seed=0, actors=None)``: a :class:`Driver` for ``match`` (SYSTEM acts for both sides)."""
    return Driver


# -- expectations from the engine ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedGame:
    number: int
    start_score: tuple[int, int]
    crawford: bool
    opening_winner: int | None
    outcome: Outcome | None
    cube_owner: int | None


def expected_games(actions: list[EngineAction], start: MatchState) -> tuple[MatchState, list[ExpectedGame]]:
    """Replay ``actions`` through the engine alone and say what each game row must hold."""
    state = start
    games: list[dict[str, Any]] = []
    for action in actions:
        before = state
        state = state.apply(action)
        if before.game.phase is Phase.OPENING:
            games.append(
                {
                    "number": before.game_number,
                    "start_score": before.score,
                    "crawford": before.crawford_game,
                    "opening_winner": state.game.opening_winner if not state.outcomes[len(before.outcomes) :] else None,
                    "outcome": None,
                    "cube_owner": None,
                }
            )
        if len(state.outcomes) > len(before.outcomes):
            games[-1]["outcome"] = state.outcomes[-1]
            games[-1]["cube_owner"] = before.game.cube.owner
    return state, [ExpectedGame(**g) for g in games]


def game_rows(match: Match | int) -> list[tuple[Any, ...]]:
    """The game rows of a match as comparable tuples (no primary keys)."""
    return list(
        Game.objects.filter(match_id=match if isinstance(match, int) else match.pk)
        .order_by("number")
        .values_list(
            "number",
            "start_score1",
            "start_score2",
            "crawford",
            "opening_winner",
            "winner_side",
            "result_kind",
            "ended_by",
            "cube_value",
            "cube_owner",
            "points",
        )
    )


def as_rows(expected: list[ExpectedGame]) -> list[tuple[Any, ...]]:
    out = []
    for g in expected:
        o = g.outcome
        out.append(
            (
                g.number,
                g.start_score[0],
                g.start_score[1],
                g.crawford,
                g.opening_winner,
                None if o is None else o.winner,
                None if o is None else int(o.kind),
                "" if o is None else o.ended_by,
                1 if o is None else o.cube_value,
                g.cube_owner,
                0 if o is None else o.points,
            )
        )
    return out
