"""A deliberately naive legal-play generator, written straight from RULES.md, used only to cross-check
``engine.movegen`` (which is built for speed). Every die order is tried, every checker, every rule checked
explicitly; results are deduplicated by resulting position and then filtered by the must-play rules.
"""

from __future__ import annotations

from itertools import permutations

from engine.position import Position

BAR, WAITING = 25, 26


def _single_steps(me: list[int], opp: list[int], die: int, enter_all_first: bool) -> list[tuple[int, int]]:
    out = []
    for src in range(1, 27):
        if me[src] == 0:
            continue
        if me[BAR] and src != BAR:
            continue
        if enter_all_first and me[WAITING] and src not in (BAR, WAITING):
            continue
        dst = 25 - die if src in (BAR, WAITING) else src - die
        if dst >= 1:
            if opp[25 - dst] >= 2:
                continue
            out.append((src, dst))
            continue
        # bearing off
        if any(me[p] for p in range(7, 27)):
            continue
        if dst < 0 and any(me[p] for p in range(src + 1, 7)):
            continue
        out.append((src, 0))
    return out


def reference_results(position: Position, dice: tuple[int, int], enter_all_first: bool = False) -> set[Position]:
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else list(set(permutations((d1, d2))))
    found: dict[Position, tuple[int, int]] = {}  # result -> (dice used, total pips of dice used)

    def go(me: list[int], opp: list[int], rest: tuple[int, ...], used: list[int]) -> None:
        moved = False
        if rest:
            die = rest[0]
            for src, dst in _single_steps(me, opp, die, enter_all_first):
                me2, opp2 = list(me), list(opp)
                me2[src] -= 1
                me2[dst] += 1
                if dst and opp2[25 - dst] == 1:
                    opp2[25 - dst] = 0
                    opp2[BAR] += 1
                go(me2, opp2, rest[1:], [*used, die])
                moved = True
        if not moved:
            result = Position(me, opp)
            score = (len(used), sum(used))
            if result not in found or found[result] < score:
                found[result] = score

    for order in orders:
        go(list(position.me), list(position.opp), order, [])
    best = max(found.values())
    if best[0] == 0:
        return set()
    return {pos for pos, score in found.items() if score == best}
