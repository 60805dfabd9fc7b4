"""Outgoing signals: ``match_finished`` once, after commit, when a match ends (won, forfeited, voided, a money
session finished); never for a rolled-back transaction; ``match_result_changed`` when a correction changes a result
that was final (a finished match reopened, a final result replaced)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction

from common.actor import SYSTEM
from common.errors import ApplicationError
from games import services
from games.hooks import match_finished, match_result_changed
from games.models import Match

pytestmark = pytest.mark.django_db


class Received:
    def __init__(self) -> None:
        self.finished: list[int] = []
        self.changed: list[int] = []

    def on_finished(self, sender, match_id: int, **kwargs) -> None:
        assert sender is Match
        self.finished.append(match_id)

    def on_changed(self, sender, match_id: int, **kwargs) -> None:
        assert sender is Match
        self.changed.append(match_id)


@pytest.fixture
def received() -> Iterator[Received]:
    r = Received()
    match_finished.connect(r.on_finished)
    match_result_changed.connect(r.on_changed)
    try:
        yield r
    finally:
        match_finished.disconnect(r.on_finished)
        match_result_changed.disconnect(r.on_changed)


def test_match_finished_is_sent_once_after_commit_when_the_match_is_won(
    new_match, received, django_capture_on_commit_callbacks
) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=2, expected_seq=0)
    assert callbacks == [] and received.finished == []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=1, idempotency_key="end")
    assert len(callbacks) == 1 and received.finished == []  # not before the commit
    callbacks[0]()
    assert received.finished == [match.pk]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:  # a retry of the last action: no new signal
        r = services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=1, idempotency_key="end")
    assert r.retried and callbacks == [] and received.finished == [match.pk] and received.changed == []


def test_match_finished_for_a_match_played_move_by_move(new_match, drive, received, django_capture_on_commit_callbacks):
    match = new_match(length=1)
    d = drive(match, seed=1)
    d.to_roll_phase()
    with django_capture_on_commit_callbacks(execute=True):
        d.double()
    assert received.finished == []
    with django_capture_on_commit_callbacks(execute=True):
        d.drop()
    assert received.finished == [match.pk]


def test_no_signal_when_the_transaction_rolls_back(new_match, received, django_capture_on_commit_callbacks) -> None:
    match = new_match(length=1, entry_mode="scoresheet")
    capture = django_capture_on_commit_callbacks(execute=True)
    with capture as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        services.record_game_result(match.pk, actor=SYSTEM, winner=1, kind=1, expected_seq=0)
        raise RuntimeError("the request failed after the service")
    assert callbacks == [] and received.finished == []
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.seq == 0


def test_match_finished_on_forfeit_void_and_finish(new_match, cast, received, django_capture_on_commit_callbacks):
    forfeited, voided, money = new_match(), new_match(), new_match(length=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.forfeit_match(forfeited.pk, actor=cast.as_director, loser_side=0, reason="no-show")
        services.void_match(voided.pk, actor=cast.as_director, reason="wrong pairing")
        services.finish_match(money.pk, actor=cast.as_director)
    assert received.finished == [forfeited.pk, voided.pk, money.pk] and received.changed == []


def test_match_result_changed_when_a_finished_match_is_reopened(
    new_match, drive, cast, received, django_capture_on_commit_callbacks
) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.undo_last_action(match.pk, actor=cast.as_director, reason="not final yet")
    assert received.changed == []  # an in-progress correction changes no final result
    d.seq = Match.objects.get(pk=match.pk).seq
    d.result(1, 3)
    with django_capture_on_commit_callbacks(execute=True):
        services.reopen_match(match.pk, actor=cast.as_director, reason="wrong sheet")
    assert received.changed == [match.pk] and received.finished == []


def test_match_result_changed_when_a_final_result_is_replaced(
    new_match, drive, cast, received, django_capture_on_commit_callbacks
) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(0, 2)  # 3-0, finished
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=1, kind=3, reason="x")
    assert received.changed == [match.pk]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == cast.bob and match.score == (1, 3)


def test_no_signal_when_a_correction_is_refused(new_match, drive, cast, received, django_capture_on_commit_callbacks):
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(1, 1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(ApplicationError):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=1, winner=0, kind=3, reason="x")
    assert callbacks == [] and received.changed == [] and received.finished == []


def test_a_correction_that_decides_the_match_sends_match_finished(
    new_match, drive, cast, received, django_capture_on_commit_callbacks
) -> None:
    """The match ends through the correction: whoever follows finished matches (tournaments/) must hear of it."""
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(1, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=0, kind=2, reason="x")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert received.finished == [match.pk]
