"""Check that the .mat files the engine writes import into GNU Backgammon with the same games and scores.

Run from the repository root with the project's Python (NOT inside gnubg):

    .venv/bin/python tools/gnubg/check_exports.py              # writes tests/engine/data/gnubg/import_check.txt

Steps:

1. Every log of the corpus (``../shared/corpus/mat`` beside the repository, or ``--corpus DIR``) is replayed by the engine
   (``replay_record``) and written again by the engine's writer (``write_match``) into a temporary folder.
2. Each written file is imported by gnubg in a gnubg run of its own (``gnubg -t -q -r -p`` this same script, which
   then takes the "inside gnubg" branch below), so every message gnubg prints while importing belongs to that file.
   The script runs ``import mat FILE``, reads the games from ``gnubg.match()`` and cross-checks the total with
   ``show score``; then it runs ``export match mat`` to write gnubg's own version of the match.
3. The results are compared with the engine's and written one line per corpus file:
   ``<corpus path> TAB <ok|ok-winner|DIFF> TAB <ours json> TAB <gnubg json>``.
4. gnubg's re-exports are read back with ``python -m engine check``; the summary goes to standard error.

The classes: ``ok`` means the same players, match length, number of games, every game's winner and points, and
the same score, and gnubg printed nothing while importing. ``ok-winner`` means the only differences are games that
the engine ended by a match concession: the writer puts those down as ``Wins 3*cube+1 points`` and gnubg reads any
resignation worth more than a gammon as a backgammon, so it counts 3*cube points where the engine counts the
points the winner needed; each game's winner and the match winner are the same. Anything else is ``DIFF``.

Player 0 / "left" is the left column of the .mat file, which is gnubg's player "X" in ``gnubg.match()``.
"""

from __future__ import annotations

import json
import os
import re
import sys

sys.dont_write_bytecode = True  # keep tools/gnubg free of __pycache__

JOB_ENV = "CHECK_EXPORTS_JOB"  # set by the driver for the run inside gnubg: a JSON object {mat, result, reexport}
BEGIN, END = "@@check_exports import begin@@", "@@check_exports import end@@"


# -- inside gnubg ----------------------------------------------------------------------------------------------------


def _flush_all() -> None:
    """Flush Python's and C's stdout buffers so the markers and gnubg's own messages come out in order."""
    import ctypes

    sys.stdout.flush()
    sys.stderr.flush()
    ctypes.CDLL(None).fflush(None)


def inside_gnubg(job: dict) -> None:
    import gnubg

    gnubg.command("set display off")
    _flush_all()
    print(BEGIN)
    _flush_all()
    gnubg.command(f'import mat "{job["mat"]}"')
    _flush_all()
    print(END)
    _flush_all()
    m = gnubg.match(0, 0, 0, 1)
    info = m["match-info"]
    results, resigned, score = [], [], [0, 0]
    for g in m["games"]:
        gi = g["info"]
        winner = {"X": 0, "O": 1}.get(gi.get("winner"))
        points = gi.get("points-won", 0) if winner is not None else 0
        if [gi["score-X"], gi["score-O"]] != score:
            raise AssertionError(f"game header score {gi} != running total {score}")
        if winner is not None:
            score[winner] += points
        results.append([winner, points])
        resigned.append(bool(gi.get("resigned")))
    text = gnubg.show("score")
    sm = re.search(r"is: .* (\d+), .* (\d+) \(match to (\d+) point", text)
    shown = [int(sm.group(1)), int(sm.group(2))] if sm else None
    out = {
        "match_length": info["match-length"],
        "variation": info.get("variation"),
        "players": [info["X"]["name"], info["O"]["name"]],
        "games": len(results),
        "results": results,
        "resigned": resigned,
        "score": score,
        "show_score": shown,
        "show_score_text": text.strip(),
    }
    if job.get("reexport"):
        gnubg.command(f'export match mat "{job["reexport"]}"')
    with open(job["result"], "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False)


# -- driver (the project's Python) -----------------------------------------------------------------------------------

BOARD_LINE = re.compile(r"^( GNU Backgammon  Position ID:| {17}Match ID   :| [+|]|[v^]\|)")


def import_messages(output: str) -> list[str]:
    """What gnubg printed during the import, without the board it shows at the end."""
    if BEGIN not in output or END not in output:
        return ["(markers missing from gnubg's output)"]
    part = output.split(BEGIN, 1)[1].split(END, 1)[0]
    return [line.rstrip() for line in part.splitlines() if line.strip() and not BOARD_LINE.match(line)]


def gnubg_version(exe: str) -> str:
    import subprocess

    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0].strip()


def run_gnubg(exe: str, job: dict, log_path: str) -> int:
    import subprocess

    env = dict(os.environ, LC_ALL="C", **{JOB_ENV: json.dumps(job)})
    with open(log_path, "w") as log:
        return subprocess.run(
            [exe, "-t", "-q", "-r", "-p", os.path.abspath(__file__)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=os.path.dirname(job["mat"]),
            timeout=300,
        ).returncode


def ours_of(rep) -> dict:
    results = [[g.winner, g.points if g.winner is not None else 0] for g in rep.games]
    return {
        "match_length": rep.record.match_length,
        "players": list(rep.record.players),
        "games": len(rep.games),
        "results": results,
        "score": list(rep.score),
    }


def match_winner(score: list[int], length: int) -> int | None:
    if length <= 0:
        return None
    return 0 if score[0] >= length else 1 if score[1] >= length else None


def classify(ours: dict, theirs: dict, concessions: set[int]) -> tuple[str, list[str]]:
    """(class, reasons).  ``concessions`` holds the 0-based games the engine ended by a match concession."""
    why = []
    if theirs.get("error"):
        return "DIFF", [theirs["error"]]
    for key in ("match_length", "players", "games"):
        if ours[key] != theirs[key]:
            why.append(f"{key}: ours {ours[key]!r}, gnubg {theirs[key]!r}")
    if theirs["warnings"]:
        why.append(f"{len(theirs['warnings'])} gnubg message(s) on import")
    if theirs["show_score"] != theirs["score"]:
        why.append(f"gnubg's show score {theirs['show_score']} != sum of its games {theirs['score']}")
    conceded_only = True
    for i, (a, b) in enumerate(zip(ours["results"], theirs["results"], strict=False)):
        if a == b:
            continue
        if i in concessions and a[0] == b[0]:
            why.append(f"game {i + 1}: ours {a}, gnubg {b} (concession read as a backgammon)")
        else:
            conceded_only = False
            why.append(f"game {i + 1}: ours {a}, gnubg {b}")
    if why == [] and ours["score"] == theirs["score"]:
        return "ok", []
    hard = [w for w in why if "concession read as" not in w]
    same_winner = match_winner(ours["score"], ours["match_length"]) == match_winner(
        theirs["score"], theirs["match_length"]
    )
    if not hard and conceded_only and same_winner:
        return "ok-winner", why
    if not same_winner:
        names = {0: "left", 1: "right", None: "nobody (match unfinished)"}
        why.append(
            f"match winner: ours {names[match_winner(ours['score'], ours['match_length'])]}, "
            f"gnubg {names[match_winner(theirs['score'], theirs['match_length'])]}"
        )
    if ours["score"] != theirs["score"] and not why:
        why.append(f"score: ours {ours['score']}, gnubg {theirs['score']}")
    return "DIFF", why


def main() -> int:
    import argparse
    import datetime
    import shlex
    import shutil
    import subprocess
    import tempfile
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    from engine.formats.mat import read_mat
    from engine.formats.matlog import replay_record, write_match

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_corpus = os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "corpus", "mat")
    )
    ap.add_argument("--corpus", default=default_corpus, help="folder of .mat logs (default: ../shared/corpus/mat)")
    ap.add_argument("--out", default=str(root / "tests/engine/data/gnubg/import_check.txt"))
    ap.add_argument("--gnubg", default=os.environ.get("GNUBG") or "/usr/games/gnubg")
    ap.add_argument("--keep", help="write the exported files, gnubg's logs and re-exports here instead of a temp dir")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    args = ap.parse_args()

    corpus = Path(args.corpus)
    files = sorted(
        p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() in (".mat", ".txt") and p.name != "README.md"
    )
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="check_exports."))
    work.mkdir(parents=True, exist_ok=True)
    print(f"{len(files)} corpus files; work folder {work}", file=sys.stderr)

    items = []
    for n, path in enumerate(files):
        rel = path.relative_to(corpus).as_posix()
        rep = replay_record(read_mat(path.read_bytes()))
        if not rep.ok:
            raise SystemExit(f"{rel}: the engine does not accept the corpus file: {rep.fault}")
        text = write_match(
            [g.actions for g in rep.games],
            players=rep.record.players,
            match_length=rep.record.match_length,
            variant=rep.variant,
            crawford_rule=rep.crawford_rule,
        )
        base = work / f"{n:03d}"
        mat = base.with_suffix(".mat")
        mat.write_text(text, encoding="utf-8")
        concessions = {i for i, o in enumerate(rep.state.outcomes) if o.ended_by == "concession"}
        job = {"mat": str(mat), "result": str(base) + ".gnubg.json", "reexport": str(base) + ".gnubg.mat"}
        items.append((rel, ours_of(rep), concessions, job, str(base) + ".log"))

    def run(item):
        job, log = item[3], item[4]
        rc = run_gnubg(args.gnubg, job, log)
        with open(log, encoding="utf-8", errors="replace") as f:
            output = f.read()
        try:
            with open(job["result"], encoding="utf-8") as f:
                theirs = json.load(f)
        except (OSError, ValueError) as exc:
            theirs = {"error": f"gnubg run failed (exit {rc}): {exc}"}
        theirs["warnings"] = import_messages(output)
        return theirs

    with ThreadPoolExecutor(args.jobs) as pool:
        all_theirs = list(pool.map(run, items))

    # gnubg's own re-exports, read back by the engine
    reexports = [job["reexport"] for _, _, _, job, _ in items if os.path.exists(job["reexport"])]
    check = subprocess.run(
        [sys.executable, "-m", "engine", "check", *reexports], cwd=root, capture_output=True, text=True
    )
    checked = [json.loads(line) for line in check.stdout.splitlines() if line.strip()]
    by_file = {c["file"]: c for c in checked}

    counts: dict[str, int] = {}
    lines, notes, reexport_bad = [], [], []
    for (rel, ours, concessions, job, _), theirs in zip(items, all_theirs, strict=True):
        cls, why = classify(ours, theirs, concessions)
        counts[cls] = counts.get(cls, 0) + 1
        for w in why:
            notes.append(f"{rel}: {w}")
        for w in theirs.get("warnings", []):
            notes.append(f"{rel}: gnubg said: {w}")
        c = by_file.get(job["reexport"])
        if c is None or not c["ok"] or c["score"] != theirs.get("score") or c["games"] != theirs.get("games"):
            reexport_bad.append(f"{rel}: gnubg re-export checked as {c}")
        shown = {
            k: theirs[k] for k in ("match_length", "players", "games", "results", "score", "warnings") if k in theirs
        }
        if "error" in theirs:
            shown["error"] = theirs["error"]
        lines.append("\t".join([rel, cls, json.dumps(ours, ensure_ascii=False), json.dumps(shown, ensure_ascii=False)]))

    version = gnubg_version(args.gnubg)
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    header = [
        "# Do the .mat files the engine writes import into GNU Backgammon with the same games and scores?",
        f"# Made by tools/gnubg/check_exports.py on {today} with {version}:",
        "#   .venv/bin/python tools/gnubg/check_exports.py",
        "# Each corpus log (../shared/corpus/mat) is replayed by the engine (replay_record) and written again by",
        "# write_match; gnubg imports the written file in a run of its own",
        f"#   LC_ALL=C {shlex.quote(args.gnubg)} -t -q -r -p tools/gnubg/check_exports.py",
        "#   (inside gnubg the script runs: set display off; import mat FILE; export match mat FILE2)",
        "# and the games are read from gnubg.match() (cross-checked with `show score`).",
        "# Columns: <corpus path> TAB <class> TAB <ours json> TAB <gnubg json>",
        "#   results: [winner, points] per game, winner 0 = left column of the .mat = gnubg's X, null = unfinished;",
        "#   score: points won, uncapped [left, right]; warnings: every line gnubg printed while importing.",
        "# Classes: ok = same players, length, games, every game's winner and points, score, and no gnubg message.",
        "#   ok-winner = differs only in games the engine ended by a match concession: the writer puts those down as",
        "#   'Wins 3*cube+1 points', and gnubg reads a resignation worth more than 2*cube as a backgammon (3*cube",
        "#   points), where the engine counts the points the winner needed; same winners and same match winner.",
        "#   DIFF = anything else. A concession when the winner needed more than 3*cube points cannot be written so",
        "#   that gnubg ends the match: it reads a backgammon (3*cube) and leaves the match unfinished -> DIFF.",
        "# Totals: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" (of {len(items)})",
        f"# gnubg's own re-export (export match mat) of every imported file read back by python -m engine check:"
        f" {len(items) - len(reexport_bad)} of {len(items)} ok with gnubg's games and score.",
    ]
    Path(args.out).write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work)

    print("totals:", counts, file=sys.stderr)
    for n in notes:
        print("  " + n, file=sys.stderr)
    print(f"re-exports checked: {len(items) - len(reexport_bad)} of {len(items)} ok", file=sys.stderr)
    for r in reexport_bad:
        print("  " + r, file=sys.stderr)
    # A DIFF is a finding, written to the file; only a failed gnubg run or a bad re-export fails the script.
    return 1 if reexport_bad or any("error" in t for t in all_theirs) else 0


if __name__ == "__main__":
    _job = os.environ.get(JOB_ENV)
    if _job:
        inside_gnubg(json.loads(_job))
    else:
        sys.exit(main())
