"""Generate tests/engine/data/gnubg/movegen.txt: legal-play vectors from gnubg.

Run from the repository root:
    LC_ALL=C gnubg -t -q -r -p tools/gnubg/gen_movegen.py > /dev/null
(Debian installs the binary as /usr/games/gnubg.)

For every (position, roll) case:
  1. gnubg is put in the position (`set turn 1`, `set board ID`, `set dice`),
  2. gnubg.hint(HINT_MAX) lists the plays; chequer play is evaluated at
     0 ply, where gnubg applies no move filter, so the list is every play
     its move generator (GenerateMoves) produced, one per resulting position,
  3. every listed play is applied with gnubg's own `move` command and the
     resulting position is read back with gnubg.board(), turned so the mover
     is still encoded second (contract A orientation),
  4. the set of results is compared with bgrules.legal_results, an
     independent enumerator; any difference aborts the run.
"""

import os
import random
import sys

sys.dont_write_bytecode = True   # keep tools/gnubg free of __pycache__
sys.path.insert(0, os.path.join(os.getcwd(), "tools", "gnubg"))

import gnubg  # noqa: E402

import bgrules  # noqa: E402
from gnubgkit import (START_ID, board_of, cmd, common_setup, gnubg_version,  # noqa: E402
                      log, matchid_bits, silence_stdout, swap_id)

SEED = 20250611
OUT = os.path.join("tests", "engine", "data", "gnubg", "movegen.txt")
HINT_MAX = 100000          # far above the largest possible number of plays
RANDOM_GAMES = int(os.environ.get("GEN_GAMES", 5))        # random self-play games
FULL_ROLLS_EVERY = 12      # every 12th position of a game also gets all 21 rolls

ALL_ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


# --------------------------------------------------------------------------
# gnubg as the authority

def put_position(pid, d1, d2):
    """Make gnubg show `pid` with player 1 on roll and dice d1, d2."""
    for _attempt in range(2):
        cmd("set turn 1")
        cmd("set board " + pid)
        cmd("set dice %d %d" % (d1, d2))
        bits = matchid_bits(gnubg.matchid())
        if (gnubg.positionid() == pid and bits["state"] == 1 and bits["move"] == 1
                and sorted(bits["dice"]) == sorted((d1, d2))):
            return
        cmd("new game")   # the previous case ended the game (or none started)
    raise RuntimeError("gnubg refused position %s %d%d" % (pid, d1, d2))


def gnubg_plays(pid, d1, d2):
    """Return {move text: resulting ID (mover still second)} per gnubg."""
    put_position(pid, d1, d2)
    hint = gnubg.hint(HINT_MAX)
    assert hint["gnubgid"].split(":")[0] == pid, hint["gnubgid"]
    moves = []
    for entry in hint["hint"]:
        assert entry["context"]["plies"] == 0, entry["context"]
        moves.append(entry["move"])
    results = {}
    for move in moves:
        put_position(pid, d1, d2)
        cmd("move " + move)
        bits = matchid_bits(gnubg.matchid())
        # After a legal move the turn has passed (or the game is over), so
        # gnubg.board() is (mover, opponent); contract A wants mover second.
        assert bits["move"] == 0 or bits["state"] != 1, (pid, d1, d2, move)
        before, after = gnubg.board()
        results[move] = gnubg.positionid((after, before))
    return results


def case(pid, d1, d2):
    """One verified vector: (pid, d1, d2, sorted result IDs, moves dict)."""
    d1, d2 = max(d1, d2), min(d1, d2)
    plays = gnubg_plays(pid, d1, d2)
    ids = sorted(set(plays.values()))
    if len(ids) != len(plays):
        raise RuntimeError("gnubg listed two plays with one result: %s %d%d" % (pid, d1, d2))
    opp, me = board_of(pid)
    mine = sorted(gnubg.positionid((list(o), list(m)))
                  for o, m in bgrules.legal_results(opp, me, d1, d2))
    if mine != ids:
        raise RuntimeError("cross-check failed for %s %d%d:\n gnubg %s\n mine  %s"
                           % (pid, d1, d2, ids, mine))
    return pid, d1, d2, ids, plays


# --------------------------------------------------------------------------
# hand-made positions

def make_id(me, opp_on_my_points):
    """Build an ID from the mover's point of view.

    me: {point: count} in the mover's numbering (1..24, 25 = bar, rest off).
    opp_on_my_points: {point: count} where the point is numbered from the
    MOVER's side (so the opponent's home board is 19..24); 25 = his bar.
    """
    mine = [0] * 25
    for p, n in me.items():
        mine[p - 1 if p <= 24 else 24] += n
    theirs = [0] * 25
    for p, n in opp_on_my_points.items():
        theirs[24 - p if p <= 24 else 24] += n
    assert sum(mine) <= 15 and sum(theirs) <= 15
    for i in range(24):
        assert not (mine[i] and theirs[23 - i]), "point %d held by both" % (i + 1)
    return gnubg.positionid((theirs, mine))


# (label, position id, rolls); rolls None = all 21.
def hand_made_cases():
    c = []
    # Closed board, one checker on the bar: nothing can be played.
    c.append(("closed board, 1 on the bar: no play for any roll",
              make_id({25: 1, 6: 5, 8: 3, 13: 6},
                      {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}), None))
    # Closed board, three on the bar.
    c.append(("closed board, 3 on the bar, opponent also on the bar",
              make_id({25: 3, 6: 4, 5: 4, 4: 4},
                      {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 13: 2, 25: 1}),
              [(6, 6), (1, 1), (6, 5), (2, 1)]))
    # Two on the bar, only the 3 entry point open (mover enters on his 22).
    c.append(("two on the bar, one entry point open (the 3)",
              make_id({25: 2, 6: 5, 8: 3, 13: 5},
                      {19: 2, 20: 2, 21: 2, 23: 2, 24: 2, 12: 5}), None))
    # Many checkers on the bar, home board wide open, opponent blot to hit.
    c.append(("five on the bar, open board with blots",
              make_id({25: 5, 6: 5, 8: 2, 13: 3},
                      {19: 1, 20: 3, 22: 1, 1: 3, 2: 3, 12: 4}),
              [(4, 4), (3, 3), (6, 6), (5, 3), (6, 1), (2, 2), (1, 1)]))
    # 6-5 with only the 5 playable: the 6 is blocked everywhere and bearing
    # off is not allowed because a checker is outside.
    c.append(("6-5 where only the 5 can be played",
              make_id({18: 1, 6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 2},
                      {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 24: 3}),
              [(6, 5), (6, 6), (5, 5), (6, 1), (4, 3)]))
    # Either die playable from the lone outside checker but not both:
    # the larger die must be played (14/8, not 14/9).
    c.append(("either die but not both: larger die rule",
              make_id({14: 1, 2: 7, 1: 7},
                      {3: 2, 4: 2, 13: 2, 7: 2, 24: 7}),
              [(6, 5), (5, 4), (6, 4), (6, 2), (3, 1)]))
    # Only the smaller die of the pair can be played.
    c.append(("larger die blocked, smaller die forced",
              make_id({14: 1, 2: 7, 1: 7},
                      {8: 2, 3: 2, 13: 2, 4: 2, 24: 7}),
              [(6, 5), (6, 4), (6, 1)]))
    # Order matters: the 6 is only playable after the 5 (13/8 opens 8/2).
    c.append(("6 playable only after the 5",
              make_id({13: 1, 2: 14},
                      {7: 2, 3: 2, 4: 2, 5: 2, 24: 7}),
              [(6, 5), (5, 5), (6, 6)]))
    # Bear-off, higher-point rule and exact/over-size dice.
    c.append(("bear-off: gap on the high points, higher-point rule",
              make_id({4: 2, 3: 1, 2: 3, 1: 1},
                      {19: 3, 20: 3, 24: 4}), None))
    c.append(("bear-off: checkers on the 5 and 2 points (small rolls: move or bear off)",
              make_id({5: 1, 2: 1},
                      {19: 5, 20: 5, 21: 5}), None))
    c.append(("bear-off: three checkers low, over-size dice",
              make_id({3: 1, 2: 1, 1: 1},
                      {19: 2, 20: 2, 21: 2, 22: 3}), None))
    c.append(("bear-off: full home board, exact and over-size dice",
              make_id({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2},
                      {19: 3, 20: 3, 23: 4, 24: 5}),
              [(6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (6, 5), (4, 2)]))
    # Hits during bear-off: opponent blots on the mover's home points.
    c.append(("bear-off with opponent blots in the home board (hit or bear off)",
              make_id({6: 2, 5: 2, 4: 2, 2: 2},
                      {3: 1, 1: 1, 20: 4, 21: 4, 22: 3}), None))
    c.append(("bear-off against an anchor and a blot: hits, blocked dice, 5-5 unplayable",
              make_id({6: 1, 4: 2},
                      {3: 1, 2: 2, 1: 2, 19: 5, 20: 4}), None))
    # Doubles that can only be partly played.
    c.append(("doubles blocked or only partly playable (prime in front): 33 plays two 3s",
              make_id({13: 2, 2: 6, 1: 7},
                      {3: 2, 5: 2, 7: 2, 9: 2, 11: 2, 24: 5}),
              [(2, 2), (4, 4), (6, 6), (3, 3), (1, 1)]))
    c.append(("one checker on the bar, only 1s and 2s enter",
              make_id({25: 1, 8: 3, 6: 5, 13: 3, 24: 2},
                      {19: 2, 20: 2, 21: 2, 22: 2, 23: 1, 12: 4, 16: 2}),
              [(4, 4), (2, 2), (3, 3), (5, 5), (6, 6), (1, 1), (4, 2)]))
    c.append(("6-6 only partly playable: three 6s from the 8 point, then stuck",
              make_id({24: 2, 13: 4, 8: 3, 6: 6},
                      {18: 2, 7: 2, 12: 3, 19: 2, 20: 2, 21: 2, 5: 2}),
              [(6, 6), (5, 5), (6, 1), (3, 3)]))
    c.append(("last checkers: bearing off wins the game",
              make_id({1: 1, 3: 1},
                      {19: 2, 22: 3}),
              [(6, 5), (1, 1), (2, 1)]))
    return c


# --------------------------------------------------------------------------

def main():
    silence_stdout()
    common_setup()
    cmd("set evaluation chequerplay evaluation plies 0")
    cmd("set evaluation chequerplay evaluation prune off")
    cmd("new game")
    version = gnubg_version()

    sections = []  # (title, [(label or None, case)])
    seen = set()

    def add(bucket, pid, d1, d2, label=None):
        key = (pid, max(d1, d2), min(d1, d2))
        if key in seen:
            return None
        seen.add(key)
        v = case(pid, d1, d2)
        bucket.append((label, v))
        return v

    bucket = []
    for d1, d2 in ALL_ROLLS:
        add(bucket, START_ID, d1, d2)
    sections.append(("start position, all 21 rolls", bucket))
    log("start done")

    bucket = []
    for label, pid, rolls in hand_made_cases():
        first = True
        for d1, d2 in (rolls or ALL_ROLLS):
            v = add(bucket, pid, d1, d2, label if first else None)
            first = False
            if v:
                used, pips, _res = bgrules.analyse(*board_of(pid), v[1], v[2])
                log("  %-40.40s %d%d plays=%-3d dice used=%d pips=%d"
                    % (label, v[1], v[2], len(v[3]), used, pips))
    sections.append(("hand-made awkward positions", bucket))
    log("hand-made done", len(bucket))

    rng = random.Random(SEED)
    bucket = []
    for game in range(RANDOM_GAMES):
        pid = START_ID
        turn = 0
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if turn % FULL_ROLLS_EVERY == FULL_ROLLS_EVERY - 1:
                for r1, r2 in ALL_ROLLS:
                    add(bucket, pid, r1, r2)
            add(bucket, pid, d1, d2)
            ids = sorted(set(gnubg_plays(pid, max(d1, d2), min(d1, d2)).values()))
            turn += 1
            if ids:
                nxt = rng.choice(ids)
                if sum(board_of(nxt)[1]) == 0:
                    break                 # mover bore off his last checker
            else:
                nxt = pid
            pid = swap_id(nxt)
        log("game", game, "turns", turn, "cases so far", len(bucket))
    sections.append(("random self-play (uniformly random legal plays), seed %d" % SEED,
                     bucket))

    total = sum(len(b) for _t, b in sections)
    doubles = sum(1 for _t, b in sections for _l, v in b if v[1] == v[2])
    zero = sum(1 for _t, b in sections for _l, v in b if not v[3])
    with open(OUT, "w") as f:
        f.write(HEADER.format(version=version, seed=SEED, total=total, doubles=doubles,
                              singles=total - doubles, zero=zero))
        for title, bucket in sections:
            f.write("\n# === %s (%d cases)\n" % (title, len(bucket)))
            for label, (pid, d1, d2, ids, _plays) in bucket:
                if label:
                    f.write("# %s\n" % label)
                f.write(" ".join([pid, "%d%d" % (d1, d2), str(len(ids))] + ids) + "\n")
    log("wrote", OUT, total, "cases;", doubles, "doubles;", zero, "with no play")


HEADER = """\
# Legal-play ("perft") vectors produced by GNU Backgammon.
# Generated by tools/gnubg/gen_movegen.py with {version},
# random seed {seed} (Python random.Random), command (from the repository root):
#     LC_ALL=C gnubg -t -q -r -p tools/gnubg/gen_movegen.py   (or tools/gnubg/regenerate.sh)
# Cases: {total} ({doubles} doubles, {singles} non-doubles, {zero} with no legal play).
#
# Line format:  <position id> <d1><d2> <n> <id1> <id2> ... <idn>
#   position id  gnubg Position ID, player NOT on roll first, the mover second.
#   d1 d2        the roll, d1 >= d2.
#   n            number of distinct legal plays, distinct by resulting position.
#   idK          the resulting positions, sorted, oriented as the input: still
#                from the mover's side BEFORE the turn passes (mover second).
#                When no play exists n = 0 and no ids follow.
# Lines starting with # are comments (section titles, labels of hand-made cases).
#
# How completeness was ensured: gnubg.hint(100000) was called with chequer play
# evaluated at 0 ply (no move filters at 0 ply, so the hint holds every play of
# gnubg's move generator, one per resulting position).  Each listed play was
# applied with gnubg's own `move` command and the result read back from gnubg.
# The resulting set was then compared, case by case, with an independent
# brute-force enumerator (tools/gnubg/bgrules.py: use as many dice as possible,
# the larger die if only one can be used); every case agreed.
"""

if __name__ == "__main__":
    main()
