"""Resignations: offered for a single, gammon or backgammon; rejected (play goes on) or accepted (kind x cube)."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from engine.game import Phase
from games import selectors, services
from games.models import Action, Game, Match

pytestmark = pytest.mark.django_db


def _live(match: Match) -> dict:
    return selectors.live_state(Match.objects.select_related("player1", "player2").get(pk=match.pk))


def test_a_rejected_resignation_before_the_roll_lets_play_go_on(new_match, drive) -> None:
    match = new_match()
    d = drive(match, seed=1)
    d.to_roll_phase()
    side = d.game.on_roll
    r = d.resign(side, 1)
    assert (r.action.kind, r.action.side, r.action.value) == (Action.Kind.RESIGN, side, 1)
    live = _live(match)
    assert live["resignation"] == {"side": side, "kind": "single"}
    assert live["legal_actions"] == ["accept-resignation", "reject-resignation"] and live["to_act"] == 1 - side
    r = d.reject()
    assert (r.action.kind, r.action.side) == (Action.Kind.REJECT_RESIGNATION, 1 - side)
    assert r.state.game.phase is Phase.ROLL and r.state.game.on_roll == side and r.state.game.resignation is None
    assert _live(match)["resignation"] is None
    d.roll()
    d.play()
    assert d.game.on_roll == 1 - side and not d.state.outcomes


def test_a_resignation_after_the_roll_by_either_player_resumes_with_the_same_dice(new_match, drive) -> None:
    match = new_match()
    d = drive(match, seed=2)
    d.to_roll_phase()
    mover = d.game.on_roll
    d.roll()
    dice = d.game.dice
    d.resign(1 - mover, 2)  # the player not on roll may offer too
    assert _live(match)["resignation"] == {"side": 1 - mover, "kind": "gammon"}
    d.reject()
    assert d.game.phase is Phase.MOVE and d.game.dice == dice and d.game.on_roll == mover
    d.play()


@pytest.mark.parametrize("kind", [1, 2, 3])
def test_an_accepted_resignation_scores_kind_times_cube(new_match, drive, kind: int) -> None:
    match = new_match(length=0)
    d = drive(match, seed=kind)
    d.to_roll_phase()
    d.double()
    d.take()
    taker = d.game.cube.owner
    resigner = 1 - taker
    d.resign(resigner, kind)
    r = d.accept()
    assert (r.action.kind, r.action.side) == (Action.Kind.ACCEPT_RESIGNATION, taker)
    outcome = r.state.outcomes[-1]
    assert (outcome.winner, int(outcome.kind), outcome.points, outcome.ended_by) == (
        taker,
        kind,
        2 * kind,
        "resignation",
    )
    game = Game.objects.get(match=match, number=1)
    assert (game.winner_side, game.result_kind, game.ended_by, game.cube_value, game.points) == (
        taker,
        kind,
        "resignation",
        2,
        2 * kind,
    )
    assert r.match.score[taker] == 2 * kind and r.state.game_number == 2


def test_resignation_refusals_write_nothing(new_match, drive, refused) -> None:
    match = new_match()
    d = drive(match, seed=3)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "cannot be offered now"):
        services.offer_resignation(match.pk, actor=SYSTEM, side=0, kind=1, expected_seq=0)
    d.to_roll_phase()
    side = d.game.on_roll
    for kind in (0, 4, "gammon"):
        with refused(match, ErrorCode.INVALID_INPUT, "single (1), gammon (2) or backgammon (3)"):
            services.offer_resignation(match.pk, actor=SYSTEM, side=side, kind=kind, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "accepting", "not possible now"):
        services.accept_resignation(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "rejecting", "not possible now"):
        services.reject_resignation(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    d.resign(side, 3)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "accepting", f"player {2 - side}'s turn"):
        services.accept_resignation(match.pk, actor=SYSTEM, side=side, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "cannot be offered now", "accept or reject"):
        services.offer_resignation(match.pk, actor=SYSTEM, side=1 - side, kind=1, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "rolling", "accept or reject"):
        services.record_roll(match.pk, actor=SYSTEM, side=side, dice=(3, 1), expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "doubling", "accept or reject"):
        services.offer_double(match.pk, actor=SYSTEM, side=side, expected_seq=d.seq)
    d.reject()
    d.double()
    with refused(match, ErrorCode.ILLEGAL_ACTION, "cannot be offered now", "take or drop"):
        services.offer_resignation(match.pk, actor=SYSTEM, side=1 - side, kind=1, expected_seq=d.seq)
