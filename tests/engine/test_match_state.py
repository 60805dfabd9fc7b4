"""A match as a state machine over games (engine/match.py): scores, the Crawford rule, the match end, snapshots
and replay. RULES.md "The doubling cube" (Crawford) and "Ending a game and scoring" (match play).

Most games are entered as scoresheet ``GameResult`` actions; a few are played so the cube can be tried.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine import NACKGAMMON, ResultKind
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
from engine.errors import EngineError, IllegalActionError, InvalidPositionError
from engine.game import Phase
from engine.match import MatchState, ReplayError, replay
from engine.variants import ACEY_DEUCEY, Variant

SINGLE, GAMMON, BACKGAMMON = ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON


def results(state: MatchState, *games: tuple[int, ResultKind, int]) -> MatchState:
    """Apply scoresheet results (winner, kind, cube value) one after another."""
    for winner, kind, cube in games:
        state = state.apply(GameResult(winner, kind, cube))
    return state


def refused(state: MatchState, action: Action, match: str | None = None) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(EngineError, match=match):
        state.apply(action)
    assert state == before


def open_and_pass_to_side1(state: MatchState) -> MatchState:
    """Play the opening 3-1 for side 0 (8/5 6/5): side 1 is then on roll, before rolling."""
    return state.apply(OpeningRoll((3, 1))).apply(Move(0, "8/5 6/5"))


# -- A whole 7-point match through Crawford and post-Crawford ---------------------------------------------------


def test_seven_point_match_through_crawford_and_post_crawford() -> None:
    match = MatchState.new(7)
    assert (match.score, match.game_number, match.crawford_game, match.post_crawford) == ((0, 0), 1, False, False)

    match = results(match, (0, GAMMON, 2))  # 4-0
    assert (match.score, match.game_number, match.crawford_game) == ((4, 0), 2, False)
    match = results(match, (1, SINGLE, 1))  # 4-1
    assert not match.crawford_game
    match = results(match, (0, SINGLE, 2))  # 6-1: side 0 is one away, the next game is the Crawford game
    assert (match.score, match.game_number) == ((6, 1), 4)
    assert match.crawford_game
    assert not match.post_crawford
    assert not match.game.cube_enabled
    assert match.away() == (1, 6)

    match = results(match, (1, GAMMON, 1))  # the Crawford game: a gammon counts 2
    assert match.score == (6, 3)
    assert not match.crawford_game
    assert match.post_crawford
    assert match.game.cube_enabled

    match = results(match, (1, SINGLE, 2))  # post-Crawford: the cube is live again
    assert match.score == (6, 5)
    assert match.post_crawford
    assert not match.is_over

    match = results(match, (0, GAMMON, 1))  # 6-5, then a gammon: 8-5, past 7 still recorded
    assert match.score == (8, 5)
    assert match.is_over
    assert match.winner == 0
    assert [o.points for o in match.outcomes] == [4, 1, 2, 2, 2, 2]
    assert match.game_number == 6  # the last game played; no game 7 is set up


def test_crawford_game_is_the_first_game_after_reaching_match_length_minus_one_only() -> None:
    match = results(MatchState.new(7), (1, SINGLE, 4), (1, SINGLE, 2))  # 0-6
    assert match.crawford_game
    match = results(match, (0, SINGLE, 1))  # Crawford game played: 1-6
    assert not match.crawford_game and match.post_crawford
    match = results(match, (0, BACKGAMMON, 1), (0, SINGLE, 2))  # 4-6, then 6-6: both one away
    assert match.score == (6, 6)
    assert not match.crawford_game  # never a second Crawford game
    assert match.post_crawford
    assert match.game.cube_enabled


def test_a_crawford_game_cannot_end_by_a_drop() -> None:
    crawford = results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2))  # 6-0: the Crawford game
    assert crawford.crawford_game
    refused(crawford, GameResult(1, SINGLE, 1, "drop"), match="Crawford game cannot end by a drop")
    assert crawford.apply(GameResult(1, SINGLE, 1, "resignation")).score == (6, 1)
    post = crawford.apply(GameResult(1, SINGLE, 1))  # post-Crawford: the cube is live, a drop ends a game again
    assert post.apply(GameResult(1, SINGLE, 2, "drop")).score == (6, 3)


def test_crawford_game_also_when_the_trailer_reaches_match_length_minus_one_first() -> None:
    match = results(MatchState.new(5), (1, SINGLE, 4))  # 0-4 in a 5-point match
    assert match.crawford_game


def test_jumping_past_match_length_minus_one_is_no_crawford_game() -> None:
    match = results(MatchState.new(7), (0, SINGLE, 4))  # 4-0
    assert not match.crawford_game
    match = results(match, (0, SINGLE, 1))  # 5-0
    assert not match.crawford_game
    match = results(match, (0, GAMMON, 2))  # 9-0: over, not Crawford
    assert match.is_over
    assert not match.crawford_game


def test_no_double_in_the_crawford_game() -> None:
    crawford = results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2))
    assert crawford.crawford_game
    game = open_and_pass_to_side1(crawford)
    assert not game.game.may_double(1)
    refused(game, Double(1), "Crawford")


def test_scoresheet_result_with_a_turned_cube_refused_in_the_crawford_game() -> None:
    crawford = results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2))
    refused(crawford, GameResult(1, SINGLE, 2), "Crawford")
    assert crawford.apply(GameResult(1, GAMMON, 1)).score == (6, 2)  # a gammon counts in the Crawford game


def test_doubles_allowed_post_crawford() -> None:
    post = results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2), (1, SINGLE, 1))
    assert post.post_crawford
    game = open_and_pass_to_side1(post)
    assert game.game.may_double(1)
    offered = game.apply(Double(1))
    assert offered.game.phase is Phase.DOUBLE_OFFERED
    dropped = offered.apply(Drop(0))
    assert dropped.score == (6, 2)  # a drop costs the pre-double value


def test_drop_costs_the_pre_double_value_in_match_play() -> None:
    match = open_and_pass_to_side1(MatchState.new(5)).apply(Double(1)).apply(Take(0))
    match = match.apply(Roll(1, (6, 4))).apply(Move(1, "24/14")).apply(Double(0)).apply(Drop(1))
    assert match.score == (2, 0)
    assert match.outcomes[-1].ended_by == "drop"
    assert match.game.phase is Phase.OPENING  # the next game is set up


def test_resignation_in_match_play_scores_kind_times_cube() -> None:
    match = open_and_pass_to_side1(MatchState.new(9)).apply(Double(1)).apply(Take(0))
    match = match.apply(Resign(1, GAMMON))
    refused(match, AcceptResignation(1))
    rejected = match.apply(RejectResignation(0))
    assert rejected.score == (0, 0)
    assert rejected.game.phase is Phase.ROLL
    accepted = match.apply(AcceptResignation(0))
    assert accepted.score == (4, 0)


def test_match_ends_when_a_score_reaches_the_length() -> None:
    match = results(MatchState.new(3), (0, SINGLE, 2), (1, SINGLE, 1))  # 2-1 after the Crawford game
    assert not match.is_over
    assert match.winner is None
    match = results(match, (0, SINGLE, 1))
    assert (match.score, match.is_over, match.winner) == ((3, 1), True, 0)


@pytest.mark.parametrize(
    "action",
    [
        GameResult(0, SINGLE, 1),
        OpeningRoll((3, 1)),
        Roll(0, (3, 1)),
        Double(0),
        Resign(1, SINGLE),
        ConcedeMatch(1),
    ],
)
def test_no_game_starts_after_the_match_is_won(action: Action) -> None:
    over = results(MatchState.new(3), (1, BACKGAMMON, 1))
    assert over.is_over
    refused(over, action, "no game starts after the match is won")


def test_scores_are_the_sum_of_the_games() -> None:
    match = results(MatchState.new(11), (0, GAMMON, 2), (1, BACKGAMMON, 1), (1, SINGLE, 4), (0, SINGLE, 1))
    for side in (0, 1):
        assert match.score[side] == sum(o.points for o in match.outcomes if o.winner == side)


# -- Match configurations -------------------------------------------------------------------------------------


def test_without_the_crawford_rule_there_is_never_a_crawford_game() -> None:
    match = results(MatchState.new(7, crawford_rule=False), (0, SINGLE, 4), (0, SINGLE, 2))
    assert match.score == (6, 0)
    assert not match.crawford_game
    assert not match.post_crawford
    assert match.game.cube_enabled
    assert open_and_pass_to_side1(match).apply(Double(1)).game.phase is Phase.DOUBLE_OFFERED


def test_one_point_match() -> None:
    match = MatchState.new(1)
    assert not match.crawford_game
    over = results(match, (1, SINGLE, 1))
    assert (over.score, over.is_over, over.winner) == ((0, 1), True, 1)


def test_money_play_never_ends_and_has_no_crawford_game() -> None:
    money = MatchState.new(0)
    for i in range(30):
        money = money.apply(GameResult(i % 2, BACKGAMMON, 64))
        assert not money.is_over
        assert money.winner is None
        assert not money.crawford_game
        assert money.game.cube_enabled
    assert money.score == (15 * 192, 15 * 192)
    assert money.game_number == 31


def test_money_play_cannot_be_conceded_as_a_match() -> None:
    refused(MatchState.new(0), ConcedeMatch(0), "money")


def test_negative_match_length_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="1 or more points"):
        MatchState.new(-1)


def test_conceding_the_match_awards_the_points_needed() -> None:
    match = results(MatchState.new(5), (0, SINGLE, 2))  # 2-0
    conceded = match.apply(ConcedeMatch(0))
    assert (conceded.score, conceded.is_over, conceded.winner) == ((2, 5), True, 1)
    assert conceded.outcomes[-1].ended_by == "concession"
    mid_game = open_and_pass_to_side1(match).apply(ConcedeMatch(1))
    assert (mid_game.score, mid_game.winner) == ((5, 0), 0)


def test_conceding_for_a_side_that_does_not_exist_is_refused() -> None:
    refused(MatchState.new(5), ConcedeMatch(2), "no side 2")


def test_variant_is_used_for_every_game() -> None:
    match = results(MatchState.new(5, variant=NACKGAMMON), (0, SINGLE, 1))
    assert match.game.variant == NACKGAMMON
    assert match.game.position().pips() == (194, 194)


# -- Snapshots ------------------------------------------------------------------------------------------------


def random_action(rng: random.Random, state: MatchState) -> Action:
    """A legal action for ``state``: a random play, with doubles, takes, drops and resignations mixed in."""
    game = state.game
    actor = game.actor
    if game.phase is Phase.OPENING:
        d0, d1 = rng.sample(range(1, 7), 2)
        return OpeningRoll((d0, d1))
    if game.phase is Phase.ROLL:
        if game.may_double(actor) and rng.random() < 0.1:
            return Double(actor)
        if rng.random() < 0.01:
            return Resign(actor, rng.choice(list(ResultKind)))
        return Roll(actor, (rng.randint(1, 6), rng.randint(1, 6)))
    if game.phase is Phase.DOUBLE_OFFERED:
        return Take(actor) if rng.random() < 0.8 else Drop(actor)
    if game.phase is Phase.RESIGN_OFFERED:
        return AcceptResignation(actor) if rng.random() < 0.5 else RejectResignation(actor)
    if game.phase is Phase.CHOOSE_DOUBLE:
        return ChooseDouble(actor, rng.randint(1, 6))
    legal = game.legal_plays()
    return Move(actor, rng.choice(list(legal)) if len(legal) else "")


def play_match(length: int, seed: int, variant: Variant | None = None) -> list[tuple[Action, MatchState]]:
    rng = random.Random(seed)
    state = MatchState.new(length, variant=variant) if variant else MatchState.new(length)
    history = [(Resign(0, SINGLE), state)]  # the first entry's action is a placeholder
    while not state.is_over and len(history) < 3000:
        action = random_action(rng, state)
        state = state.apply(action)
        history.append((action, state))
    return history


@pytest.mark.parametrize(("length", "seed", "variant"), [(5, 1, None), (3, 2, NACKGAMMON), (3, 3, ACEY_DEUCEY)])
def test_snapshot_round_trip_at_every_state_of_a_match(length: int, seed: int, variant: Variant | None) -> None:
    history = play_match(length, seed, variant)
    assert history[-1][1].is_over
    phases = set()
    for _, state in history:
        text = state.snapshot()
        assert MatchState.from_snapshot(text) == state
        phases.add(state.game.phase)
    assert {Phase.OPENING, Phase.ROLL, Phase.MOVE} <= phases


def test_snapshot_round_trip_of_a_custom_variant() -> None:
    custom = Variant.custom("corner", {24: 3, 13: 4, 8: 3, 6: 5})
    state = MatchState.new(3, variant=custom).apply(OpeningRoll((6, 5)))
    back = MatchState.from_snapshot(state.snapshot())
    assert back == state
    assert back.variant.layout == custom.layout


def test_snapshot_round_trip_through_crawford() -> None:
    for state in (
        results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2)),
        results(MatchState.new(7), (0, SINGLE, 4), (0, SINGLE, 2), (1, GAMMON, 1)),
        results(MatchState.new(7, crawford_rule=False), (0, SINGLE, 4)),
    ):
        assert MatchState.from_snapshot(state.snapshot()) == state


@pytest.mark.parametrize("text", ["", "{}", "[1]", '{"v": 99}', "not json"])
def test_snapshot_garbage_is_refused(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        MatchState.from_snapshot(text)


# -- Replay ---------------------------------------------------------------------------------------------------


def test_replay_gives_the_same_state_as_applying_the_actions() -> None:
    history = play_match(3, 7)
    actions = [action for action, _ in history[1:]]
    assert replay(actions, length=3) == history[-1][1]


def test_replay_reports_the_index_of_the_first_illegal_action() -> None:
    actions: list[Action] = [
        GameResult(0, SINGLE, 1),
        OpeningRoll((3, 1)),
        Move(0, "8/5 6/5"),
        Roll(1, (6, 4)),
        Move(1, "13/10 13/9"),  # does not fit 6-4
        Roll(0, (1, 1)),
    ]
    with pytest.raises(ReplayError) as info:
        replay(actions, length=5)
    assert info.value.index == 4
    assert info.value.action == actions[4]
    assert "does not fit" in str(info.value.reason)
    assert str(info.value).startswith("action 5 ")


def test_replay_reports_actions_after_the_match_end() -> None:
    with pytest.raises(ReplayError) as info:
        replay([GameResult(0, GAMMON, 1), GameResult(1, SINGLE, 1)], length=2)
    assert info.value.index == 1
    assert "no game starts after the match is won" in str(info.value)


def test_replay_from_a_start_state() -> None:
    start = results(MatchState.new(5), (0, SINGLE, 1))
    state = replay([GameResult(1, GAMMON, 1)], length=5, start=start)
    assert state.score == (1, 2)


# -- A casual match: no cube, no gammons (the beginners' rule sheet) ---------------------------------------------


def test_a_casual_match_has_no_cube_and_every_game_is_worth_one_point() -> None:
    casual = MatchState.new(3, casual=True)
    assert casual.casual and not casual.game.cube_enabled and not casual.crawford_rule
    refused(casual, GameResult(0, GAMMON, 1), "no gammons")
    refused(casual, GameResult(0, SINGLE, 2), "no doubling cube")
    refused(casual, GameResult(0, SINGLE, 1, "drop"), "no doubling cube")
    played = open_and_pass_to_side1(casual).apply(Roll(1, (6, 5)))
    refused(played, Resign(1, GAMMON), "no gammons")
    ready = casual.apply(OpeningRoll((3, 1))).apply(Move(0, "8/5 6/5"))
    refused(ready, Double(1), "no doubling cube")
    after = results(casual, (0, SINGLE, 1), (1, SINGLE, 1))
    assert after.score == (1, 1) and after.game.casual and not after.game.cube_enabled
    assert MatchState.from_snapshot(after.snapshot()) == after


def test_a_casual_game_borne_off_against_a_gammon_scores_one_point() -> None:
    me = [0] * 27
    me[0], me[1] = 14, 1  # 14 off, the last checker on the 1 point
    opp = [0] * 27
    opp[12] = 15  # nothing off, none in the winner's home: a gammon in a game with gammons
    for casual, points, kind in ((True, 1, SINGLE), (False, 2, GAMMON)):
        state = MatchState.new(5, casual=casual)
        game = state.game._with(boards=(tuple(me), tuple(opp)), phase=Phase.ROLL, on_roll=0)
        over = state._with(game=game).apply(Roll(0, (2, 1))).apply(Move(0, "1/off"))
        assert over.score == (points, 0) and over.outcomes[-1].kind is kind
