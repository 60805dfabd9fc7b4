"""Brackets on every field size: who enters the consolation and the last chance, flights of one, and the cost of
planning and resolving (bench/README.md, "Formats").

Usage: python bench/formats_bench.py [--runs N] [--sizes 2-64,100,128,256,513] [--before FILE]
       DJANGO_SETTINGS_MODULE=config.settings DATABASE_URL=postgres://... \
           python bench/formats_bench.py --simulate [--no-plans]

For every elimination format and field size it plans the bracket (``plan_bracket``) and plays it ``--runs`` times
with a coin toss for every match through ``resolve`` (pure Python, no database), and checks the rules on each run:

- every player is in at most one match of a round and the main bracket has one champion;
- the consolation holds exactly the players who lost their first match (a bye is an advance: a bye then a loss
  counts), progressive consolation every loser but the final's;
- the last chance holds exactly the players who lost their first consolation match;
- no consolation or last chance of one player.

It prints, per format and size, the consolation's possible and mean entrants, the mean number of first-match
losers left out of a consolation that is played, the runs with a flight of one, and the plan and resolve times.
``--before FILE`` loads another ``brackets.py`` (an earlier version, from when it was one module, say
``git show REV:tournaments/pairing/brackets.py > /tmp/brackets_before.py``) and reports its figures beside, without
the rule checks it predates. ``--simulate`` also runs ``simulate_event`` through the services on every format (or
those of ``--simulate-formats``) at the sizes of ``--simulate-sizes`` (by default the same as ``--sizes``), checks
each report against the rules of its format with the checks of tests/tournaments/test_simulate_event.py, rolls the
rehearsal back and times it; it exits 1 if a rule is broken. A field above a format's largest (tournaments/core.py
``MAX_FIELD``) is reported as refused, and so is a Swiss into a knockout smaller than its smallest knockout (4).
``--no-plans`` skips the coin-toss runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import brackets

FORMATS = [f.value for f in brackets.BracketFormat]
SIZES = "2-64,100,128,256,513"


def sizes(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    return out


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("brackets_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["brackets_before"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def play(module: ModuleType, plan: Any, rng: random.Random) -> tuple[dict[str, Any], dict[str, str]]:
    """Resolve the plan to the end with coin tosses; returns the final states and the results."""
    seeds = {k: f"p{k}" for k in range(1, plan.entrants + 1)}
    places = {label: f"place {i}" for i, label in enumerate(plan.places, 1)}
    results: dict[str, str] = {}
    while True:
        states = module.resolve(plan, seeds=seeds, results=results, places=places, places_closed=True)
        ready = [s for s in states.values() if s.status == "ready"]
        if not ready:
            return states, results
        results.update({s.key: rng.choice((s.a, s.b)) for s in ready})


def first_losses(plan: Any, states: dict[str, Any], results: dict[str, str], bracket: str, within: int) -> set[str]:
    played: Counter[str] = Counter()
    final = plan.final_key(bracket)
    out = set()
    for node in plan.nodes:
        if node.bracket != bracket or node.key not in results:
            continue
        state = states[node.key]
        played.update((state.a, state.b))
        if node.key != final and played[state.loser] <= within:
            out.add(state.loser)
    return out


def entrants(plan: Any, states: dict[str, Any], bracket: str) -> set[str]:
    return {p for n in plan.nodes if n.bracket == bracket for p in (states[n.key].a, states[n.key].b) if p}


def check(plan: Any, states: dict[str, Any], results: dict[str, str]) -> None:
    for bracket in (brackets.MAIN, brackets.CONSOLATION, brackets.LAST_CHANCE):
        for round_ in plan.rounds(bracket):
            seen = [p for n in round_ for p in (states[n.key].a, states[n.key].b) if p]
            assert len(seen) == len(set(seen)), f"someone plays twice in {bracket} round {round_[0].round}"
    assert plan.entrants < 2 or brackets.champion(plan, states) is not None, "one main champion"
    fmt = plan.format
    if fmt in ("main-consolation", "progressive-consolation", "main-consolation-lastchance"):
        wanted = first_losses(plan, states, results, brackets.MAIN, plan.drop_rounds)
        got = entrants(plan, states, brackets.CONSOLATION)
        assert got == (wanted if plan.rounds(brackets.CONSOLATION) else set()), (fmt, plan.entrants)
        assert plan.rounds(brackets.CONSOLATION) or len(wanted) <= 1, "a consolation left out"
    if fmt == "main-consolation-lastchance" and plan.rounds(brackets.LAST_CHANCE):
        wanted = first_losses(plan, states, results, brackets.CONSOLATION, plan.last_chance_drop_rounds or 0)
        assert entrants(plan, states, brackets.LAST_CHANCE) == wanted | {f"place {i}" for i in range(1, 3)}
    for bracket in (brackets.CONSOLATION, brackets.LAST_CHANCE):
        if fmt != "double-elimination" and plan.rounds(bracket):
            assert len(entrants(plan, states, bracket)) >= 2 or plan.places, "a flight of one"


def measure(module: ModuleType, fmt: str, n: int, runs: int, checked: bool) -> dict[str, Any]:
    options = {"last_chance_places": 2} if fmt == "main-consolation-lastchance" else {}
    started = time.perf_counter()
    module._plan.cache_clear()
    plan = module.plan_bracket(n, fmt, **options)
    planned = time.perf_counter() - started
    rng = random.Random(f"{fmt} {n}")
    actual, left_out, lone, resolve_times = [], [], 0, []
    possible = sum(
        isinstance(s, module.Loser) for nd in plan.nodes if nd.bracket == "consolation" for s in (nd.a, nd.b)
    )
    for _ in range(runs):
        started = time.perf_counter()
        states, results = play(module, plan, rng)
        resolve_times.append(time.perf_counter() - started)
        got = entrants(plan, states, brackets.CONSOLATION)
        actual.append(len(got))
        if fmt in ("main-consolation", "main-consolation-lastchance") and plan.rounds(brackets.CONSOLATION):
            left_out.append(len(first_losses(plan, states, results, brackets.MAIN, 1) - got))
        lone += int(fmt != "double-elimination" and len(got) == 1)
        if checked:
            check(plan, states, results)
    return {
        "possible": possible,
        "mean": statistics.mean(actual),
        "left_out": statistics.mean(left_out) if left_out else 0.0,
        "lone": lone,
        "plan_ms": planned * 1000,
        "resolve_ms": statistics.median(resolve_times) * 1000,
    }


def simulate(fmt_sizes: list[int], formats: list[str]) -> int:
    """Rehearse every format on every size through the services, check each report against the rules of its format
    (the checks of tests/tournaments/test_simulate_event.py) and roll it back. Returns the number of broken cases."""
    import django

    django.setup()
    from django.db import connection, transaction
    from django.test.utils import setup_test_environment

    from common.errors import ApplicationError
    from tests.tournaments.test_simulate_event import check_report
    from tournaments.core import MAX_FIELD
    from tournaments.models import FORMATS as ALL_FORMATS
    from tournaments.models import KNOCKOUT_SIZES
    from tournaments.simulation import simulate_event

    setup_test_environment()
    print(f"simulate_event on {connection.settings_dict['NAME']}: format, players, matches, seconds, rules")
    broken = 0
    for fmt in formats or list(ALL_FORMATS):
        for n in fmt_sizes:
            if n > MAX_FIELD.get(fmt, n):  # the start must refuse it, saying why (never a timeout)
                with transaction.atomic():
                    try:
                        simulate_event(format=fmt, players=n, seed=1000 + n, match_length=1)
                        verdict = f"BROKEN: not refused above the largest field ({MAX_FIELD[fmt]})"
                        broken += 1
                    except ApplicationError as refused:
                        verdict = f"refused above the largest field ({MAX_FIELD[fmt]}): {refused.message}"
                    transaction.set_rollback(True)
                print(f"{fmt:28} {n:4}        -       -  {verdict}", flush=True)
                continue
            seed = 1000 + n
            started = time.perf_counter()
            with transaction.atomic():  # rolled back: nothing a rehearsal writes is kept
                try:
                    report = simulate_event(format=fmt, players=n, seed=seed, match_length=1)
                except ApplicationError as refused:  # a Swiss into a knockout of 4 refuses fewer than 4 players
                    transaction.set_rollback(True)
                    expected = fmt == "swiss-knockout" and n < min(KNOCKOUT_SIZES)
                    broken += 0 if expected else 1
                    print(f"{fmt:28} {n:4}        -       -  refused: {refused.message}", flush=True)
                    continue
                took = time.perf_counter() - started
                try:  # the checks read the division too, so before the rollback
                    check_report(report, fmt, n, seed, 1)
                    verdict = "held"
                except AssertionError as error:
                    broken += 1
                    verdict = f"BROKEN: {str(error).splitlines()[0] if str(error) else 'assertion'}"
                transaction.set_rollback(True)
            played = sum(len(r["pairings"]) for r in report["rounds"])
            print(f"{fmt:28} {n:4} {played:8} {took:7.2f}  {verdict}", flush=True)
    print(f"simulate_event: {broken} broken case(s)")
    return broken


def plans(args: argparse.Namespace, before: ModuleType | None) -> None:
    print("format                        n   possible  mean  left-out  lone  plan ms  resolve ms   (before: same)")
    totals: Counter[str] = Counter()
    for fmt in FORMATS:
        for n in sizes(args.sizes):
            now = measure(brackets, fmt, n, args.runs, checked=True)
            line = (
                f"{fmt:28} {n:4} {now['possible']:8} {now['mean']:6.1f} {now['left_out']:8.1f} {now['lone']:5}"
                f" {now['plan_ms']:8.2f} {now['resolve_ms']:10.2f}"
            )
            totals["cases"] += 1
            totals["lone now"] += now["lone"]
            if before is not None:
                was = measure(before, fmt, n, args.runs, checked=False)
                line += (
                    f"   | {was['possible']:6} {was['mean']:6.1f} {was['left_out']:6.1f} {was['lone']:4}"
                    f" {was['plan_ms']:8.2f} {was['resolve_ms']:8.2f}"
                )
                totals["lone before"] += was["lone"]
                totals["left out before"] += round(was["left_out"] * args.runs)
            totals["left out now"] += round(now["left_out"] * args.runs)
            print(line, flush=True)
    print(f"rules held on {totals['cases']} format-size cases x {args.runs} runs; totals: {dict(totals)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="coin-toss runs per format and size (5)")
    parser.add_argument("--sizes", default=SIZES, help=f"field sizes ({SIZES})")
    parser.add_argument("--before", help="another brackets.py to measure beside (an earlier version)")
    parser.add_argument("--simulate", action="store_true", help="also run simulate_event through the services")
    parser.add_argument("--simulate-sizes", default=SIZES, help=f"sizes for --simulate ({SIZES})")
    parser.add_argument("--simulate-formats", default="", help="formats for --simulate, comma-separated (all)")
    parser.add_argument("--no-plans", action="store_true", help="skip the coin-toss runs of the plans")
    args = parser.parse_args()
    before = load(args.before) if args.before else None
    if not args.no_plans:
        plans(args, before)
    if args.simulate:
        formats = [f for f in args.simulate_formats.split(",") if f]
        if simulate(sizes(args.simulate_sizes), formats):
            sys.exit(1)


if __name__ == "__main__":
    main()
