"""The side of the analysis that runs inside GNU Backgammon (``gnubg -t -q -r -p gnubg_server.py``).

It is not a module of the project: gnubg's embedded Python runs it, where ``import gnubg`` works. It serves one
request per line on standard input, as long as gnubg lives, so that one gnubg process analyses match after match:

    request:  {"mat": "<path of a .mat file>", "plies": N}
    answer:   one line "@@bgmatch " + JSON: {"ok": true, "match": <gnubg.match() with analysis and statistics>,
              "seconds": {"import": s, "analysis": s, "report": s}} or {"ok": false, "error": "<what went wrong>"}

gnubg prints a board after most commands, and its banner before this script starts; the answers therefore go to
a copy of standard output taken at start, and the real standard output is sent to /dev/null. The parent reads only
the lines that start with the marker.
"""

import json
import os
import sys
import time

import gnubg  # type: ignore[import-not-found]

MARKER = "@@bgmatch "
SIDES = {"X": 0, "O": 1}


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
    began = time.perf_counter()
    gnubg.command('import mat "{}"'.format(request["mat"]))
    imported = time.perf_counter()
    gnubg.command(f"set analysis chequerplay evaluation plies {plies}")
    gnubg.command(f"set analysis cubedecision evaluation plies {plies}")
    gnubg.command("analyse match")
    analysed = time.perf_counter()
    match = _normalise(_slim(gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)))
    seconds = {"import": imported - began, "analysis": analysed - imported, "report": time.perf_counter() - analysed}
    return {"ok": True, "match": match, "seconds": seconds}


def _slim(match):
    """Keep of each play's candidate list only the two best plays and the one played (the rest is not stored): the
    answer is then a fraction of the size, and a list of two or more still says that the play was not forced (as
    gnubg counts unforced moves in an SGF file of the analysis). ``imove`` is renumbered to match (0: the best was
    played)."""
    for game in match.get("games") or []:
        for record in game.get("game") or []:
            analysis = record.get("analysis") or {}
            moves, played = analysis.get("moves"), analysis.get("imove")
            if not moves:
                continue
            kept = list(moves[:2])
            if played is not None and 2 <= played < len(moves):
                kept.append(moves[played])
                analysis["imove"] = 2
            elif played is None or not 0 <= played < len(moves):
                analysis["imove"] = None
            analysis["moves"] = kept
    return match


def _normalise(match):
    """Add to each cube analysis its equities as gnubg's statistics use them: normalised money equity from the
    side on roll ("nd-eq" no double, "dt-eq" double, take; double, pass is 1 by definition). In match play
    ``match()`` gives the cubeful figures as match winning chances; gnubg converts them with its match equity
    table at the score, the cube and its owner of that decision, which this follows record by record."""
    info = match.get("match-info") or {}
    length = int(info.get("match-length") or 0)
    crawford_rule = "Crawford" in (info.get("rules") or [])
    crawford_seen = False
    for game in match.get("games") or []:
        head = game.get("info") or {}
        score = (int(head.get("score-X", 0)), int(head.get("score-O", 0)))
        crawford = bool(length and crawford_rule and not crawford_seen and length - 1 in score and max(score) < length)
        crawford_seen = crawford_seen or crawford
        cube, owner = 1, -1
        for record in game.get("game") or []:
            side = SIDES.get(record.get("player"))
            analysis = record.get("analysis") or {}
            if side is not None and "nd-cubeful-eq" in analysis and "dt-cubeful-eq" in analysis:
                nd, dt = float(analysis["nd-cubeful-eq"]), float(analysis["dt-cubeful-eq"])
                where = gnubg.cubeinfo(cube, owner, side, length, score if length else (0, 0), int(crawford))
                if length:
                    nd, dt = gnubg.mwc2eq(nd, where), gnubg.mwc2eq(dt, where)
                analysis["nd-eq"], analysis["dt-eq"] = nd, dt
                if analysis.get("probs"):
                    analysis["cubeless-eq"] = _cubeless(analysis["probs"], where, side)
            action = record.get("action")
            if action == "take" and side is not None:
                cube, owner = cube * 2, side
            elif action == "set":
                cube = int(record.get("cube", cube))
                if "cube-owner" in record:
                    owner = SIDES.get(record["cube-owner"], -1)
    return match


def _cubeless(probs, where, side):
    """The cubeless equity of the outcome probabilities for ``side`` on roll, as gnubg's cube analysis shows it
    (and writes it in an SGF file): a win is worth 1, a gammon and a backgammon add their prices at this score (1
    each in money play). ``cubeinfo`` gives the prices by player (0, 1), not from the side on roll."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(p) for p in probs)
    prices = where["gammonprice"]
    (gammon, backgammon), (lose_gammon_price, lose_backgammon_price) = prices[side], prices[1 - side]
    return (
        2.0 * win
        - 1.0
        + win_gammon * gammon
        + win_backgammon * backgammon
        - lose_gammon * lose_gammon_price
        - lose_backgammon * lose_backgammon_price
    )


def main():
    answers = _answers()
    _setup()
    answers.write(MARKER + json.dumps({"ok": True, "ready": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = _analyse(json.loads(line))
        except Exception as exc:  # gnubg raises plain exceptions; the parent decides what to do
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        answers.write(MARKER + json.dumps(answer) + "\n")
        answers.flush()


main()
