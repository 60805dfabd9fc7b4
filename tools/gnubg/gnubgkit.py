"""Small helpers shared by the generator scripts.  They run INSIDE gnubg
(`gnubg -t -q -r -p tools/gnubg/<script>.py`, from the repository root), where
the `gnubg` module is importable."""

import base64
import os
import shutil
import subprocess
import sys

import gnubg

START_ID = "4HPwATDgc/ABMA"


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def silence_stdout():
    """gnubg prints a board after nearly every command; send fd 1 away."""
    sys.stdout.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)


def gnubg_version():
    """First line of `gnubg --version`, e.g. 'GNU Backgammon 1.07.001 20230103'."""
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0].strip()


def cmd(text):
    gnubg.command(text)


def matchid_bits(mid):
    """Decode the few Match ID fields the scripts use for FLOW CONTROL only
    (never written to a vector file): returns dict with move, state, dice."""
    raw = base64.b64decode(mid + "=" * (-len(mid) % 4))
    bits = int.from_bytes(raw, "little")

    def field(start, width):
        return (bits >> start) & ((1 << width) - 1)

    return {"move": field(6, 1), "state": field(8, 3), "turn": field(11, 1),
            "dice": (field(15, 3), field(18, 3))}


def swap_id(pid):
    """Same position, the other player encoded second (turn passes)."""
    b = gnubg.positionfromid(pid)
    return gnubg.positionid((b[1], b[0]))


def board_of(pid):
    """(opponent, mover) lists for a Position ID with the mover second."""
    b = gnubg.positionfromid(pid)
    return list(b[0]), list(b[1])


def common_setup():
    cmd("set player 0 human")
    cmd("set player 1 human")
    cmd("set automatic game off")
    cmd("set automatic roll off")
    cmd("set automatic bearoff off")
    cmd("set display off")


def decode_matchid(mid):
    """Full Match ID decode (FORMATS.md section 4).  Used only to CROSS-CHECK
    the fields read from gnubg's state; never the source of a vector."""
    raw = base64.b64decode(mid + "=" * (-len(mid) % 4))
    bits = int.from_bytes(raw, "little")

    def field(start, width):
        return (bits >> start) & ((1 << width) - 1)

    owner = field(4, 2)
    d1, d2 = field(15, 3), field(18, 3)
    return {
        "cube_value": 1 << field(0, 4),
        "cube_owner": None if owner == 3 else owner,
        "player_on_roll": field(6, 1),
        "crawford": bool(field(7, 1)),
        "game_state": field(8, 3),
        "turn": field(11, 1),
        "double_offered": bool(field(12, 1)),
        "resignation": field(13, 2),
        "dice": None if d1 == 0 else [max(d1, d2), min(d1, d2)],
        "match_length": field(21, 15),
        "score": [field(36, 15), field(51, 15)],
        "jacoby": not field(66, 1),
        "_raw_dice": [d1, d2],
    }
