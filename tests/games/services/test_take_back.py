"""A player takes back his own last entry (games.services.take_back): dice, a play, a cube action, a game result,
while his opponent has entered nothing since. Each take-back is a CORRECTION row naming what it undoes and who
took it back; once the opponent has entered something, the take-back is refused and writes nothing."""

from __future__ import annotations

import pytest

from common.actor import Actor
from common.errors import ErrorCode
from games import services
from games.access import new_entry_token
from games.models import Action, Match

pytestmark = pytest.mark.django_db


def links(match: Match) -> tuple[Actor, Actor]:
    return Actor(token=new_entry_token(match, 0)), Actor(token=new_entry_token(match, 1))


def test_a_player_takes_back_his_dice_then_his_play(new_match, refused) -> None:
    match = new_match()
    alice, bob = links(match)
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    played = services.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1)
    with refused(match, ErrorCode.CONFLICT, "no entry to take back"):
        services.take_back(match.pk, actor=bob, side=1, expected_seq=2)
    with refused(match, ErrorCode.FORBIDDEN):
        services.take_back(match.pk, actor=bob, side=0, expected_seq=2)
    back = services.take_back(match.pk, actor=alice, side=0, expected_seq=2)
    assert (back.action.kind, back.action.undoes_id, back.action.reason) == (
        Action.Kind.CORRECTION,
        played.action.pk,
        "taken back by Alice",
    )
    assert back.action.entered_by_token == alice.token
    assert back.state.game.dice == (3, 1) and back.state.game.actor == 0, "Alice plays her 3-1 again"
    again = services.take_back(match.pk, actor=alice, side=0, expected_seq=3)  # and the opening roll too
    assert again.state.game_number == 1 and again.match.seq == 4
    assert services.take_back_target(Match.objects.get(pk=match.pk), 0) is None, "nothing of hers is left"


def test_no_take_back_once_the_opponent_entered_something(new_match, refused) -> None:
    match = new_match()
    alice, bob = links(match)
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1)
    services.record_roll(match.pk, actor=bob, side=1, dice=(6, 5), expected_seq=2)
    with refused(match, ErrorCode.CONFLICT, "Alice has no entry to take back", "opponent has entered"):
        services.take_back(match.pk, actor=alice, side=0, expected_seq=3)
    with refused(match, ErrorCode.STALE_SEQUENCE):
        services.take_back(match.pk, actor=bob, side=1, expected_seq=2)
    assert services.take_back(match.pk, actor=bob, side=1, expected_seq=3).state.game.actor == 1


def test_a_cube_action_is_taken_back(new_match) -> None:
    match = new_match()
    alice, bob = links(match)
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1)
    services.offer_double(match.pk, actor=bob, side=1, expected_seq=2)
    dropped = services.drop(match.pk, actor=alice, side=0, expected_seq=3)
    assert dropped.state.score == (0, 1)
    back = services.take_back(match.pk, actor=alice, side=0, expected_seq=4)
    assert back.state.score == (0, 0) and back.state.game.phase.value == "double-offered"


def test_the_last_game_result_of_a_scoresheet_match_is_taken_back(new_match) -> None:
    match = new_match(length=1, entry_mode="scoresheet")
    alice, _ = links(match)
    services.record_game_result(match.pk, actor=alice, winner=0, kind=1, expected_seq=0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    back = services.take_back(match.pk, actor=alice, side=0, expected_seq=1)
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.score, match.winner_id) == (Match.Status.SCHEDULED, (0, 0), None)
    assert back.action.reason == "taken back by Alice"


def test_a_director_entry_is_not_a_players_to_take_back(new_match, cast, refused) -> None:
    match = new_match(entry_mode="scoresheet")
    alice, _ = links(match)
    services.record_game_result(match.pk, actor=cast.as_director, winner=0, kind=1, expected_seq=0)
    with refused(match, ErrorCode.CONFLICT, "no entry to take back"):
        services.take_back(match.pk, actor=alice, side=0, expected_seq=1)
    back = services.take_back(match.pk, actor=cast.as_director, side=0, expected_seq=1)
    assert back.action.reason == "taken back by the director"


# -- its idempotency key: the rule of every action ---------------------------------------------------------------------


def test_a_take_back_retried_with_its_key_answers_the_first_row(new_match) -> None:
    match = new_match()
    alice, _bob = links(match)
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1)
    first = services.take_back(match.pk, actor=alice, side=0, expected_seq=2, idempotency_key="tb-1")
    again = services.take_back(match.pk, actor=alice, side=0, expected_seq=2, idempotency_key="tb-1")
    assert (first.retried, again.retried) == (False, True) and again.action.pk == first.action.pk
    assert first.action.request_digest, "the request is kept with its key, as every action's is"
    assert Match.objects.get(pk=match.pk).seq == 3, "one row"


def test_a_take_backs_key_used_by_another_sender_or_for_another_request_is_refused(new_match, refused) -> None:
    """The same key from the opponent's phone, or a key that served another action, was answered as if recorded
    (the first row, retried): it is refused with the first row's seq, and nothing is written."""
    match = new_match()
    alice, bob = links(match)
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1, idempotency_key="k")
    with refused(match, ErrorCode.IDEMPOTENCY_KEY_REUSED, "'k'", "for a different request (action 2") as err:
        services.take_back(match.pk, actor=alice, side=0, expected_seq=2, idempotency_key="k")
    assert err.value.status == 422 and err.value.extra == {"seq": 2}
    services.take_back(match.pk, actor=alice, side=0, expected_seq=2, idempotency_key="tb")
    services.record_play(match.pk, actor=alice, side=0, play="24/21 24/23", expected_seq=3)
    services.record_roll(match.pk, actor=bob, side=1, dice=(6, 5), expected_seq=4)
    with refused(match, ErrorCode.IDEMPOTENCY_KEY_REUSED, "'tb'", "by another sender"):
        services.take_back(match.pk, actor=bob, side=1, expected_seq=5, idempotency_key="tb")
    with refused(match, ErrorCode.INVALID_INPUT, "1 to 64 characters"):
        services.take_back(match.pk, actor=bob, side=1, expected_seq=5, idempotency_key="x" * 65)
