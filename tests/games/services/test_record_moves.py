"""Recording a match move by move: the opening roll, rolls and plays, a whole 7-point match through the Crawford
and post-Crawford games, the caches against an engine replay of the log, and the flat cost of recording."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actor import SYSTEM
from common.errors import ApplicationError, ErrorCode
from engine.actions import Double
from engine.game import Phase
from engine.match import MatchState, replay
from engine.moves import Play
from games import selectors, services
from games.engine_bridge import engine_action, load_state, new_state
from games.models import Action, Game, Match
from tests.games.conftest import as_rows, expected_games, game_rows

pytestmark = pytest.mark.django_db


# -- the opening roll --------------------------------------------------------------------------------------------


def test_opening_roll_the_higher_die_moves_first_with_both_numbers(new_match) -> None:
    match = new_match()
    r = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(2, 5), expected_seq=0)
    assert (r.action.kind, r.action.side, r.action.die1, r.action.die2) == (Action.Kind.OPENING_ROLL, 1, 2, 5)
    assert r.action.seq == 1 and r.match.seq == 1
    assert r.state.game.phase is Phase.MOVE and r.state.game.on_roll == 1 and sorted(r.state.game.dice) == [2, 5]
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS and match.started_at is not None
    assert match.state == r.state.snapshot()
    game = Game.objects.get(match=match)
    assert (game.number, game.start_score1, game.start_score2, game.crawford, game.opening_winner) == (
        1,
        0,
        0,
        False,
        1,
    )
    assert game.winner_side is None and game.points == 0


def test_opening_roll_refusals_write_nothing(new_match, refused) -> None:
    match = new_match()
    with refused(match, ErrorCode.ILLEGAL_ACTION, "equal dice"):
        services.record_opening_roll(match.pk, actor=SYSTEM, dice=(4, 4), expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "1 to 6"):
        services.record_opening_roll(match.pk, actor=SYSTEM, dice=(7, 1), expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "opening roll"):
        services.record_roll(match.pk, actor=SYSTEM, side=0, dice=(3, 3), expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "playing", "opening roll"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=0)
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "already been made"):
        services.record_opening_roll(match.pk, actor=SYSTEM, dice=(5, 1), expected_seq=1)


def test_a_roll_as_first_action_is_the_opening_roll_won_by_its_side(new_match) -> None:
    match = new_match()
    r = services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(6, 4), expected_seq=0)
    assert r.state.game.on_roll == 1 and r.state.game.opening_winner == 1
    assert Game.objects.get(match=match).opening_winner == 1


def test_unknown_match_and_bad_idempotency_keys(new_match, refused) -> None:
    match = new_match()
    with pytest.raises(ApplicationError) as err:
        services.record_opening_roll(match.pk + 1000, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    assert err.value.code is ErrorCode.NOT_FOUND and "no match" in err.value.message
    for key in ("", "k" * 65):
        with refused(match, ErrorCode.INVALID_INPUT, "idempotency key"):
            services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key=key)
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="k" * 64)


# -- rolls and plays ---------------------------------------------------------------------------------------------


def test_a_play_in_any_notation_is_stored_in_canonical_form_with_its_steps_and_position(new_match) -> None:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    r = services.record_play(match.pk, actor=SYSTEM, side=0, play="6/5 8/5", expected_seq=1)
    assert (r.action.kind, r.action.side, r.action.play) == (Action.Kind.PLAY, 0, "8/5 6/5")
    assert sorted(r.action.steps.split()) == ["6/5", "8/5"]
    # The position after the play with the next player on roll (gnubg: the player not on roll encoded first).
    assert r.action.position_id == r.state.game.position().key() == "sGfwATDgc/ABMA"
    assert r.action.match_id_after == r.state.match_id()
    assert r.state.game.phase is Phase.ROLL and r.state.game.on_roll == 1
    r = services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(6, 4), expected_seq=2)
    assert (r.action.kind, r.action.side, r.action.die1, r.action.die2) == (Action.Kind.ROLL, 1, 6, 4)
    legal = r.state.game.legal_plays()
    play = legal[0]
    r = services.record_play(match.pk, actor=SYSTEM, side=1, play=play, expected_seq=3)  # a Play value works too
    assert r.action.play == str(play)


def test_roll_and_play_refusals_write_nothing(new_match, refused) -> None:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "9-point"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="9/6 6/5", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "does not fit the roll"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="24/18", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "move"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="hello", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "player 1's turn"):
        services.record_play(match.pk, actor=SYSTEM, side=1, play="8/5 6/5", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "can be played"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "play the dice"):
        services.record_roll(match.pk, actor=SYSTEM, side=0, dice=(3, 1), expected_seq=1)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "player 2's turn"):
        services.record_roll(match.pk, actor=SYSTEM, side=0, dice=(3, 1), expected_seq=2)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "1 to 6"):
        services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(0, 3), expected_seq=2)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "roll"):
        services.record_play(match.pk, actor=SYSTEM, side=1, play="24/21", expected_seq=2)


def test_a_roll_that_cannot_be_played_is_recorded_as_an_empty_play(new_match, drive, refused) -> None:
    match = new_match(length=0)
    d = drive(match, seed=1)
    d.check_selectors = False
    for _ in range(500):
        if d.game.phase is Phase.MOVE and len(d.game.legal_plays()) == 0:
            break
        if d.game.phase is Phase.MOVE:
            d.play()
        elif d.game.phase is Phase.OPENING:
            d.opening()
        else:
            d.roll()
    else:
        pytest.fail("no unplayable roll in 500 actions")
    side = d.game.on_roll
    assert selectors.live_state(Match.objects.get(pk=match.pk))["legal_plays"] == []
    with refused(match, ErrorCode.ILLEGAL_ACTION, "no legal play"):
        services.record_play(match.pk, actor=SYSTEM, side=side, play="24/18", expected_seq=d.seq)
    r = services.record_play(match.pk, actor=SYSTEM, side=side, play="cannot move", expected_seq=d.seq)
    assert (r.action.play, r.action.steps) == ("", "")
    assert r.state.game.phase is Phase.ROLL and r.state.game.on_roll == 1 - side


# -- a whole match -----------------------------------------------------------------------------------------------


def test_seven_point_match_move_by_move_through_crawford_and_post_crawford(new_match, drive, refused) -> None:
    match = new_match(length=7)
    d = drive(match, seed=7)

    # Game 1: a double taken, then the cube owner's opponent resigns a single: 1 x 2 points.
    d.to_roll_phase()
    d.turns(5)
    assert d.to_roll_phase()
    doubler = d.game.on_roll
    d.double()
    d.take()
    assert (d.game.cube.value, d.game.cube.owner) == (2, 1 - doubler)
    d.turns(4)
    assert d.to_roll_phase()
    resigner = d.game.on_roll
    d.resign(resigner, 1)
    d.accept()
    g1 = d.state.outcomes[-1]
    assert (g1.winner, g1.kind, g1.points, g1.ended_by, g1.cube_value) == (1 - resigner, 1, 2, "resignation", 2)

    # Game 2: a double dropped: the doubler wins the cube value before the double.
    assert d.to_roll_phase()
    d.turns(2)
    assert d.to_roll_phase()
    doubler = d.game.on_roll
    d.double()
    d.drop()
    g2 = d.state.outcomes[-1]
    assert (g2.winner, g2.kind, g2.points, g2.ended_by, g2.cube_value) == (doubler, 1, 1, "drop", 1)

    # Game 3: played to the last checker (at most 3 + 3 = 6 points for anyone: no jump past the Crawford score).
    g3 = d.play_out()
    assert g3.ended_by == "bear-off" and g3.points == int(g3.kind)
    assert max(d.state.score) <= 6

    # Steer a leader to exactly 6 (match length - 1) with resignations.
    while max(d.state.score) < 6:
        leader = 0 if d.state.score[0] >= d.state.score[1] else 1
        assert not d.state.crawford_game
        assert d.to_roll_phase()
        d.resign(1 - leader, min(6 - d.state.score[leader], 3))
        d.accept()

    # The Crawford game: the cube is dead; the trailer wins it (a gammon if that does not end the match).
    crawford_number = d.state.game_number
    assert d.state.crawford_game and not d.state.post_crawford
    leader = 0 if d.state.score[0] == 6 else 1
    trailer = 1 - leader
    assert d.to_roll_phase()
    d.turns(3)
    assert d.to_roll_phase()
    live = selectors.live_state(Match.objects.select_related("player1", "player2").get(pk=match.pk))
    assert live["crawford"] is True and live["cube"]["usable"] is False and "double" not in live["legal_actions"]
    with refused(match, ErrorCode.ILLEGAL_ACTION, "Crawford"):
        services.offer_double(match.pk, actor=SYSTEM, side=d.game.on_roll, expected_seq=d.seq)
    kind = 2 if d.state.score[trailer] + 2 < 7 else 1
    d.resign(leader, kind)
    d.accept()
    assert d.state.outcomes[-1].points == kind and not d.state.is_over

    # Post-Crawford: the trailer doubles at once, the leader takes; games are played out until the match ends.
    post_crawford_doubles = 0
    for _ in range(12):
        if d.state.is_over:
            break
        assert d.state.post_crawford and not d.state.crawford_game
        trailer = 0 if d.state.score[0] < d.state.score[1] else 1

        def trailer_doubles(driver, trailer=trailer) -> bool:
            return driver.game.on_roll == trailer and driver.game.cube.value == 1

        before = sum(1 for a in d.sent if isinstance(a, Double))
        d.play_out(double_when=trailer_doubles)
        post_crawford_doubles += sum(1 for a in d.sent if isinstance(a, Double)) - before
    assert d.state.is_over
    assert post_crawford_doubles >= 1

    # The match row.
    match.refresh_from_db()
    winner = d.state.winner
    assert winner is not None and d.state.score[winner] >= 7
    assert match.status == Match.Status.FINISHED and match.winner == match.player(winner)
    assert match.finished_at is not None and match.finished_at >= match.started_at
    assert match.score == d.state.score and match.seq == len(d.sent)

    # The log: seq 1..n, every row as the driver sent it; replaying it through the engine gives the cached state.
    rows = list(Action.objects.filter(match=match).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(d.sent) + 1))
    from_log = replay([engine_action(r) for r in rows], length=7)
    engine_final, expected = expected_games(d.sent, new_state(match))
    assert from_log.snapshot() == engine_final.snapshot() == match.state
    assert rows[-1].match_id_after == engine_final.match_id()

    # The game rows agree with the engine's replay.
    assert game_rows(match) == as_rows(expected)
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [g.number for g in games if g.crawford] == [crawford_number]
    assert all(g.winner_side is not None for g in games)
    assert (games[0].ended_by, games[0].cube_value, games[0].points) == ("resignation", 2, 2)
    assert (games[1].ended_by, games[1].cube_value, games[1].points) == ("drop", 1, 1)
    assert games[2].ended_by == "bear-off"
    running = [0, 0]
    for g in games:
        assert (g.start_score1, g.start_score2) == tuple(running)
        assert g.points == g.result_kind * g.cube_value or g.ended_by == "drop"
        running[g.winner_side] += g.points
    assert tuple(running) == match.score

    # Closed: nothing more is accepted.
    with refused(match, ErrorCode.MATCH_CLOSED, "finished"):
        services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=match.seq)

    # The caches are rebuildable from the log: the same snapshot, the same game rows.
    cached = (match.state, match.score, match.status, match.winner_id, game_rows(match))
    state = services.rebuild_match(Match.objects.get(pk=match.pk))
    match.refresh_from_db()
    assert state.snapshot() == cached[0]
    assert (match.state, match.score, match.status, match.winner_id, game_rows(match)) == cached


def test_the_cached_state_after_every_action_is_the_engine_replay_of_the_log(new_match, drive) -> None:
    match = new_match(length=0)
    d = drive(match, seed=3)
    d.check_selectors = False
    d.play_out(double_when=lambda drv: drv.game.cube.value < 4)
    d.play_out(double_when=lambda drv: drv.game.cube.value < 2, take_when=lambda drv: False)
    d.play_out()
    rows = list(Action.objects.filter(match=match).order_by("seq"))
    state = MatchState.new(0)
    for row in rows:
        action = engine_action(row)
        assert action is not None
        before = state
        state = state.apply(action)
        assert row.match_id_after == state.match_id()
        if row.kind == Action.Kind.PLAY and not state.outcomes[len(before.outcomes) :]:
            assert row.position_id == state.game.position().key()
    assert load_state(Match.objects.get(pk=match.pk)).snapshot() == state.snapshot()


# -- flat cost ---------------------------------------------------------------------------------------------------


def _advance_to(d, seq: int) -> None:
    """Play on until at least ``seq`` and a mid-game roll (not the first action of a game) is due."""
    while not (d.seq >= seq and d.game.phase is Phase.ROLL and d.game.moves_played > 0):
        if d.game.phase is Phase.OPENING:
            d.opening()
        elif d.game.phase is Phase.ROLL:
            d.roll()
        else:
            d.play()


def _queries_for_a_roll_and_a_play(d) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as roll_queries:
        d.roll()
    while d.game.position().me[0] > 10:  # make sure the measured play cannot end the game
        d.play()
        _advance_to(d, d.seq)
        d.roll()
    with CaptureQueriesContext(connection) as play_queries:
        d.play()
    return len(roll_queries), len(play_queries)


def test_recording_an_action_costs_the_same_number_of_queries_at_seq_5_and_at_seq_300(new_match, drive, cast) -> None:
    match = new_match(length=0)  # a money session never ends by itself
    d = drive(match, seed=11, actors=(cast.as_alice, cast.as_bob))
    d.check_selectors = False
    _advance_to(d, 4)
    early_seq = d.seq
    early = _queries_for_a_roll_and_a_play(d)
    _advance_to(d, 299)
    late_seq = d.seq
    late = _queries_for_a_roll_and_a_play(d)
    assert early_seq < 10 and late_seq >= 299
    assert early == late
    # Lock the match row, insert the action, save the match row, plus the savepoint pair of the service's atomic
    # block inside the test's transaction: no read grows with the log.
    assert early == (5, 5)


def test_a_match_won_with_points_to_spare_finishes(new_match) -> None:
    """RULES.md: points past N still count ("Wins 4 points and the match" at 6-6 in a 7-point match)."""
    match = new_match(length=1)
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    services.offer_resignation(match.pk, actor=SYSTEM, side=1, kind=2, expected_seq=2)
    r = services.accept_resignation(match.pk, actor=SYSTEM, side=0, expected_seq=3)
    assert r.match.status == Match.Status.FINISHED and r.match.score == (2, 0) and r.match.winner_id == match.player1_id
    assert Game.objects.get(match=match).points == 2


def test_play_objects_from_the_engine_are_accepted_as_they_are(new_match) -> None:
    match = new_match()
    r = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(6, 1), expected_seq=0)
    play = next(p for p in r.state.game.legal_plays() if str(p) == "13/7 8/7")
    r = services.record_play(match.pk, actor=SYSTEM, side=0, play=Play(play.steps), expected_seq=1)
    assert r.action.play == "13/7 8/7"
