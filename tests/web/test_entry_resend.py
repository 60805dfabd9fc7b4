"""Every form of the entry page sent twice, as a phone does when the answer to its first send was lost on the way (a
dropped Wi-Fi: the page keeps the entry and sends it again, with the same fields, its idempotency key and its
expected sequence number). The second send is answered as the first was (303 back to the page) and writes
nothing: every action kind, a take-back, a correction asked for and its answer; also after the opponent has
entered since, and with a key that served another request (refused, as a new request needs a new key).

Driven with Django's test client through tests/web/test_entry_pages.py's ``Phone``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import CorrectionRequest, Match
from tests.games.conftest import footprint
from tests.web.test_entry_pages import Phone, current, error_of, kinds, ok

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def twice(phone: Phone, kind: str, **fields: Any) -> None:
    """Send one form of ``phone``'s page, then the very same form again: both answered 303, the second writes
    nothing (the log, the games, the match's caches and the correction requests are as the first left them)."""
    match = current(phone.match_id)
    data: dict[str, Any] = {"seq": match.seq, "key": f"resent-{kind}-{match.seq}", **fields}
    ok(phone.post(kind, **data), match)
    after = footprint(match.pk), requests(match)
    ok(phone.post(kind, **data), match)
    assert (footprint(match.pk), requests(match)) == after, f"{kind} sent again wrote something"


def requests(match: Match) -> list[tuple[Any, ...]]:
    rows = CorrectionRequest.objects.filter(match=match).order_by("pk")
    return list(rows.values_list("pk", "side", "status", "undoes_id", "answered_at"))


def test_every_action_of_a_match_played_move_by_move_sent_twice_is_recorded_once(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    twice(alice, "opening-roll", die1=3, die2=1)
    twice(alice, "play", play="8/5 6/5")
    twice(bob, "double")
    twice(alice, "take")
    twice(bob, "roll", die1=6, die2=5)
    twice(bob, "play", play="24/13")
    twice(bob, "take-back")
    twice(bob, "play", play="24/18 13/8")
    twice(alice, "resign", result=1)
    twice(bob, "reject-resignation")
    twice(alice, "roll", die1=2, die2=1)
    twice(alice, "play", play="13/11 6/5")
    twice(alice, "resign", result=1)
    twice(bob, "accept-resignation")
    twice(bob, "opening-roll", die1=1, die2=4)
    twice(bob, "play", play="24/23 13/9")
    twice(alice, "double")
    twice(bob, "drop")
    assert kinds(match) == [
        "opening-roll",
        "play",
        "double",
        "take",
        "roll",
        "play",
        "correction",
        "play",
        "resign",
        "reject-resignation",
        "roll",
        "play",
        "resign",
        "accept-resignation",
        "opening-roll",
        "play",
        "double",
        "drop",
    ]
    assert current(match).score == (1, 2)


def test_a_chosen_double_sent_twice_is_recorded_once(new_match: Any) -> None:
    match = new_match(length=3, variant="acey-deucey")
    alice = Phone(match, 0)
    ok(alice.post("opening-roll", die1=2, die2=1), match)
    ok(alice.post("play", play="bar/24 bar/23"), match)
    twice(alice, "choose-double", die=6)
    assert kinds(match) == ["opening-roll", "play", "choose-double"]


def test_a_game_result_sent_twice_is_recorded_once(new_match: Any) -> None:
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    alice = Phone(match, 0)
    twice(alice, "game-result", winner=1, result=1, cube=1)
    twice(alice, "game-result", winner=0, result=2, cube=1)
    assert kinds(match) == ["game-result", "game-result"] and current(match).score == (2, 1)


def test_a_correction_asked_and_answered_each_sent_twice_counts_once(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="24/21 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    twice(alice, "ask-correction", reason="I meant 8/5 6/5")
    request = re.search(r'name="request" value="(\d+)"', bob.page())
    assert request is not None
    twice(bob, "answer-correction", request=request.group(1), accept="1")
    assert kinds(match) == ["opening-roll", "play", "roll", "correction", "correction"]
    # Asked again after the answer (a new key): a new request; the first one's key still answers the first.
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(alice.post("ask-correction", key="second", reason="wrong again"), match)
    twice(bob, "answer-correction", request=str(CorrectionRequest.objects.latest("pk").pk), accept="0")
    assert list(CorrectionRequest.objects.filter(match=match).values_list("status", flat=True).order_by("pk")) == [
        "accepted",
        "refused",
    ]


def test_an_entry_sent_again_after_the_opponent_entered_since_is_answered_not_refused(new_match: Any) -> None:
    """The typical dropped connection: the play arrived, its answer did not; the opponent rolls; the phone sends
    the play again with the sequence number it had."""
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", seq=1, key="lost-answer", play="8/5 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    before = footprint(match.pk)
    ok(alice.post("play", seq=1, key="lost-answer", play="8/5 6/5"), match)
    assert footprint(match.pk) == before and kinds(match) == ["opening-roll", "play", "roll"]


def test_a_key_that_asked_for_something_else_is_refused_with_a_word_and_writes_nothing(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", seq=1, key="k", play="8/5 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(alice.post("ask-correction", key="ask", reason="wrong"), match)
    before = footprint(match.pk), requests(match)
    response = alice.post("play", seq=1, key="k", play="24/21 6/5")
    assert response.status_code == 422 and "a new request needs a new key" in error_of(response.content.decode())
    request = CorrectionRequest.objects.get(match=match)
    response = bob.post("answer-correction", request=str(request.pk), accept="0")
    ok(response, match)
    response = bob.post("answer-correction", request=str(request.pk), accept="1")  # a change of mind: too late
    assert response.status_code == 409 and "already refused" in error_of(response.content.decode())
    assert footprint(match.pk) == before[0]
