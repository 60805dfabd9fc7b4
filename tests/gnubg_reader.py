"""What GNU Backgammon reads in a match file: the oracle of the SGF export's tests.

:func:`gnubg_reads` runs the real gnubg on a file (``load match`` for .sgf, ``import mat`` otherwise) and returns
what it parsed, from its own ``gnubg.match()``: the match's rules and players, and per game its score, result and
records (action, player, dice as an unordered pair, the board before the record as gnubg's Position ID), with the
analysis gnubg read back when asked, and the per-player statistics it computes from it.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

from games.analysis.engine import gnubg_path

READER = textwrap.dedent(
    """
    import json, os
    import gnubg
    out = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    gnubg.command("set confirm new off")
    path = os.environ["MATCH_FILE"]
    gnubg.command(('load match "%s"' if path.endswith(".sgf") else 'import mat "%s"') % path)
    gnubg.command("show statistics match")
    m = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
    info = m["match-info"]
    games = []
    for game in m["games"]:
        records = []
        for r in game["game"]:
            dice = sorted(r["dice"]) if r.get("dice") else None
            records.append({"action": r.get("action"), "player": r.get("player"), "dice": dice,
                            "board": r.get("board"),
                            "analysis": r.get("analysis") or {}})
        games.append({"info": game["info"], "records": records})
    out.write(json.dumps({"length": info["match-length"], "rules": info.get("rules") or [],
                          "variation": info.get("variation"), "names": [info["X"]["name"], info["O"]["name"]],
                          "games": games, "stats": m.get("stats")}) + "\\n")
    out.flush()
    """
)


def gnubg_answer(script_text: str, tmp_path: Path, env: dict[str, str], *, timeout: float = 300) -> Any:
    """Run ``script_text`` inside the real gnubg (``gnubg -t -q -r -p``) and read the JSON of its last line."""
    script = tmp_path / "gnubg_script.py"
    script.write_text(script_text)
    run = subprocess.run(
        [gnubg_path(), "-t", "-q", "-r", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**env, "LC_ALL": "C", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def gnubg_reads(path: Path, tmp_path: Path) -> dict[str, Any]:
    """What gnubg parsed in the match file at ``path`` (see the module's docstring)."""
    return dict(gnubg_answer(READER, tmp_path, {"MATCH_FILE": str(path)}))


def plays_and_results(read: dict[str, Any]) -> dict[str, Any]:
    """What a match is, without the analysis: rules, players, and per game the score, result and records."""
    return {
        "length": read["length"],
        "rules": sorted(read["rules"]),
        "variation": read["variation"],
        "names": read["names"],
        "games": [
            {
                "info": game["info"],
                "records": [{k: v for k, v in r.items() if k != "analysis"} for r in game["records"]],
            }
            for game in read["games"]
        ],
    }
