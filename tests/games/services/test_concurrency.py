"""Concurrent writers on real PostgreSQL: the match row lock serialises writers, the expected sequence number
turns every loser of a race into STALE_SEQUENCE, and the log stays contiguous (seq 1..n, nothing lost or
duplicated). Each thread uses its own database connection and closes it when done."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from common.actor import SYSTEM
from common.errors import ApplicationError, ErrorCode
from engine.game import Phase
from games import services
from games.engine_bridge import load_state
from games.models import Action, Match
from tests.games.conftest import Driver

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs real PostgreSQL (row locks, concurrent connections): set DATABASE_URL=postgres://...",
    ),
]


def run_in_threads(count: int, work: Callable[[int], Any], timeout: float = 120) -> list[tuple[str, Any]]:
    """Run ``work(i)`` in ``count`` threads released together; ("ok", result) or ("refused", error) per thread."""
    barrier = threading.Barrier(count)
    results: list[tuple[str, Any]] = [("missing", None)] * count

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = ("ok", work(i))
        except ApplicationError as exc:
            results[i] = ("refused", exc)
        except BaseException as exc:
            results[i] = ("crashed", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,), name=f"writer-{i}") for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a writer is stuck"
    crashed = [r for r in results if r[0] not in ("ok", "refused")]
    assert not crashed, crashed
    return results


def _log_is_contiguous(match_id: int) -> list[Action]:
    rows = list(Action.objects.filter(match_id=match_id).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert Match.objects.get(pk=match_id).seq == len(rows)
    return rows


def _next_action(match_id: int, seq: int, i: int) -> Callable[[], services.Recorded]:
    """A valid next action for thread ``i`` at ``seq`` (threads differ in dice or play where they can)."""
    state = load_state(Match.objects.get(pk=match_id))
    game = state.game
    if game.phase is Phase.OPENING:
        dice = (1 + i % 6, 1 + (i + 1) % 6)
        return lambda: services.record_opening_roll(match_id, actor=SYSTEM, dice=dice, expected_seq=seq)
    if game.phase is Phase.ROLL:
        side, dice = game.on_roll, (1 + i % 6, 1 + (i // 6) % 6)
        return lambda: services.record_roll(match_id, actor=SYSTEM, side=side, dice=dice, expected_seq=seq)
    assert game.phase is Phase.MOVE
    legal = sorted(str(p) for p in game.legal_plays())
    side, play = game.on_roll, (legal[i % len(legal)] if legal else "")
    return lambda: services.record_play(match_id, actor=SYSTEM, side=side, play=play, expected_seq=seq)


@pytest.mark.parametrize("writers", [2, 8])
def test_writers_racing_for_the_same_next_action_one_wins_the_rest_are_stale(new_match, writers: int) -> None:
    match = new_match()
    rounds = 12
    for _ in range(rounds):
        seq = Match.objects.get(pk=match.pk).seq
        calls = [_next_action(match.pk, seq, i) for i in range(writers)]
        results = run_in_threads(writers, lambda i, calls=calls: calls[i]())
        won = [r for kind, r in results if kind == "ok"]
        lost = [r for kind, r in results if kind == "refused"]
        assert len(won) == 1 and len(lost) == writers - 1
        assert won[0].action.seq == seq + 1
        for error in lost:
            assert error.code is ErrorCode.STALE_SEQUENCE and error.extra == {"seq": seq + 1}
    rows = _log_is_contiguous(match.pk)
    assert len(rows) == rounds
    assert load_state(Match.objects.get(pk=match.pk)).snapshot() == Match.objects.get(pk=match.pk).state


def test_many_matches_played_at_once_all_succeed(cast) -> None:
    matches = [
        services.start_match(player1=cast.alice, player2=cast.bob, length=0, created_by=cast.director) for _ in range(8)
    ]

    def play(i: int) -> tuple[int, str]:
        d = Driver(Match.objects.get(pk=matches[i].pk), seed=i)
        d.check_selectors = False
        for _ in range(30):
            d.turn()
        d.to_roll_phase()
        d.double()
        d.take()
        return d.seq, d.state.snapshot()

    results = run_in_threads(len(matches), play)
    assert all(kind == "ok" for kind, _ in results)
    for match, (_, (seq, snapshot)) in zip(matches, results, strict=True):
        rows = _log_is_contiguous(match.pk)
        assert len(rows) == seq and Match.objects.get(pk=match.pk).state == snapshot


def test_concurrent_retries_with_one_idempotency_key_write_one_row(new_match) -> None:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)

    def retry(i: int) -> services.Recorded:
        return services.record_roll(
            match.pk, actor=SYSTEM, side=1, dice=(6, 4), expected_seq=2, idempotency_key="roll-after-8/5-6/5"
        )

    results = run_in_threads(8, retry)
    assert all(kind == "ok" for kind, _ in results)
    recorded = [r for _, r in results]
    assert len({r.action.pk for r in recorded}) == 1
    assert sorted(r.retried for r in recorded) == [False] + [True] * 7
    rows = _log_is_contiguous(match.pk)
    assert len(rows) == 3 and rows[-1].idempotency_key == "roll-after-8/5-6/5"


def test_without_expected_seq_racing_writers_are_serialised_not_merged(new_match) -> None:
    """expected_seq=None skips the check: every writer is applied in turn against the state the previous one left,
    or refused by the engine; the log stays contiguous either way."""
    match = new_match(length=0, entry_mode="scoresheet")

    def result(i: int) -> services.Recorded:
        return services.record_game_result(match.pk, actor=SYSTEM, winner=i % 2, kind=1, expected_seq=None)

    results = run_in_threads(8, result)
    assert all(kind == "ok" for kind, _ in results)
    rows = _log_is_contiguous(match.pk)
    assert len(rows) == 8 and Match.objects.get(pk=match.pk).score == (4, 4)
