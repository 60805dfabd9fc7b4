"""Invariants of the engine checked on positions reached by random legal play (Hypothesis, derandomized).

STYLE.md 4.7: 15 checkers a side, the mover's pips fall by the dice used less any bear-off overshoot, every play of
a roll uses the same number of dice, the fast generator agrees with the naive one in tests/engine/reference.py, ID
round-trips, every play's text reads back, and random action sequences never corrupt a match.
"""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine import BAR, NACKGAMMON, OFF, STANDARD, Play, Position, ResultKind, legal_plays
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
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.errors import EngineError
from engine.game import Phase as GamePhase
from engine.match import MatchState
from engine.notation import parse_play
from engine.types import WAITING
from engine.variants import ACEY_DEUCEY, ACEY_DEUCEY_ENTER_ALL, Variant
from tests.engine.reference import reference_results

VARIANTS = (STANDARD, NACKGAMMON, ACEY_DEUCEY, ACEY_DEUCEY_ENTER_ALL)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))

QUICK = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No shrinking: a failure is reported as found (the messages say what broke), not after minutes of shrinking.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


@st.composite
def reached(draw: st.DrawFn, variants: tuple[Variant, ...] = VARIANTS) -> tuple[Variant, Position]:
    """A variant and a position reached from its start by up to 80 random legal turns (the mover to play)."""
    variant = draw(st.sampled_from(variants))
    position = Position.initial(variant)
    for _ in range(draw(st.integers(0, 80))):
        dice = draw(DICE)
        legal = legal_plays(position, dice, enter_all_first=variant.enter_all_first)
        if len(legal):
            position = legal[draw(st.integers(0, len(legal) - 1))].apply(position)
        if position.is_game_over():
            break
        position = position.swapped()
    return variant, position


def checker_count(side: tuple[int, ...]) -> int:
    return sum(side)


def dice_for(play: Play, dice: tuple[int, int]) -> tuple[list[int], int] | None:
    """Assign a die to each step: (dice used, total bear-off overshoot), or None if the steps do not fit the roll.

    A step that does not bear off uses the die equal to its distance; a bear-off step uses a die at least as large
    as its distance (the difference is the overshoot).
    """
    pool = Counter([dice[0]] * 4 if dice[0] == dice[1] else list(dice))
    used: list[int] = []
    overshoot = 0
    bear_offs = []
    for step in play.steps:
        distance = (25 if step.src in (BAR, WAITING) else step.src) - step.dst
        if step.dst == OFF:
            bear_offs.append(distance)
            continue
        if pool[distance] <= 0:
            return None
        pool[distance] -= 1
        used.append(distance)
    for distance in sorted(bear_offs, reverse=True):
        fitting = sorted(d for d in pool.elements() if d >= distance)
        if not fitting:
            return None
        die = distance if distance in fitting else fitting[0]
        pool[die] -= 1
        used.append(die)
        overshoot += die - distance
    return used, overshoot


# -- Positions and plays -----------------------------------------------------------------------------------------


@QUICK
@given(reached(), DICE)
def test_checkers_are_conserved_in_every_resulting_position(start: tuple[Variant, Position], dice) -> None:
    variant, position = start
    assert checker_count(position.me) == checker_count(position.opp) == 15
    for after in legal_plays(position, dice, enter_all_first=variant.enter_all_first).positions():
        Position(after.me, after.opp)  # validates: 15 a side, no negative count, no point held by both
        assert checker_count(after.me) == checker_count(after.opp) == 15


@QUICK
@given(reached(), DICE)
def test_pips_fall_by_the_dice_used_less_the_bear_off_overshoot(start: tuple[Variant, Position], dice) -> None:
    variant, position = start
    full = sorted([dice[0]] * 4 if dice[0] == dice[1] else list(dice))
    mover_before, opp_before = position.pips()
    for play in legal_plays(position, dice, enter_all_first=variant.enter_all_first):
        fit = dice_for(play, dice)
        assert fit is not None, f"{play} does not fit {dice}"
        used, overshoot = fit
        mover_after, opp_after = play.apply(position).pips()
        assert mover_before - mover_after == sum(used) - overshoot, str(play)
        if len(play) == len(full):
            assert sorted(used) == full, str(play)  # a full play uses exactly the dice rolled
        # A hit checker on the mover's point p goes from the opponent's point 25 - p to its bar: p pips more.
        assert opp_after - opp_before == sum(s.dst for s in play.steps if s.hit), str(play)


@QUICK
@given(reached(), DICE)
def test_every_play_of_a_roll_uses_the_same_number_of_dice(start: tuple[Variant, Position], dice) -> None:
    variant, position = start
    legal = legal_plays(position, dice, enter_all_first=variant.enter_all_first)
    assert all(len(play) == legal.max_dice for play in legal)
    assert legal.max_dice <= (4 if dice[0] == dice[1] else 2)
    positions = legal.positions()
    assert len(set(positions)) == len(positions), "one play per resulting position"


@QUICK
@given(reached(), DICE)
def test_legal_plays_agree_with_the_reference_generator(start: tuple[Variant, Position], dice) -> None:
    variant, position = start
    got = set(legal_plays(position, dice, enter_all_first=variant.enter_all_first).positions())
    assert got == reference_results(position, dice, variant.enter_all_first)


@QUICK
@given(reached((STANDARD, NACKGAMMON)))
def test_position_id_round_trips(start: tuple[Variant, Position]) -> None:
    _, position = start
    assert Position.from_gnubg_id(position.gnubg_id()) == position
    assert Position.from_gnubg_id(position.swapped().gnubg_id()) == position.swapped()


@QUICK
@given(reached(), DICE)
def test_every_plays_canonical_text_reads_back_to_the_same_position(start: tuple[Variant, Position], dice) -> None:
    variant, position = start
    legal = legal_plays(position, dice, enter_all_first=variant.enter_all_first)
    for play in legal:
        back = parse_play(str(play), position, dice, legal=legal)
        assert back.apply(position) == play.apply(position), str(play)
        assert back in legal


# -- Random action sequences on a match ---------------------------------------------------------------------------

MOVE_TEXTS = ["24/18 13/11", "8/5 6/5", "bar/22", "6/off", "13/7*/4", "", "hello", "25/20", "6/4(4)", "24/13"]


@st.composite
def any_action(draw: st.DrawFn) -> Action:
    """An action of any kind with random fields (sides 0 and 1; mostly illegal where it is drawn)."""
    side = draw(st.integers(0, 1))
    kind = draw(st.sampled_from(list(ResultKind)))
    return draw(
        st.sampled_from(
            [
                OpeningRoll(draw(DICE)),
                Roll(side, draw(DICE)),
                Move(side, draw(st.sampled_from(MOVE_TEXTS))),
                Double(side),
                Take(side),
                Drop(side),
                Resign(side, kind),
                AcceptResignation(side),
                RejectResignation(side),
                ChooseDouble(side, draw(st.integers(1, 6))),
                GameResult(side, kind, draw(st.sampled_from([1, 2, 4]))),
            ]
        )
    )


def guided_action(draw: st.DrawFn, state: MatchState) -> Action:
    """A legal action for ``state`` (a random legal play, cube actions and resignations now and then)."""
    game = state.game
    actor = game.actor
    choice = draw(st.integers(0, 99))
    if game.phase is GamePhase.OPENING:
        dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6)).filter(lambda d: d[0] != d[1]))
        return OpeningRoll(dice)
    if game.phase is GamePhase.ROLL:
        if choice < 10 and game.may_double(actor):
            return Double(actor)
        if choice == 99:
            return Resign(draw(st.integers(0, 1)), draw(st.sampled_from(list(ResultKind))))
        return Roll(actor, draw(DICE))
    if game.phase is GamePhase.DOUBLE_OFFERED:
        return Take(actor) if choice < 80 else Drop(actor)
    if game.phase is GamePhase.RESIGN_OFFERED:
        return AcceptResignation(actor) if choice < 50 else RejectResignation(actor)
    if game.phase is GamePhase.CHOOSE_DOUBLE:
        return ChooseDouble(actor, draw(st.integers(1, 6)))
    legal = game.legal_plays()
    if not len(legal):
        return Move(actor, "")
    play = legal[draw(st.integers(0, len(legal) - 1))]
    return Move(actor, play if choice < 50 else str(play))


def check_match_invariants(state: MatchState) -> None:
    game = state.game
    Position(game.boards[0], game.boards[1])  # 15 a side, no shared point, no negative count
    assert game.on_roll in (0, 1)
    dice_due = game.phase is GamePhase.MOVE or (
        game.phase is GamePhase.RESIGN_OFFERED and game.resume is GamePhase.MOVE
    )
    assert (game.dice is not None) == dice_due
    assert (game.outcome is not None) == (game.phase is GamePhase.OVER)
    for side in (0, 1):
        assert state.score[side] == sum(o.points for o in state.outcomes if o.winner == side)
    for outcome in state.outcomes:
        if outcome.ended_by != "concession":
            assert outcome.points == int(outcome.kind) * outcome.cube_value, outcome
    if state.crawford_game:
        assert not game.cube_enabled
        assert state.length - 1 in state.score


@settings(QUICK, max_examples=40)
@given(
    st.sampled_from([0, 3, 5, 7]),
    st.sampled_from(VARIANTS),
    st.booleans(),
    st.data(),
)
def test_random_action_sequences_never_corrupt_a_match(
    length: int, variant: Variant, crawford_rule: bool, data: st.DataObject
) -> None:
    state = MatchState.new(length, variant=variant, crawford_rule=crawford_rule)
    for _ in range(data.draw(st.integers(20, 250))):
        if state.is_over:
            break
        roll = data.draw(st.integers(0, 99))
        if roll < 70:
            action = guided_action(data.draw, state)
        elif roll < 99:
            action = data.draw(any_action())
        else:
            action = ConcedeMatch(data.draw(st.integers(0, 1)))
        before = copy.deepcopy(state)
        try:
            after = state.apply(action)
        except EngineError:
            assert state == before, f"refused {action} changed the state"
            assert roll >= 70, f"guided action {action} was refused"
            continue
        assert state == before, f"{action} changed the old state"
        assert after != state, f"{action} was accepted but changed nothing"
        check_match_invariants(after)
        assert MatchState.from_snapshot(after.snapshot()) == after
        state = after
