"""A player's request for a correction (services.request_correction) and its answer (services.answer_correction)
sent again, as a phone does when the answer to its first send was lost: the same request (its idempotency key)
finds the first one whatever became of it; the same answer by the same side answers without writing; anything else
is refused with a word and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games import access, services
from games.models import Action, CorrectionRequest, Match

pytestmark = pytest.mark.django_db


def too_late_to_take_back(new_match: Any) -> tuple[Match, Actor, Actor]:
    """Alice played 24/21 6/5 (she meant 8/5 6/5) and Bob has rolled since: she may only ask."""
    match = new_match(length=5)
    alice, bob = (Actor(token=access.new_entry_token(match, side)) for side in (0, 1))
    services.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=alice, side=0, play="24/21 6/5", expected_seq=1)
    services.record_roll(match.pk, actor=bob, side=1, dice=(6, 5), expected_seq=2)
    return match, alice, bob


def asked(match: Match) -> list[tuple[int, str]]:
    return list(CorrectionRequest.objects.filter(match=match).order_by("pk").values_list("side", "status"))


def test_a_request_sent_again_with_its_key_is_the_first_one_whatever_became_of_it(new_match: Any) -> None:
    match, alice, bob = too_late_to_take_back(new_match)
    ask = {"actor": alice, "side": 0, "reason": "I meant 8/5 6/5", "expected_seq": 3, "idempotency_key": "ask-1"}
    first = services.request_correction(match.pk, **ask)
    assert services.request_correction(match.pk, **ask).pk == first.pk
    services.answer_correction(first.pk, actor=bob, accept=False)
    again = services.request_correction(match.pk, **ask)  # the refusal came in between: still the first one
    assert (again.pk, again.status) == (first.pk, CorrectionRequest.Status.REFUSED)
    assert asked(match) == [(0, "refused")]
    other = services.request_correction(match.pk, **{**ask, "idempotency_key": "ask-2"})  # a new request
    assert other.pk != first.pk and asked(match) == [(0, "refused"), (0, "open")]


def test_a_key_that_asked_for_the_other_side_is_refused(new_match: Any) -> None:
    match, alice, bob = too_late_to_take_back(new_match)
    services.request_correction(match.pk, actor=alice, side=0, reason="wrong", expected_seq=3, idempotency_key="k")
    with pytest.raises(ApplicationError) as refused:
        services.request_correction(match.pk, actor=bob, side=1, reason="mine", expected_seq=3, idempotency_key="k")
    assert refused.value.code is ErrorCode.IDEMPOTENCY_KEY_REUSED
    assert "a new request needs a new key" in refused.value.message
    assert asked(match) == [(0, "open")]


def test_the_same_answer_again_writes_nothing_and_another_one_is_refused(new_match: Any, cast: Any) -> None:
    match, alice, bob = too_late_to_take_back(new_match)
    request = services.request_correction(match.pk, actor=alice, side=0, reason="wrong", expected_seq=3)
    services.answer_correction(request.pk, actor=bob, accept=True)
    rows = list(Action.objects.filter(match=match).values_list("seq", "kind"))
    assert [kind for _, kind in rows][-2:] == ["correction", "correction"]
    again = services.answer_correction(request.pk, actor=bob, accept=True)
    assert again.status == CorrectionRequest.Status.ACCEPTED
    assert list(Action.objects.filter(match=match).values_list("seq", "kind")) == rows
    for actor, accept in ((bob, False), (cast.as_director, True)):  # a change of mind; someone else's answer
        with pytest.raises(ApplicationError) as refused:
            services.answer_correction(request.pk, actor=actor, accept=accept)
        assert refused.value.code is ErrorCode.CONFLICT and "already accepted" in refused.value.message
    assert list(Action.objects.filter(match=match).values_list("seq", "kind")) == rows
