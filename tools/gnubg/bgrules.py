"""Independent legal-play enumerator used ONLY to cross-check gnubg.

gnubg is the authority for the vector files; this module exists so the
generator can prove that gnubg's hint list was complete for every case
(a missing or extra play makes the generator stop with an error).

Board layout is gnubg's: a pair (opponent, mover) of 25-int lists, each
seen from its own side: index 0..23 = that player's points 1..24,
index 24 = that player's bar.  The mover moves from high to low indices
and bears off below index 0.  Mover's index i faces opponent index 23 - i.
"""


def _single_moves(opp, me, die):
    """Yield (src, new_opp, new_me) for every legal single checker move."""
    if me[24]:
        sources = [24]
    else:
        sources = [i for i in range(23, -1, -1) if me[i]]
    all_home = sum(me[6:25]) == 0
    for src in sources:
        dst = src - die
        if dst >= 0:
            if opp[23 - dst] >= 2:
                continue
            n_me = list(me)
            n_opp = list(opp)
            n_me[src] -= 1
            n_me[dst] += 1
            if n_opp[23 - dst] == 1:
                n_opp[23 - dst] = 0
                n_opp[24] += 1
            yield src, n_opp, n_me
        else:
            if not all_home:
                continue
            if dst < -1 and any(me[src + 1:6]):
                continue          # over-size die needs the highest checker
            n_me = list(me)
            n_me[src] -= 1
            yield src, list(opp), n_me


def legal_results(opp, me, d1, d2):
    """Return the set of resulting boards (opp, me) as tuples of tuples.

    Rules: use as many dice as possible; if only one die of a non-double
    can be used, the larger one must be used when it can be.
    """
    return analyse(opp, me, d1, d2)[2]


def analyse(opp, me, d1, d2):
    """Return (dice used, pips used, set of resulting boards)."""
    dice_orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    leaves = []  # (dice used, pips used, board)

    def rec(o, m, rest, used, pips):
        moved = False
        if rest:
            for _src, no, nm in _single_moves(o, m, rest[0]):
                moved = True
                rec(no, nm, rest[1:], used + 1, pips + rest[0])
        if not moved:
            leaves.append((used, pips, (tuple(o), tuple(m))))

    for order in dice_orders:
        rec(list(opp), list(me), order, 0, 0)
    best_used = max(u for u, _p, _b in leaves)
    if best_used == 0:
        return 0, 0, set()
    best_pips = max(p for u, p, _b in leaves if u == best_used)
    return best_used, best_pips, {b for u, p, b in leaves
                                  if u == best_used and p == best_pips}
