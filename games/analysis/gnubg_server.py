"""The side of the analysis that runs inside GNU Backgammon (``gnubg -t -q -r -p gnubg_server.py``).

It is not a module of the project: gnubg's embedded Python runs it, where ``import gnubg`` works. It serves one
request per line on standard input, as long as gnubg lives, so that one gnubg process analyses match after match:

    request:  {"mat": "<path of a .mat file>", "plies": N}
    answer:   one line "@@bgmatch " + JSON: {"ok": true, "match": <gnubg.match() with analysis and statistics>}
              or {"ok": false, "error": "<what went wrong>"}

gnubg prints a board after most commands, and its banner before this script starts; the answers therefore go to
a copy of standard output taken at start, and the real standard output is sent to /dev/null. The parent reads only
the lines that start with the marker.
"""

import json
import os
import sys

import gnubg  # type: ignore[import-not-found]

MARKER = "@@bgmatch "


def _answers():
    sys.stdout.flush()
    answers = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    return answers


def _setup():
    for command in (
        "set confirm new off",
        "set confirm save off",
        "set display off",
        "set player 0 human",
        "set player 1 human",
        "set automatic game off",
        "set automatic roll off",
    ):
        gnubg.command(command)


def _analyse(request):
    plies = int(request["plies"])
    gnubg.command('import mat "{}"'.format(request["mat"]))
    gnubg.command(f"set analysis chequerplay evaluation plies {plies}")
    gnubg.command(f"set analysis cubedecision evaluation plies {plies}")
    gnubg.command("analyse match")
    return gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)


def main():
    answers = _answers()
    _setup()
    answers.write(MARKER + json.dumps({"ok": True, "ready": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = {"ok": True, "match": _analyse(json.loads(line))}
        except Exception as exc:  # gnubg raises plain exceptions; the parent decides what to do
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        answers.write(MARKER + json.dumps(answer) + "\n")
        answers.flush()


main()
