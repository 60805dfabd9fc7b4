"""Retries and stale writes: an idempotency key answers a repeated request with the first result (one row); an
expected sequence number other than the match's is refused as STALE_SEQUENCE with the current one, never merged.

A key belongs to its match and its sender (an entry link, an account) and to the request it was first used for: a
retry of that request answers the first row, whatever happened since (the sequence number, a closed match); the
same key with another request (another action, other dice, another play) or from another sender is refused with
IDEMPOTENCY_KEY_REUSED (422) and the first row's seq, so that no action is dropped without a word.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from games import services
from games.models import Action, Match

pytestmark = pytest.mark.django_db


def _opened(new_match) -> Match:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="open-1")
    return match


def test_the_same_key_twice_returns_the_first_row_and_writes_one(new_match) -> None:
    match = new_match()
    first = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="k1")
    again = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="k1")
    assert first.retried is False and again.retried is True
    assert again.action.pk == first.action.pk and again.action.idempotency_key == "k1"
    assert again.state.snapshot() == first.state.snapshot() and again.match.seq == 1
    assert Action.objects.filter(match=match).count() == 1 and Match.objects.get(pk=match.pk).seq == 1


def test_the_same_key_with_another_request_is_refused_not_answered(new_match, refused) -> None:
    match = _opened(new_match)
    r = services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1, idempotency_key="p1")
    # Another play, another kind of action, other dice: each is refused, with the first row's seq; nothing written.
    for call in (
        lambda: services.record_play(
            match.pk, actor=SYSTEM, side=0, play="24/23 13/10", expected_seq=1, idempotency_key="p1"
        ),
        lambda: services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=2, idempotency_key="p1"),
        lambda: services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(6, 6), expected_seq=2, idempotency_key="p1"),
    ):
        with refused(match, ErrorCode.IDEMPOTENCY_KEY_REUSED, "'p1'", "for a different request (action 2") as err:
            call()
        assert err.value.status == 422 and err.value.extra == {"seq": 2}
    # The same play again, spaced differently: a retry.
    again = services.record_play(match.pk, actor=SYSTEM, side=0, play=" 8/5  6/5", expected_seq=1, idempotency_key="p1")
    assert again.retried is True and again.action.pk == r.action.pk
    assert Action.objects.filter(match=match).count() == 2


def test_a_key_is_the_senders_own(new_match, cast, refused) -> None:
    match = new_match()
    alice, bob = cast.as_alice, cast.as_bob
    first = services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0, idempotency_key="k")
    with refused(match, ErrorCode.IDEMPOTENCY_KEY_REUSED, "by another sender"):
        services.record_opening_roll(match.pk, actor=bob, dice=(3, 1), expected_seq=0, idempotency_key="k")
    again = services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0, idempotency_key="k")
    assert again.retried and again.action.pk == first.action.pk


def test_a_retry_after_the_match_moved_on_or_closed_still_answers(new_match, cast) -> None:
    match = _opened(new_match)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    again = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="open-1")
    assert again.retried is True and again.action.seq == 1 and again.match.seq == 2
    services.void_match(match.pk, actor=cast.as_director, reason="x")
    again = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="open-1")
    assert again.retried is True and again.action.seq == 1


def test_keys_are_per_match(new_match) -> None:
    one, two = new_match(), new_match()
    a = services.record_opening_roll(one.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="same")
    b = services.record_opening_roll(two.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0, idempotency_key="same")
    assert not a.retried and not b.retried and a.action.pk != b.action.pk
    assert Action.objects.filter(idempotency_key="same").count() == 2


def test_no_key_means_no_deduplication(new_match, refused) -> None:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=None)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "already been made"):
        services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=None)
    assert Action.objects.get(match=match).idempotency_key is None


def test_a_refused_request_does_not_burn_its_key(new_match, refused) -> None:
    match = _opened(new_match)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "9-point"):
        services.record_play(match.pk, actor=SYSTEM, side=0, play="9/6 6/5", expected_seq=1, idempotency_key="p")
    r = services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1, idempotency_key="p")
    assert r.retried is False and r.action.idempotency_key == "p"


# -- stale sequence numbers --------------------------------------------------------------------------------------


def _writes(match: Match, cast) -> dict[str, Callable[[int | None], object]]:
    """One write of each service group, valid at seq 2 of a 7-point match after 3-1 played 8/5 6/5."""
    director = cast.as_director
    return {
        "roll": lambda seq: services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(6, 5), expected_seq=seq),
        "double": lambda seq: services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=seq),
        "resign": lambda seq: services.offer_resignation(match.pk, actor=SYSTEM, side=1, kind=1, expected_seq=seq),
        "undo": lambda seq: services.undo_last_action(match.pk, actor=director, reason="x", expected_seq=seq),
        "forfeit": lambda seq: services.forfeit_match(
            match.pk, actor=director, loser_side=1, reason="x", expected_seq=seq
        ),
        "void": lambda seq: services.void_match(match.pk, actor=director, reason="x", expected_seq=seq),
    }


WRITES = ["roll", "double", "resign", "undo", "forfeit", "void"]


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("expected_seq", [0, 1, 3, 50])
def test_a_stale_expected_seq_is_refused_with_the_current_seq(new_match, cast, refused, write, expected_seq) -> None:
    match = _opened(new_match)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    with refused(
        match, ErrorCode.STALE_SEQUENCE, "moved on", f"action 2 is the latest, you expected {expected_seq}"
    ) as err:
        _writes(match, cast)[write](expected_seq)
    assert err.value.extra == {"seq": 2} and err.value.as_dict()["seq"] == 2 and err.value.status == 409


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("expected_seq", [2, None])
def test_the_current_seq_or_none_is_accepted(new_match, cast, write, expected_seq) -> None:
    match = _opened(new_match)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    r = _writes(match, cast)[write](expected_seq)
    assert r.match.seq == 3


def test_stale_sequence_for_scoresheet_and_correction_services(new_match, drive, cast, refused) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=1, winner=1, kind=1, reason="x", expected_seq=0
        )
    d.result(0, 2)
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.reopen_match(match.pk, actor=cast.as_director, reason="x", expected_seq=1)
    services.reopen_match(match.pk, actor=cast.as_director, reason="x", expected_seq=2)
