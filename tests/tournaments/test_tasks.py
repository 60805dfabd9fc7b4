"""The Celery tasks (run eagerly here; tests/tournaments/test_worker.py runs them in a real worker): a result marks
the standings pending and the task it enqueues makes them current; the tasks are idempotent; a failing standings
task keeps the old standings and marks the division failed with the error, and ``reconcile`` picks it up again."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from kombu.exceptions import OperationalError

from common.actor import Actor
from config.celery import app as celery_app
from tests.tournaments.services.support import enter_win, link, pairing, standings_rows
from tournaments import services, tasks
from tournaments.models import Division, Entry, Pairing, Rating, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """``with committed():`` runs the block's on-commit callbacks at its end, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def swiss(division_of: Callable[..., Division], as_director: Actor) -> Division:
    division = division_of("swiss", 4, rounds_planned=3, entry_mode="scoresheet", match_length=1)
    return services.start_division(division, actor=as_director)


def decide_round(division: Division, number: int, director: Actor) -> None:
    for p in Pairing.objects.filter(division=division, round__number=number, status=Pairing.Status.READY):
        enter_win(p, Entry.objects.get(pk=p.entry_a_id), actor=director)


def state(division: Division) -> tuple[Any, ...]:
    """Everything the tasks write for a division, primary keys of recomputed rows left out."""
    division.refresh_from_db()
    pairings = list(Pairing.objects.filter(division=division).order_by("pk").values())
    entries = list(Entry.objects.filter(division=division).order_by("pk").values())
    return (
        division.results_version,
        division.standings_version,
        division.standings_status,
        division.status,
        pairings,
        entries,
        standings_rows(division),
        Round.objects.filter(division=division).count(),
    )


def test_standings_are_pending_after_a_result_and_current_after_the_task(
    swiss: Division, as_director: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as committed:  # the result's transaction commits...
        enter_win(pairing(swiss, "swiss-1-1"), pairing(swiss, "swiss-1-1").entry_a, actor=as_director)
    # ...with its pairing flagged due: the standings read pending from the commit on, the division's row unwritten
    assert Division.objects.get(pk=swiss.pk).standings_state == Division.Work.PENDING
    assert standings_rows(swiss) == []
    enqueued = committed[:1]
    assert len(committed) == 2, "after the commit: the follow-up enqueued, then games/ signals the finished match"

    enqueued[0]()  # the task runs (eagerly): the bracket moves on, the standings are recomputed
    swiss = Division.objects.get(pk=swiss.pk)
    assert swiss.standings_state == Division.Work.CURRENT and swiss.standings_error == ""
    assert swiss.standings_version == swiss.results_version > 0
    wins = {row[1]: row[3] for row in standings_rows(swiss)}
    assert wins[pairing(swiss, "swiss-1-1").entry_a_id] == 1


def test_the_tasks_are_idempotent(swiss: Division, as_director: Actor) -> None:
    decide_round(swiss, 1, as_director)
    first = tasks.advance_division.apply(args=[swiss.pk]).get()
    assert first["results"] == ["swiss-1-1", "swiss-1-2"]
    after_first = state(swiss)
    assert after_first[6], "standings were written"

    again = tasks.advance_division.apply(args=[swiss.pk]).get()
    assert again == {"results": [], "matches": [], "paired": None, "finished": False}
    assert state(swiss) == after_first, "nothing changes the second time"
    assert tasks.recompute_standings_task.apply(args=[swiss.pk]).get() == 4, "one table of 4 after round 1"
    assert state(swiss) == after_first


def test_a_failing_standings_task_keeps_the_old_standings_and_marks_the_division_failed(
    swiss: Division, as_director: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    decide_round(swiss, 1, as_director)
    tasks.advance_division.apply(args=[swiss.pk])
    old = standings_rows(swiss)
    assert old
    services.pair_next_round(swiss, actor=as_director)
    decide_round(swiss, 2, as_director)
    services.sync_division(swiss.pk)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a tie-break divided by zero")

    # the one patch: the pure standings function, to simulate a bug in it
    monkeypatch.setattr("tournaments.services.standings.standings", broken)
    result = tasks.recompute_standings_task.apply(args=[swiss.pk], throw=False)
    assert result.failed()
    swiss.refresh_from_db()
    assert swiss.standings_status == Division.Work.FAILED
    assert swiss.standings_error == "RuntimeError: a tie-break divided by zero"
    assert standings_rows(swiss) == old, "the old standings stay"

    monkeypatch.undo()
    assert tasks.reconcile.apply().get() == [swiss.pk], "reconcile picks up a failed division"
    swiss.refresh_from_db()
    assert swiss.standings_status == Division.Work.CURRENT and swiss.standings_error == ""
    assert max(row[0] for row in standings_rows(swiss)) == 2
    assert tasks.reconcile.apply().get() == []


def test_pair_round_task_pairs_the_next_swiss_round(swiss: Division, as_director: Actor) -> None:
    decide_round(swiss, 1, as_director)
    services.sync_division(swiss.pk)
    assert tasks.pair_round.apply(args=[swiss.pk]).get() == 2
    assert Pairing.objects.filter(division=swiss, round__number=2, match__isnull=False).count() == 2


def test_ratings_follow_every_counted_result_even_when_it_pairs_the_next_round(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """With ``auto_pair`` the last result of a round also pairs the next one; its rating update is not lost."""
    club = services.create_rating_list(actor=as_director, name="Club list")
    event = services.create_event(actor=as_director, name="Rated Swiss", rating_list=club)
    division = division_of(
        "swiss", 4, event=event, rounds_planned=2, auto_pair=True, entry_mode="scoresheet", match_length=1
    )
    services.start_division(division, actor=as_director)
    with committed():
        decide_round(division, 1, as_director)
    assert Round.objects.filter(division=division).count() == 2, "round 2 paired itself"
    assert Rating.objects.filter(rating_list=club).count() == 4, "every round-1 result is rated"
    assert sorted(Rating.objects.filter(rating_list=club).values_list("matches", flat=True)) == [1, 1, 1, 1]


def test_a_sync_that_moves_the_division_on_marks_the_standings_pending_again(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A recompute that ran between a confirmation and the sync that takes it (an earlier result's task, say)
    marks the standings current; the sync then finishes the division: they are pending again until recomputed."""
    division = services.start_division(
        division_of("single", 2, entry_mode="scoresheet", match_length=1), actor=as_director
    )
    final = pairing(division, "main-1-0")
    enter_win(final, final.entry_a, actor=link(final.match_id, 0))
    services.sync_division(division.pk)
    services.confirm_result(pairing(division, "main-1-0"), actor=link(final.match_id, 1))
    services.recompute_standings(division.pk)  # the earlier task's recompute, before this result's sync
    division.refresh_from_db()
    assert (division.status, division.standings_status) == (Division.Status.RUNNING, Division.Work.CURRENT)

    report = services.sync_division(division.pk)
    assert report.finished
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    assert division.standings_status == Division.Work.PENDING, "the standings stored were made while it ran"
    tasks.recompute_standings_task.apply(args=[division.pk])
    division.refresh_from_db()
    assert division.standings_status == Division.Work.CURRENT
    assert division.standings.get(rank=1).entry_id == final.entry_a_id


def test_an_eager_follow_up_that_fails_marks_the_standings_failed_and_keeps_the_result(
    swiss: Division,
    as_director: Actor,
    committed: Callable,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With eager tasks (no broker) ``delay`` runs the follow-up in the process that recorded the result; when it
    raises, the standings are marked failed with its error, as a worker's failure marks them, and the log says so
    (not that enqueueing failed)."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a tie-break divided by zero")

    monkeypatch.setattr("tournaments.services.standings.standings", broken)  # a bug in the pure standings
    first = pairing(swiss, "swiss-1-1")
    with caplog.at_level(logging.WARNING, logger="tournaments"), committed():
        enter_win(first, first.entry_a, actor=as_director)

    assert pairing(swiss, "swiss-1-1").status == Pairing.Status.FINISHED, "the result is recorded and taken"
    swiss.refresh_from_db()
    assert swiss.standings_status == Division.Work.FAILED
    assert swiss.standings_error == "RuntimeError: a tie-break divided by zero"
    assert standings_rows(swiss) == []
    messages = [r.getMessage() for r in caplog.records]
    assert not any("could not enqueue" in m for m in messages), messages
    failed = [r for r in caplog.records if "follow-up of division" in r.getMessage()]
    assert [r.levelno for r in failed] == [logging.ERROR]
    assert f"the follow-up of division {swiss.pk} failed (RuntimeError: a tie-break divided by zero)" in (
        failed[0].getMessage()
    )
    assert "the standings are marked failed" in failed[0].getMessage()

    monkeypatch.undo()  # fixed: the division's next follow-up computes the standings
    second = pairing(swiss, "swiss-1-2")
    with committed():
        enter_win(second, second.entry_a, actor=as_director)
    swiss.refresh_from_db()
    assert (swiss.standings_status, swiss.standings_error) == (Division.Work.CURRENT, "")
    wins = {row[1]: row[3] for row in standings_rows(swiss)}
    assert wins[first.entry_a_id] == wins[second.entry_a_id] == 1


def test_a_follow_up_the_broker_refuses_leaves_the_standings_pending_for_reconcile(
    swiss: Division,
    as_director: Actor,
    committed: Callable,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With a broker that cannot be reached, the result stays recorded, the standings stay pending and the log
    says that reconcile will enqueue the work again."""

    def refused(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    celery_app.conf.task_always_eager = False  # a broker is configured (the eager_tasks fixture restores it)
    monkeypatch.setattr(tasks.advance_division, "delay", refused)  # the broker is down
    first = pairing(swiss, "swiss-1-1")
    with caplog.at_level(logging.WARNING, logger="tournaments"), committed():
        enter_win(first, first.entry_a, actor=as_director)

    swiss = Division.objects.get(pk=swiss.pk)  # its pairing flagged due, which reconcile finds
    assert swiss.standings_state == Division.Work.PENDING and swiss.standings_error == ""
    assert [r.getMessage() for r in caplog.records if "follow-up" in r.getMessage()] == [
        f"could not enqueue the follow-up of division {swiss.pk}; reconcile will retry"
    ]


def test_reconcile_finds_results_whose_follow_up_was_lost_between_commit_and_signal(
    swiss: Division, as_director: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    """The result commits, then the process dies (or loses the database) before games/ signals it: the pairing shows
    the result (written in the match's transaction), but the division still reads "current" and nothing followed.
    reconcile finds the follow-up due from the state alone, and a corrected result's too."""
    from games import services as games

    board = pairing(swiss, "swiss-1-1")
    with django_capture_on_commit_callbacks(execute=False) as lost:
        enter_win(board, board.entry_a, actor=as_director)
    assert lost, "the signal was to be sent after the commit"
    swiss.refresh_from_db()
    board = pairing(swiss, "swiss-1-1")  # the result shows at once (its match's transaction wrote it)...
    assert board.status == Pairing.Status.FINISHED and board.followup == Pairing.Followup.RESULT
    assert swiss.standings_status == Division.Work.CURRENT  # ...but its follow-up never ran
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.reconcile.apply().get() == [swiss.pk]
    board = pairing(swiss, "swiss-1-1")
    assert board.status == Pairing.Status.FINISHED and board.winner_id == board.entry_a_id
    swiss.refresh_from_db()
    assert swiss.standings_status == Division.Work.CURRENT
    assert tasks.reconcile.apply().get() == []

    with django_capture_on_commit_callbacks(execute=False):  # a director's correction, its signal lost as well
        games.replace_game_result(
            board.match_id, actor=as_director, game_number=1, winner=1, kind=1, reason="wrong winner entered"
        )
    swiss.refresh_from_db()
    assert swiss.standings_status == Division.Work.CURRENT  # nothing is pending...
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.reconcile.apply().get() == [swiss.pk]  # ...but the division is behind its match
    board = pairing(swiss, "swiss-1-1")
    assert board.winner_id == board.entry_b_id
    assert tasks.reconcile.apply().get() == []
