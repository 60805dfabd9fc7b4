"""SQL statements and time of a result: an action that ends a tournament match against one that does not.

Usage: python bench/result_statements_bench.py [--database-url postgres://.../bgmatch_result_bench] [--root DIR]
       [--repeat 20] [--moves]

On a throwaway PostgreSQL database (made and dropped), for ``--repeat`` single-elimination divisions of 4 players
(3-point matches kept on a scoresheet, the director entering), it records through ``games.services``:

- an action that does not end the match (a game won 1-0), and
- the action that ends it (a game won with the cube on 4),

each in its own transaction (autocommit, as a request), with what runs after its commit (the follow-up's enqueue,
and the receivers of games' signals, which marked the division pending and asked for the analysis before these
moved into the action's transaction); the follow-up itself is not run (a broker is set and no worker takes it: its
``delay`` is replaced by a no-op counted apart). It prints the statements of the action's transaction and of what
ran after its commit, the follow-ups enqueued, and the median time of each.

``--moves``: the semi-finals are 1-point matches played move by move (seeded dice and plays, each play by its
side's entry link) with ANALYSIS_AUTO on, as at a club night: every play is timed, the one that ends the match
apart, and the analysis the ending asks for is enqueued to a no-op counted apart (no gnubg runs). Also printed: the
ending's median over the other plays' median, the figure to compare between two checkouts run one after another.
``--profile N`` runs each kind of record under cProfile and prints its N costliest functions (cumulative time, summed
over the records of that kind): where the ending's time goes. ``--root`` measures another checkout of the project
(the code before a change) with this same script.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchdb import REPO, exit_on_sigterm, prepare_database, release_database, setup_django

ENVIRONMENT = {"ANALYSIS_AUTO": "0"}
MOVES_ENVIRONMENT = {"ANALYSIS_AUTO": "1"}


def measure(repeat: int, *, moves: bool = False, profiles: dict[str, Any] | None = None) -> dict[str, list[float]]:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    import games.services
    from common.actor import Actor
    from tournaments import services
    from tournaments.models import Pairing
    from tournaments.services import followup

    enqueued: list[int] = []
    followup.plug_followup_task(_Recorder(enqueued))
    if moves:
        from games.analysis.service import plug_analysis_task

        plug_analysis_task(_Recorder(enqueued))
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
        connection.queries_log.clear()  # a bounded deque: once full, its length no longer counts the statements
        profiler = None if profiles is None else profiles.setdefault(name, cProfile.Profile())
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            call()
            if profiler is not None:
                profiler.disable()
            elapsed = time.perf_counter() - started
        total = len(captured.captured_queries)
        inside = committed[0] - captured.initial_queries if committed else total
        out.setdefault(f"{name}: statements in its transaction", []).append(inside)
        out.setdefault(f"{name}: statements after its commit", []).append(total - inside)
        out.setdefault(f"{name}: follow-ups enqueued", []).append(len(enqueued) - before)
        out.setdefault(f"{name}: ms (with its receivers)", []).append(elapsed * 1000)

    for n in range(repeat):
        event = services.create_event(actor=director, name=f"Result bench {n}")
        mode, length = ("moves", 1) if moves else ("scoresheet", 3)
        settings = services.DivisionSettings(name="Open", format="single", entry_mode=mode, match_length=length)
        division = services.create_division(event, actor=director, settings=settings)
        for i in range(1, 5):
            services.register_player(division, actor=director, name=f"P{i}", rating=2000 - 10 * i)
        services.start_division(division, actor=director)
        semi = Pairing.objects.filter(division=division, match__isnull=False).order_by("key").first()
        assert semi is not None and semi.match_id is not None
        match_id = semi.match_id
        if moves:
            play_through(match_id, record, random.Random(n))
            continue
        record(
            "action",
            lambda m=match_id: games.services.record_game_result(m, actor=director, winner=0, kind=1, expected_seq=0),
        )
        record(
            "match-ending action",
            lambda m=match_id: games.services.record_game_result(
                m, actor=director, winner=0, kind=1, cube_value=4, expected_seq=1
            ),
        )
    return out


def play_through(match_id: int, record: Any, rng: random.Random) -> None:
    """Play a 1-point match to its end, each side by its entry link; every play is recorded by ``record`` as
    "play" and the one that ends the match as "match-ending play" (rolls are not timed)."""
    import games.services
    from common.actor import SYSTEM, Actor
    from engine.actions import Move
    from engine.game import Phase
    from games.access import new_entry_token
    from games.engine_bridge import load_state
    from games.models import Match

    match = Match.objects.get(pk=match_id)
    actors = {side: Actor(token=new_entry_token(match, side)) for side in (0, 1)}
    while match.status != Match.Status.FINISHED:
        state = load_state(match)
        game = state.game
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if game.phase is Phase.OPENING:
            while dice[0] == dice[1]:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            games.services.record_opening_roll(match_id, actor=SYSTEM, dice=dice, expected_seq=match.seq)
        elif game.phase is Phase.ROLL:
            side = game.on_roll
            games.services.record_roll(match_id, actor=actors[side], side=side, dice=dice, expected_seq=match.seq)
        else:
            side, plays = game.on_roll, sorted(game.legal_plays(), key=str)
            play = rng.choice(plays) if plays else None
            ends = play is not None and state.apply(Move(side, play)).is_over
            text, seq = (str(play) if play is not None else ""), match.seq
            record(
                "match-ending play" if ends else "play",
                lambda s=side, t=text, q=seq: games.services.record_play(
                    match_id, actor=actors[s], side=s, play=t, expected_seq=q
                ),
            )
        match = Match.objects.get(pk=match_id)


class _Recorder:
    """The follow-up task, replaced: ``delay`` records the division (a broker no worker takes)."""

    class app:  # noqa: N801 - what followup reads of the task's app
        class conf:  # noqa: N801
            task_always_eager = False

    def __init__(self, enqueued: list[int]) -> None:
        self.enqueued = enqueued

    def delay(self, object_id: int, *args: Any) -> None:
        self.enqueued.append(object_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/bgmatch_result_bench")
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout of the project to measure")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--moves", action="store_true", help="1-point matches played move by move, analysis on")
    parser.add_argument("--profile", type=int, default=0, help="profile each kind of record: print its N top lines")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    created = prepare_database(args.database_url)
    try:
        setup_django(args.database_url, MOVES_ENVIRONMENT if args.moves else ENVIRONMENT, root=args.root.resolve())
        profiles: dict[str, Any] | None = {} if args.profile else None
        figures = measure(args.repeat, moves=args.moves, profiles=profiles)
    finally:
        release_database(args.database_url, created, keep=False)
    print(f"code measured: {args.root.resolve()}; {args.repeat} divisions")
    for name, values in figures.items():
        if "ms" in name:
            print(f"  {name}: n {len(values)}, median {statistics.median(values):.2f}, max {max(values):.2f}")
        else:
            print(f"  {name}: {sorted(set(values))}")
    if args.moves:
        ending, other = (statistics.median(figures[f"{name}: ms (with its receivers)"]) for name in MOVES_TIMED)
        print(f"  ending / other play, medians: {ending / other:.2f}")
    for name, profiler in (profiles or {}).items():
        calls = len(figures[f"{name}: ms (with its receivers)"])
        print(f"\n== cProfile of every {name} ({calls} of them; the times are their sums), by cumulative time")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(args.profile)
    return 0


#: The two records compared in --moves.
MOVES_TIMED = ("match-ending play", "play")


if __name__ == "__main__":
    sys.exit(main())
