"""Generate tests/engine/data/gnubg/matchid.txt: Match ID vectors from gnubg.

Run from the repository root:
    LC_ALL=C gnubg -t -q -r -p tools/gnubg/gen_matchid.py > /dev/null

Matches are played inside gnubg with both players set to "human" so the
script can stop at chosen moments (dice rolled or not, double offered,
resignation offered, game over, Crawford game, ...).  Chequer plays are
gnubg's own 0-ply choice (gnubg.hint(1)); dice come from gnubg's seeded
Mersenne Twister.  At each snapshot the Match ID is gnubg.matchid() and the
decoded fields are read from gnubg's match state through gnubg.cubeinfo()
and gnubg.posinfo() (which copy gnubg's internal `ms` fields), NOT by
decoding the ID, so each line is independent evidence for a decoder.
"""

import json
import os
import re
import sys

sys.dont_write_bytecode = True   # keep tools/gnubg free of __pycache__
sys.path.insert(0, os.path.join(os.getcwd(), "tools", "gnubg"))

import gnubg  # noqa: E402

import gnubgkit  # noqa: E402
from gnubgkit import common_setup, gnubg_version, log, silence_stdout  # noqa: E402

SEED = 4242
OUT = os.path.join("tests", "engine", "data", "gnubg", "matchid.txt")

snapshots = []   # (label, match id, fields)
cmd = gnubgkit.cmd


def score_from_show():
    """Score and match length from gnubg's `show score` text.

    (gnubg.cubeinfo() reports 0-0 in money sessions, so the score is always
    taken from here.)"""
    text = gnubg.show("score")
    m = re.search(r"is: .* (\d+), .* (\d+) \((?:match to (\d+) point|money session)", text)
    if not m:
        raise RuntimeError("cannot read score: %r" % text)
    return [int(m.group(1)), int(m.group(2))], int(m.group(3) or 0)


def state_fields():
    pi = gnubg.posinfo()
    score, length = score_from_show()
    try:
        ci = gnubg.cubeinfo()
    except Exception:
        # Match over: gnubg.cubeinfo() refuses a score >= the match length.
        # Move the score out of the way (gnubg's own `set score`) and read the
        # remaining fields; this is the last look at the finished match.
        cmd("set score 0 0")
        ci = gnubg.cubeinfo()
    dice = pi["dice"]
    return {
        "cube_value": ci["cube"],
        "cube_owner": None if ci["cubeowner"] < 0 else ci["cubeowner"],
        "player_on_roll": ci["move"],
        "crawford": bool(ci["crawford"]),
        "game_state": pi["gamestate"],
        "turn": pi["turn"],
        "double_offered": bool(pi["doubled"]),
        "resignation": pi["resigned"],
        "dice": None if dice[0] == 0 else [max(dice), min(dice)],
        "match_length": length,
        "score": score,
        "jacoby": bool(ci["jacoby"]),
    }


def snap(label):
    mid = gnubg.matchid()
    fields = state_fields()
    snapshots.append((label, mid, fields))
    decoded = gnubgkit.decode_matchid(mid)
    diff = {k: (v, decoded[k]) for k, v in fields.items() if decoded[k] != v}
    if diff:
        raise RuntimeError("%s (%s): gnubg state and ID disagree: %s" % (mid, label, diff))
    log("%-14s %s" % (mid, label))
    return fields


def gs():
    return gnubg.posinfo()["gamestate"]


def play_move():
    """The player on roll (dice already rolled) plays gnubg's 0-ply choice."""
    hint = gnubg.hint(1)["hint"]
    if hint:
        cmd("move " + hint[0]["move"])
    else:
        cmd("move")          # no legal play: the empty move passes the turn


def turn():
    """Roll and play one turn for the player on roll."""
    cmd("roll")
    if gs() == 1 and gnubg.posinfo()["dice"][0]:
        play_move()


def play_turns(n):
    for _ in range(n):
        if gs() != 1:
            return
        turn()


def play_out(limit=400):
    """Play until the game ends; return the game state (2 = normal end)."""
    for _ in range(limit):
        if gs() != 1:
            return gs()
        turn()
    raise RuntimeError("game did not end")


def new_game():
    cmd("new game")
    assert gs() == 1


def main():
    silence_stdout()
    common_setup()
    cmd("set rng mersenne")
    cmd("set seed %d" % SEED)
    cmd("set evaluation chequerplay evaluation plies 0")
    cmd("set defaultnames Alice Bob")
    cmd("set jacoby off")
    cmd("set crawford on")
    cmd("set cube use on")
    cmd("set beavers 0")

    # ---- 3-point match: opening, cube, resignation, Crawford, drop, match over
    cmd("new match 3")
    snap("3-point match, opening roll, player on roll has the dice")
    play_move()
    snap("after the opening play: next player to roll, no dice")
    cmd("roll")
    snap("dice rolled, cube centred")
    play_move()
    cmd("double")
    snap("double offered (cube 1 -> 2), taker must act")
    cmd("take")
    snap("double taken: cube 2 owned by the taker, doubler to roll")
    play_turns(5)
    snap("mid-game, cube 2 owned, dice not rolled")
    cmd("roll")
    snap("mid-game, cube 2 owned, dice rolled")
    play_move()
    cmd("resign normal")
    snap("single-game resignation offered (cube 2)")
    cmd("accept")
    snap("game over by accepted resignation (cube 2: 2 points)")
    new_game()
    snap("Crawford game starts")
    cmd("double")                        # refused by gnubg in the Crawford game
    assert not gnubg.posinfo()["doubled"]
    play_turns(3)
    cmd("roll")
    snap("Crawford game, dice rolled")
    play_move()
    play_turns(4)
    leader = 0 if gnubg.cubeinfo()["score"][0] == 2 else 1
    if gnubg.cubeinfo()["move"] != leader:
        turn()
    cmd("resign normal")
    snap("Crawford game: the leader offers a single game")
    cmd("accept")
    snap("Crawford game over by resignation")
    new_game()
    snap("post-Crawford game starts")
    if gnubg.posinfo()["dice"][0]:
        play_move()
    if gnubg.cubeinfo()["move"] == leader:
        turn()
    cmd("double")
    snap("post-Crawford double offered")
    cmd("drop")
    snap("double dropped: game ended by drop")
    while max(score_from_show()[0]) < 3:
        new_game()
        play_out()
    snap("3-point match over")

    # ---- 7-point match: redoubles, rejected resignation, backgammon offer
    cmd("new match 7")
    snap("7-point match, opening roll")
    play_move()
    play_turns(2)
    cmd("double")
    snap("7-point: initial double offered")
    cmd("take")
    play_turns(3)
    ci = gnubg.cubeinfo()
    if ci["cubeowner"] != ci["move"]:
        turn()
    cmd("double")
    snap("7-point: redouble to 4 offered")
    cmd("take")
    snap("7-point: cube 4 owned after the take")
    play_turns(4)
    cmd("resign normal")
    snap("single-game resignation offered")
    cmd("reject")
    snap("resignation rejected, play continues")
    cmd("roll")
    snap("7-point, cube 4, dice rolled")
    play_move()
    cmd("resign backgammon")
    snap("backgammon resignation offered")
    cmd("reject")
    play_turns(1)
    cmd("set score 5 4")
    snap("7-point, score set to 5-4")
    cmd("set cube value 8")
    cmd("set cube owner 1")
    snap("7-point, cube 8 owned by player 1 (set)")
    cmd("set cube value 16")
    cmd("set cube owner 0")
    cmd("roll")
    snap("7-point, cube 16 owned by player 0, dice rolled")

    # ---- 25-point match with large scores, Crawford and post-Crawford
    cmd("new match 25")
    snap("25-point match, opening roll")
    cmd("set score 24 17")
    cmd("set crawford on")
    snap("25-point, 24-17, Crawford game (set)")
    play_move()
    cmd("roll")
    snap("25-point Crawford game, dice rolled")
    cmd("set crawford off")
    cmd("set score 17 24")
    snap("25-point, 17-24, post-Crawford (set)")
    play_move()
    cmd("double")
    snap("25-point post-Crawford double offered")
    cmd("take")
    snap("25-point post-Crawford double taken")
    play_out()
    snap("25-point game played out")

    # ---- 1-point match: no cube, no Crawford
    cmd("new match 1")
    snap("1-point match, opening roll")
    play_move()
    snap("1-point match, second player to roll")
    play_out()
    snap("1-point match over")

    # ---- 5-point match with a beaten score and a gammon
    cmd("new match 5")
    snap("5-point match, opening roll")
    play_move()
    cmd("roll")
    snap("5-point, second player's dice")
    play_move()
    cmd("resign normal")
    snap("single resignation offered early")
    cmd("accept")
    snap("game over by accepted single resignation")
    new_game()
    cmd("set score 3 4")
    cmd("set crawford on")
    snap("5-point, 3-4, Crawford game, player 1 leads (set)")
    cmd("roll")
    cmd("resign gammon")
    snap("Crawford game: gammon resignation offered with the dice on the board")
    cmd("reject")
    cmd("set crawford off")
    cmd("set score 4 3")
    snap("5-point, 4-3, post-Crawford (set)")
    cmd("set cube value 2")
    cmd("set cube owner 1")
    cmd("roll")
    snap("5-point, cube 2 owned by player 1, dice rolled (set)")

    # ---- money sessions, Jacoby off and on
    cmd("set jacoby off")
    cmd("new session")
    snap("money session, Jacoby off, opening roll")
    play_move()
    cmd("double")
    snap("money: double offered")
    cmd("take")
    play_turns(2)
    ci = gnubg.cubeinfo()
    if ci["cubeowner"] != ci["move"]:
        turn()
    cmd("double")
    cmd("take")
    snap("money: cube 4 after redouble, taker owns it")
    cmd("roll")
    snap("money: cube 4, dice rolled")
    play_move()
    cmd("resign gammon")
    snap("money: gammon resignation offered")
    cmd("accept")
    snap("money: game over, resigned")
    new_game()
    snap("money: game 2, scores carried")
    cmd("set jacoby on")
    cmd("new session")
    snap("money session, Jacoby on, opening roll")
    play_move()
    snap("money, Jacoby on, no dice")
    cmd("double")
    cmd("drop")
    snap("money, Jacoby on: double dropped")
    new_game()
    cmd("set cube value 32")
    cmd("set cube owner 0")
    snap("money, Jacoby on, cube 32 owned by player 0 (set)")
    cmd("set jacoby off")

    write(gnubg_version())


def write(version):
    with open(OUT, "w") as f:
        f.write(HEADER.format(version=version, seed=SEED, n=len(snapshots)))
        for label, mid, fields in snapshots:
            f.write("# %s\n" % label)
            f.write("%s %s\n" % (mid, json.dumps(fields, sort_keys=False)))
    log("wrote", OUT, len(snapshots), "vectors")


HEADER = """\
# Match ID vectors produced by GNU Backgammon.
# Generated by tools/gnubg/gen_matchid.py with {version},
# gnubg RNG mersenne, seed {seed}; command (from the repository root):
#     LC_ALL=C gnubg -t -q -r -p tools/gnubg/gen_matchid.py   (or tools/gnubg/regenerate.sh)
# {n} vectors.  Line format:  <match id> <JSON object>
# The JSON fields were read from gnubg's match state, not decoded from the ID:
# gnubg.cubeinfo() and gnubg.posinfo() (copies of gnubg's internal match state)
# and the score and match length from gnubg's `show score` text (cubeinfo reports
# 0-0 in money sessions).  Once a match is over gnubg.cubeinfo() refuses to work
# (score >= length); for those vectors the score was read first, then gnubg's
# own `set score 0 0` was used to read the remaining fields.  As a consistency
# check the script also decodes each ID (FORMATS.md section 4); all agreed.
#   cube_value      cube value (1, 2, 4, ...)
#   cube_owner      0 or 1, null when the cube is centred
#   player_on_roll  gnubg's fMove: the player whose turn it is (who rolled / will roll)
#   crawford        gnubg's fCrawford.  True in the Crawford game; note that at
#                   the END of the game that brings a player to length-1 it is
#                   already true (it describes the next game), and once the
#                   Crawford game is over it is false again.
#   game_state      0 none, 1 playing, 2 over, 3 over by resignation, 4 over by drop
#   turn            gnubg's fTurn: who must act now (differs from player_on_roll
#                   while a double or a resignation is pending)
#   double_offered  true while a double awaits take/drop
#   resignation     0 none, 1 single, 2 gammon, 3 backgammon (offered by the player
#                   who is NOT `turn`)
#   dice            [high, low] or null when not rolled (gnubg keeps the dice in
#                   rolled order internally; the ID stores the larger die first)
#   match_length    0 for a money session
#   score           [player 0, player 1]
#   jacoby          the Jacoby rule flag (money play)
# Lines starting with # are comments; the one before each vector says what was
# happening.  Some states were reached with gnubg's own `set score`, `set crawford`
# and `set cube` commands ("(set)" in the comment).
"""

if __name__ == "__main__":
    main()
