"""Generate tests/engine/data/gnubg/exported/*.mat (+ .json sidecars).

Run from the repository root:
    LC_ALL=C gnubg -t -q -r -p tools/gnubg/gen_exported.py > /dev/null

gnubg plays whole matches against itself (both players "gnubg", chequer
play and cube decisions at 0 ply, Mersenne Twister dice with a fixed seed)
and writes them with its own `export match mat`.  For each wanted kind of
match the script tries seeds from a fixed base upwards and keeps the first
match that shows the wanted feature, so a rerun gives the same files
(except the EventDate tag, which is the day of the run).

The sidecar JSON holds what gnubg's state says about the finished match
(gnubg.match() game records and `show score`):
    match_length, variation, players [left, right], games, score [left, right]
    (points won, uncapped), winner "left"/"right", winner_name, and per game
    the winner, points, whether it ended by resignation, and the Crawford flag.
Player 0 (gnubg's "X" in gnubg.match(), SGF White) is the LEFT column.
"""

import json
import os
import re
import sys

sys.dont_write_bytecode = True   # keep tools/gnubg free of __pycache__
sys.path.insert(0, os.path.join(os.getcwd(), "tools", "gnubg"))

import gnubg  # noqa: E402

from gnubgkit import cmd, gnubg_version, log, silence_stdout  # noqa: E402

OUT_DIR = os.path.join("tests", "engine", "data", "gnubg", "exported")
NAMES = ("Alice", "Bob")


def cube_actions(text):
    return {k: text.count(k) for k in ("Doubles =>", "Takes", "Drops")}


def wanted():
    """(file stem, variation, match length, first seed, condition, note)"""
    return [
        ("gnubg_3pt", "standard", 3, 1,
         lambda info, text: info["games"] >= 2,
         "3-point match, first seed with at least two games"),
        ("gnubg_5pt_cube", "standard", 5, 100,
         lambda info, text: (cube_actions(text)["Takes"] >= 1 and cube_actions(text)["Drops"] >= 1
                             and not any(g["resigned"] for g in info["game_results"])
                             and info["games"] <= 6),
         "5-point match with a double taken and a double dropped, no resignation"),
        ("gnubg_5pt_resign", "standard", 5, 200,
         lambda info, text: (any(g["resigned"] for g in info["game_results"])
                             and info["games"] <= 5),
         "5-point match in which gnubg resigned at least one game"),
        ("gnubg_3pt_nackgammon", "nackgammon", 3, 300,
         lambda info, text: info["games"] >= 2,
         "3-point Nackgammon match, first seed with at least two games"),
    ]


def match_summary():
    m = gnubg.match(0, 0, 0, 1)
    games = []
    score = [0, 0]
    for g in m["games"]:
        gi = g["info"]
        side = 0 if gi["winner"] == "X" else 1
        assert [gi["score-X"], gi["score-O"]] == score, (gi, score)
        score[side] += gi["points-won"]
        games.append({"winner": ("left", "right")[side],
                      "points": gi["points-won"],
                      "resigned": bool(gi["resigned"]),
                      "crawford": bool(gi.get("crawford", False)),
                      "score_before": [gi["score-X"], gi["score-O"]]})
    # cross-check with gnubg's own score line
    text = gnubg.show("score")
    sm = re.search(r"is: .* (\d+), .* (\d+) \(match to (\d+) point", text)
    assert [int(sm.group(1)), int(sm.group(2))] == score, (text, score)
    length = m["match-info"]["match-length"]
    winner = 0 if score[0] >= length else 1
    assert score[winner] >= length
    return {
        "match_length": length,
        "variation": m["match-info"]["variation"],
        "players": [m["match-info"]["X"]["name"], m["match-info"]["O"]["name"]],
        "games": len(games),
        "score": score,
        "winner": ("left", "right")[winner],
        "winner_name": NAMES[winner],
        "game_results": games,
    }


def main():
    silence_stdout()
    cmd("set rng mersenne")
    for p in (0, 1):
        cmd("set player %d gnubg" % p)
        cmd("set player %d chequerplay evaluation plies 0" % p)
        cmd("set player %d cubedecision evaluation plies 0" % p)
    cmd("set defaultnames %s %s" % NAMES)
    cmd("set automatic game on")
    cmd("set crawford on")
    cmd("set cube use on")
    cmd("set display off")
    version = gnubg_version()
    os.makedirs(OUT_DIR, exist_ok=True)

    for stem, variation, length, base, condition, note in wanted():
        cmd("set variation %s" % variation)
        path = os.path.join(OUT_DIR, stem + ".mat")
        for seed in range(base, base + 500):
            cmd("set seed %d" % seed)
            cmd("new match %d" % length)
            info = match_summary()
            if os.path.exists(path):
                os.remove(path)
            cmd("export match mat %s" % path)
            with open(path) as f:
                text = f.read()
            if condition(info, text):
                break
        else:
            raise RuntimeError("no seed found for " + stem)
        info = dict(info)
        info.update({"file": stem + ".mat", "seed": seed, "rng": "mersenne",
                     "what": note, "generator": "tools/gnubg/gen_exported.py",
                     "gnubg": version, "cube_actions": cube_actions(text)})
        with open(os.path.join(OUT_DIR, stem + ".json"), "w") as f:
            json.dump(info, f, indent=2)
            f.write("\n")
        log(stem, "seed", seed, info["games"], "games", info["score"], info["winner"])
    cmd("set variation standard")


if __name__ == "__main__":
    main()
