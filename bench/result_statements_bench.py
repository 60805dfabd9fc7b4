"""SQL statements and time of a result: an action that ends a tournament match against one that does not.

Usage: python bench/result_statements_bench.py [--database-url postgres://.../bgmatch_result_bench] [--root DIR]
       [--repeat 20]

On a throwaway PostgreSQL database (made and dropped), for ``--repeat`` single-elimination divisions of 4 players
(3-point matches kept on a scoresheet, the director entering), it records through ``games.services``:

- an action that does not end the match (a game won 1-0), and
- the action that ends it (a game won with the cube on 4),

each in its own transaction (autocommit, as a request), with what runs after its commit (the follow-up's enqueue,
and the receivers of games' signals, which marked the division pending and asked for the analysis before these
moved into the action's transaction); the follow-up itself is not run (a broker is set and no worker takes it: its
``delay`` is replaced by a no-op counted apart). It prints the statements of the action's transaction and of what
ran after its commit, the follow-ups enqueued, and the median time of each.
``--root`` measures another checkout of the project (the code before a change) with this same script.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchdb import REPO, exit_on_sigterm, prepare_database, release_database, setup_django

ENVIRONMENT = {"ANALYSIS_AUTO": "0"}


def measure(repeat: int) -> dict[str, list[float]]:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from common.actor import Actor
    from games import services as games
    from tournaments import services
    from tournaments.models import Pairing
    from tournaments.services import followup

    enqueued: list[int] = []
    followup.plug_followup_task(_Recorder(enqueued))
    director = Actor(user=get_user_model().objects.create_user(username=f"bench{time.time_ns()}", password=None))
    out: dict[str, list[float]] = {}

    committed: list[int] = []  # the statements logged when the first after-commit callback started
    on_commit = transaction.on_commit

    def marked(func: Any, using: Any = None, robust: bool = False) -> None:
        def run() -> None:
            if not committed:
                committed.append(len(connection.queries_log))
            func()

        on_commit(run, using=using, robust=robust)

    transaction.on_commit = marked  # games/ and tournaments/ call it through the module

    def record(name: str, call: Any) -> None:
        before = len(enqueued)
        committed.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            call()
            elapsed = time.perf_counter() - started
        total = len(captured.captured_queries)
        inside = committed[0] - captured.initial_queries if committed else total
        out.setdefault(f"{name}: statements in its transaction", []).append(inside)
        out.setdefault(f"{name}: statements after its commit", []).append(total - inside)
        out.setdefault(f"{name}: follow-ups enqueued", []).append(len(enqueued) - before)
        out.setdefault(f"{name}: ms (with its receivers)", []).append(elapsed * 1000)

    for n in range(repeat):
        event = services.create_event(actor=director, name=f"Result bench {n}")
        settings = services.DivisionSettings(name="Open", format="single", entry_mode="scoresheet", match_length=3)
        division = services.create_division(event, actor=director, settings=settings)
        for i in range(1, 5):
            services.register_player(division, actor=director, name=f"P{i}", rating=2000 - 10 * i)
        services.start_division(division, actor=director)
        semi = Pairing.objects.filter(division=division, match__isnull=False).order_by("key").first()
        assert semi is not None and semi.match_id is not None
        match_id = semi.match_id
        record(
            "action", lambda m=match_id: games.record_game_result(m, actor=director, winner=0, kind=1, expected_seq=0)
        )
        record(
            "match-ending action",
            lambda m=match_id: games.record_game_result(
                m, actor=director, winner=0, kind=1, cube_value=4, expected_seq=1
            ),
        )
    return out


class _Recorder:
    """The follow-up task, replaced: ``delay`` records the division (a broker no worker takes)."""

    class app:  # noqa: N801 - what followup reads of the task's app
        class conf:  # noqa: N801
            task_always_eager = False

    def __init__(self, enqueued: list[int]) -> None:
        self.enqueued = enqueued

    def delay(self, division_id: int) -> None:
        self.enqueued.append(division_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/bgmatch_result_bench")
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout of the project to measure")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    exit_on_sigterm()
    created = prepare_database(args.database_url)
    try:
        setup_django(args.database_url, ENVIRONMENT, root=args.root.resolve())
        figures = measure(args.repeat)
    finally:
        release_database(args.database_url, created, keep=False)
    print(f"code measured: {args.root.resolve()}; {args.repeat} divisions")
    for name, values in figures.items():
        if "ms" in name:
            print(f"  {name}: median {statistics.median(values):.2f}, max {max(values):.2f}")
        else:
            print(f"  {name}: {sorted(set(values))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
