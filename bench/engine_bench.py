"""Legal-play generation and ``python -m engine check`` benchmarks (see bench/README.md).

Usage: python bench/engine_bench.py [--corpus DIR] [--cases FILE] [--rebuild-cases] [--profile] ... (see --help)

1. Legal plays: a fixed set of (position, dice) cases from the corpus games (bench/cases.txt). Each case is timed
   once per engine (garbage collector off, as timeit does), in one process, the two engines alternating which goes
   first: our ``legal_plays()`` with ``len()``, and OpenSpiel's C++ backgammon for the same full turn
   (bench/openspiel_adapter.py). Medians, 90th and 99th percentiles in microseconds, for non-doubles, doubles and
   all, and the ratio ours / OpenSpiel.
2. The same cases with the resulting positions built (``.positions()``), our engine only.
3. Agreement: the distinct positions OpenSpiel's turns reach against ours, case by case.
4. ``python -m engine check`` over every corpus file, in process and as the command line once.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from report import cpu

from engine import Position, legal_plays
from engine.actions import Move
from engine.formats.check import check_file
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.match import MatchState
from engine.variants import STANDARD

try:  # the optional `bench` extra
    import openspiel_adapter as spiel
except ImportError as exc:
    spiel = None  # type: ignore[assignment]
    SPIEL_MISSING = str(exc)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "mat"
DEFAULT_CASES = Path(__file__).resolve().parent / "cases.txt"
SAMPLE_SIZE = 4000
SEED = 20240611
LOG_SUFFIXES = (".mat", ".txt")

Dice = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Case:
    position_id: str
    dice: Dice  # high die first

    @property
    def is_double(self) -> bool:
        return self.dice[0] == self.dice[1]


# -- the corpus and the case set ---------------------------------------------------------------------------------


def corpus_files(corpus: Path) -> list[Path]:
    """Every match log under ``corpus`` (README.md and MANIFEST.tsv left out), in a fixed order."""
    found = (p for p in corpus.rglob("*") if p.is_file() and p.suffix in LOG_SUFFIXES)
    return sorted(found, key=lambda p: p.relative_to(corpus).as_posix())


def corpus_moves(files: Sequence[Path]) -> Iterator[tuple[Position, Dice]]:
    """(position, dice) before every move of every standard-variant corpus game, mover's view."""
    for path in files:
        replay = replay_record(read_mat(path.read_bytes()))
        if replay.variant != STANDARD:
            continue
        state = MatchState.new(replay.record.match_length, variant=replay.variant, crawford_rule=replay.crawford_rule)
        for game in replay.games:
            for action in game.actions:
                if isinstance(action, Move):
                    dice = state.game.dice
                    assert dice is not None
                    yield state.game.position(), dice
                state = state.apply(action)


def build_cases(files: Sequence[Path], size: int, seed: int) -> tuple[list[Case], int, int]:
    """A seeded sample of ``size`` distinct cases, kept in corpus order. Also returns the moves and distinct cases."""
    distinct: dict[Case, None] = {}
    moves = 0
    for position, (d1, d2) in corpus_moves(files):
        moves += 1
        case = Case(position.gnubg_id(), (max(d1, d2), min(d1, d2)))
        if Position.from_gnubg_id(case.position_id) != position:
            raise SystemExit(f"{case.position_id} does not decode to the corpus position it was made from")
        distinct.setdefault(case)
    pool = list(distinct)
    chosen = set(random.Random(seed).sample(range(len(pool)), min(size, len(pool))))
    return [case for i, case in enumerate(pool) if i in chosen], moves, len(pool)


def write_cases(path: Path, cases: Sequence[Case], note: str) -> None:
    lines = [
        "# bench/engine_bench.py cases: GNU Backgammon Position ID (player on roll second), dice high low",
        f"# {note}",
        *(f"{c.position_id} {c.dice[0]} {c.dice[1]}" for c in cases),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_cases(path: Path) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            position_id, d1, d2 = line.split()
            cases.append(Case(position_id, (int(d1), int(d2))))
    return cases


# -- statistics --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Summary:
    n: int
    median: float
    p90: float
    p99: float

    @classmethod
    def of(cls, ns: Sequence[int]) -> Summary:
        us = [t / 1000 for t in ns]
        q = statistics.quantiles(us, n=100, method="inclusive")
        return cls(len(us), statistics.median(us), q[89], q[98])


def split(cases: Sequence[Case], values: Sequence[int]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {"non-doubles": [], "doubles": [], "all": list(values)}
    for case, value in zip(cases, values, strict=True):
        groups["doubles" if case.is_double else "non-doubles"].append(value)
    return groups


# -- timing ------------------------------------------------------------------------------------------------------


def time_ours(position: Position, dice: Dice) -> int:
    """One call of ``legal_plays`` from scratch (the engine keeps no memo between calls), counted with ``len()``."""
    t0 = time.perf_counter_ns()
    len(legal_plays(position, dice))
    return time.perf_counter_ns() - t0


def time_ours_positions(position: Position, dice: Dice) -> int:
    t0 = time.perf_counter_ns()
    legal_plays(position, dice).positions()
    return time.perf_counter_ns() - t0


def warm_up(openspiel: spiel.OpenSpielBackgammon | None, plies: int = 400, seed: int = 7) -> None:
    """Run both engines over a seeded self-play game, so neither pays first-use costs (imports, interpreter
    specialisation) inside the clock. No case of the set is used, and neither engine keeps anything between calls."""
    rng = random.Random(seed)
    position = Position.initial()
    for _ in range(plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        results = legal_plays(position, dice).positions()
        if openspiel is not None:
            spiel.timed_turn(openspiel.state_for(position, dice), dice)
        after = rng.choice(results) if results else position
        position = Position.initial() if after.is_game_over() else after.swapped()


@dataclass(slots=True)
class Timings:
    """Nanoseconds per case: ours, OpenSpiel's legal_actions() calls, OpenSpiel's whole listing, its call counts."""

    ours: list[int]
    spiel: list[int]
    spiel_whole: list[int]
    spiel_calls: list[int]
    spiel_setup: list[int]


def time_cases(cases: Sequence[Case], openspiel: spiel.OpenSpielBackgammon | None) -> Timings:
    """Each case once per engine, in one process; even cases OpenSpiel first, odd cases ours first."""
    from_id = Position.from_gnubg_id
    clock = time.perf_counter_ns
    t = Timings([], [], [], [], [])
    for i, case in enumerate(cases):
        position = from_id(case.position_id)  # decoding is not generation: outside the clock
        if openspiel is None:
            t.ours.append(time_ours(position, case.dice))
            continue
        t0 = clock()
        state = openspiel.state_for(position, case.dice)  # likewise outside the clock, timed apart for reference
        t.spiel_setup.append(clock() - t0)
        if i % 2:
            t.ours.append(time_ours(position, case.dice))
            timing = spiel.timed_turn(state, case.dice)
        else:
            timing = spiel.timed_turn(state, case.dice)
            t.ours.append(time_ours(position, case.dice))
        t.spiel.append(timing.ns)
        t.spiel_whole.append(timing.whole_ns)
        t.spiel_calls.append(timing.calls)
    return t


# -- reports -----------------------------------------------------------------------------------------------------


HEADER = f"  {'':<30} {'cases':>6} {'median':>9} {'p90':>9} {'p99':>9}"


def row(label: str, s: Summary) -> str:
    return f"  {label:<30} {s.n:>6} {s.median:>9.1f} {s.p90:>9.1f} {s.p99:>9.1f}"


def ratio_row(label: str, mine: Summary, other: Summary, extra: str = "") -> str:
    cells = f"{mine.median / other.median:>9.2f} {mine.p90 / other.p90:>9.2f} {mine.p99 / other.p99:>9.2f}"
    return f"  {label:<30} {'':>6} {cells}{extra}"


def report_legal_plays(cases: Sequence[Case], t: Timings) -> None:
    print("\nLegal plays: one full turn per case, each case's first call, microseconds")
    print(HEADER)
    ours = split(cases, t.ours)
    if not t.spiel:
        for group in ("non-doubles", "doubles", "all"):
            print(row(f"ours, {group}", Summary.of(ours[group])))
        return
    theirs = split(cases, t.spiel)
    whole = split(cases, t.spiel_whole)
    for group in ("non-doubles", "doubles", "all"):
        mine = Summary.of(ours[group])
        other = Summary.of(theirs[group])
        per_case = statistics.median(a / b for a, b in zip(ours[group], theirs[group], strict=True) if b)
        print(row(f"ours, {group}", mine))
        print(row(f"OpenSpiel, {group}", other))
        print(ratio_row("ratio ours/OpenSpiel", mine, other, f"   (median of per-case ratios {per_case:.2f})"))
        if group != "non-doubles":
            other_whole = Summary.of(whole[group])
            print(row(f"OpenSpiel whole listing, {group}", other_whole))
            print(ratio_row("ratio ours/whole listing", mine, other_whole))
    doubles = [c for case, c in zip(cases, t.spiel_calls, strict=True) if case.is_double]
    print(
        f"  OpenSpiel legal_actions() calls per double: median {statistics.median(doubles):.0f}, "
        f"max {max(doubles)}, {sum(doubles)} for {len(doubles)} doubles"
    )
    first = [v for i, v in enumerate(t.ours) if i % 2]
    second = [v for i, v in enumerate(t.ours) if not i % 2]
    spiel_first = [v for i, v in enumerate(t.spiel) if not i % 2]
    spiel_second = [v for i, v in enumerate(t.spiel) if i % 2]
    print(
        "  order check, median us when timed first/second in a case: "
        f"ours {statistics.median(first) / 1000:.1f}/{statistics.median(second) / 1000:.1f}, "
        f"OpenSpiel {statistics.median(spiel_first) / 1000:.1f}/{statistics.median(spiel_second) / 1000:.1f} "
        "(different halves of the cases)"
    )
    setup = statistics.median(t.spiel_setup) / 1000
    print(
        f"  not timed above: building an OpenSpiel state for a case, median {setup:.1f} us "
        "(our Position decoding is likewise outside the clock)"
    )


def report_positions(cases: Sequence[Case], with_len: list[int]) -> None:
    from_id = Position.from_gnubg_id
    built = [time_ours_positions(from_id(c.position_id), c.dice) for c in cases]
    print("\nOurs, len() only against .positions() built (second pass over the same cases), microseconds")
    print(HEADER)
    for group in ("non-doubles", "doubles", "all"):
        print(row(f"len(), {group}", Summary.of(split(cases, with_len)[group])))
        print(row(f".positions(), {group}", Summary.of(split(cases, built)[group])))


def report_agreement(cases: Sequence[Case], openspiel: spiel.OpenSpielBackgammon) -> None:
    disagree = []
    actions = plays = 0
    for case in cases:
        position = Position.from_gnubg_id(case.position_id)
        ours = set(legal_plays(position, case.dice).positions())
        theirs, sequences = spiel.turn_results(openspiel.state_for(position, case.dice), case.dice)
        if not ours:
            ours = {position}  # no legal play: the position stays as it is (OpenSpiel's single "pass" action)
        actions += sequences
        plays += len(ours)
        if ours != theirs:
            disagree.append((case, len(ours), len(theirs), len(ours - theirs), len(theirs - ours)))
    print(
        f"\nAgreement with OpenSpiel (distinct resulting positions): {len(cases) - len(disagree)} of {len(cases)} "
        f"cases identical; {plays} distinct plays in all, reached by {actions} OpenSpiel action sequences"
    )
    for case, n_ours, n_theirs, only_ours, only_theirs in disagree[:20]:
        print(
            f"  {case.position_id} {case.dice[0]}{case.dice[1]}: ours {n_ours}, OpenSpiel {n_theirs} "
            f"({only_ours} only ours, {only_theirs} only OpenSpiel)"
        )
    if len(disagree) > 20:
        print(f"  ... and {len(disagree) - 20} more")


def report_check(files: Sequence[Path], cli: bool) -> None:
    plays = moves = 0
    for path in files:
        for game in replay_record(read_mat(path.read_bytes())).games:
            for action in game.actions:
                if isinstance(action, Move):
                    moves += 1
                    plays += bool(str(action.play).strip())
    t0 = time.perf_counter()
    ok = sum(check_file(path, shown_as=path.name)[0]["ok"] for path in files)
    wall = time.perf_counter() - t0
    print(f"\npython -m engine check over the corpus: {len(files)} files, {ok} valid, {moves} moves, {plays} plays")
    rate = f"{plays / wall:,.0f} plays validated/s, {len(files) / wall:.1f} files/s"
    print(f"  in process (check_file): {wall:.2f} s, {rate}")
    if not cli:
        return
    command = [sys.executable, "-m", "engine", "check", *map(str, files)]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    print(
        f"  command line (one process, start-up included): {wall:.2f} s, {plays / wall:,.0f} plays validated/s, "
        f"{len(files) / wall:.1f} files/s, exit {done.returncode}, {sum(r['ok'] for r in reports)} valid"
    )


def machine() -> str:
    try:
        spiel = metadata.version("open-spiel")
    except metadata.PackageNotFoundError:
        spiel = "not installed"
    load = " load average {:.2f} {:.2f} {:.2f};".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    return (
        f"{cpu()};{load} Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}; open-spiel {spiel}"
    )


def profile(cases: Sequence[Case], top: int = 15) -> None:
    positions = [(Position.from_gnubg_id(c.position_id), c.dice) for c in cases]
    profiler = cProfile.Profile()
    profiler.enable()
    for position, dice in positions:
        legal_plays(position, dice).positions()
    profiler.disable()
    print(f"\ncProfile of legal_plays(...).positions() over the {len(cases)} cases (top {top} by own time)")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


# -- main --------------------------------------------------------------------------------------------------------


def load_openspiel() -> spiel.OpenSpielBackgammon | None:
    if spiel is None:
        print(f"OpenSpiel is not installed ({SPIEL_MISSING}); timing our engine alone.")
        print("Install the bench extra for the comparison: .venv/bin/pip install -e '.[bench]'")
        return None
    try:
        return spiel.OpenSpielBackgammon()
    except (AttributeError, OSError, RuntimeError) as exc:  # a build without the symbols the adapter needs
        print(f"cannot set positions in this OpenSpiel build ({exc}); timing our engine alone.")
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of .mat/.txt match logs")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="the fixed case list (read when present)")
    parser.add_argument("--rebuild-cases", action="store_true", help="sample the case list from the corpus again")
    parser.add_argument("--size", type=int, default=SAMPLE_SIZE, help="cases to sample when (re)building")
    parser.add_argument("--seed", type=int, default=SEED, help="sampling seed when (re)building")
    parser.add_argument("--no-check", action="store_true", help="skip the `python -m engine check` timing")
    parser.add_argument("--no-cli", action="store_true", help="time check in process only, not the command line")
    parser.add_argument("--no-verify", action="store_true", help="skip the agreement check against OpenSpiel")
    parser.add_argument(
        "--verify-corpus", action="store_true", help="check agreement on every distinct corpus case, not the set"
    )
    parser.add_argument("--gc", action="store_true", help="keep the garbage collector on while timing")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of our engine over the cases")
    args = parser.parse_args(argv)

    corpus: Path = args.corpus.resolve()
    files = corpus_files(corpus) if corpus.is_dir() else []
    if args.rebuild_cases or not args.cases.exists():
        if not files:
            print(f"no match logs under {args.corpus} and no case list at {args.cases}", file=sys.stderr)
            return 2
        cases, moves, distinct = build_cases(files, args.size, args.seed)
        note = (
            f"{len(cases)} of the {distinct} distinct cases before the {moves} moves of {len(files)} corpus files, "
            f"random.Random({args.seed}).sample, kept in corpus order"
        )
        write_cases(args.cases, cases, note)
        print(f"wrote {args.cases.name}: {note}")
    else:
        cases = read_cases(args.cases)
    doubles = sum(c.is_double for c in cases)
    print(f"machine: {machine()}")
    print(f"cases: {len(cases)} from {args.cases.name} ({len(cases) - doubles} non-doubles, {doubles} doubles)")

    openspiel = load_openspiel()
    warm_up(openspiel)
    gc.collect()
    if not args.gc:
        gc.disable()
    timings = time_cases(cases, openspiel)
    print(f"garbage collector {'on' if args.gc else 'off'} while timing")
    report_legal_plays(cases, timings)
    report_positions(cases, timings.ours)
    gc.enable()
    if openspiel is not None and not args.no_verify:
        if args.verify_corpus and files:
            report_agreement(build_cases(files, sys.maxsize, args.seed)[0], openspiel)
        else:
            report_agreement(cases, openspiel)
    if args.profile:
        profile(cases)
    if not args.no_check:
        if files:
            report_check(files, cli=not args.no_cli)
        else:
            print(f"\nno corpus at {args.corpus}: `python -m engine check` not timed (use --corpus)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
