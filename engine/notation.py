"""Play notation: reading what players and programs write, and writing GNU Backgammon's canonical form.

Reading is tolerant about syntax (``24/18 13/11``, ``8/5(2) 6/5(2)``, ``13/7*/4``, ``bar/22``, ``Bar/22*``, ``25/22``,
``6/off``, ``6/0``, ``24/18/13``, FIBS ``8-5``, hit marks present or missing, steps in any order, combined or split)
and strict about substance: the text must describe one of the legal plays for the position and dice. The match is
made on the resulting position, so the order in which the steps are written does not matter.

Writing follows gnubg's ``FormatMove`` (FORMATS.md section 6): sub-moves sorted by source point descending, a
checker's consecutive steps merged (the intermediate point kept only where it hit), ``*`` after each hit point,
identical sub-moves grouped as ``(n)``, ``bar`` and ``off`` as words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from engine.errors import AmbiguousPlayError, IllegalPlayError, NotationError
from engine.movegen import LegalPlays, legal_plays
from engine.moves import Play, Step, point_text
from engine.moves import format_play as format_play  # written by the play itself; read here
from engine.position import Position
from engine.types import BAR, WAITING

_TOKEN = re.compile(r"[^\s,;]+")
_GROUP = re.compile(r"^(?P<body>.+?)(?:\((?P<count>\d+)\))?(?P<star>\**)$")
_POINT = re.compile(r"^(?P<point>\d{1,2}|bar|b|off|o)(?P<star>\**)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hop:
    """One written movement of one checker: from ``src`` to ``dst`` (no intermediate point written)."""

    src: int
    dst: int
    star: bool


def parse_hops(text: str) -> list[Hop]:
    """Split play text into written hops (syntax only; nothing is checked against a position).

    >>> [(h.src, h.dst, h.star) for h in parse_hops("13/7*/4 6/4(2)")]
    [(13, 7, True), (7, 4, False), (6, 4, False), (6, 4, False)]

    :raises NotationError: for text that is not a play.
    """
    hops: list[Hop] = []
    for token in _TOKEN.findall(text.strip()):
        hops.extend(_parse_group(token))
    return hops


def _parse_group(token: str) -> list[Hop]:
    match = _GROUP.match(token)
    if not match:
        raise NotationError(f"cannot read {token!r} as a move")
    body, count_text, trailing_star = match["body"], match["count"], match["star"]
    count = int(count_text) if count_text else 1
    if not 1 <= count <= 4:
        raise NotationError(f"{token!r}: a move can be repeated 1 to 4 times, not {count}")
    if "/" in body:
        parts = body.split("/")
    elif re.fullmatch(r"(?:\d{1,2}|bar|b)\*?-(?:\d{1,2}|off|o)?\*?", body, re.IGNORECASE):
        parts = body.split("-")  # FIBS: 8-5, and a bare trailing '-' for off
        if parts[-1] == "":
            parts[-1] = "off"
    else:
        raise NotationError(f"cannot read {token!r} as a move: write it as from/to, e.g. 24/18 or bar/22")
    points: list[tuple[int, bool]] = []
    for i, part in enumerate(parts):
        pm = _POINT.match(part)
        if not pm:
            raise NotationError(f"{token!r}: {part!r} is not a point (1-24, bar or off)")
        points.append((_point_value(pm["point"], first=i == 0, token=token), bool(pm["star"])))
    if len(points) < 2:
        raise NotationError(f"{token!r} needs a starting and a landing point, e.g. 13/7")
    if trailing_star:
        points[-1] = (points[-1][0], True)
    hops = [Hop(a[0], b[0], b[1]) for a, b in pairwise(points)]
    for hop in hops:
        if hop.dst >= hop.src:
            raise NotationError(f"{token!r}: checkers move from higher to lower points ({hop.src} to {hop.dst})")
    return hops * count


def _point_value(text: str, *, first: bool, token: str) -> int:
    low = text.lower()
    if low in ("bar", "b"):
        if not first:
            raise NotationError(f"{token!r}: the bar can only be where a move starts")
        return BAR
    if low in ("off", "o"):
        if first:
            raise NotationError(f"{token!r}: a move cannot start off the board")
        return 0
    value = int(low)
    if not 0 <= value <= 25:
        raise NotationError(f"{token!r}: {value} is not a point (1-24, 25 = bar, 0 = off)")
    if value == 25 and not first:
        raise NotationError(f"{token!r}: 25 (the bar) can only be where a move starts")
    if value == 0 and first:
        raise NotationError(f"{token!r}: a move cannot start at 0 (off)")
    return value


# -- resolving text against the legal plays ----------------------------------------------------------------------


def parse_play(text: str, position: Position, dice: tuple[int, int], *, legal: LegalPlays | None = None) -> Play:
    """The legal play that ``text`` describes for ``position`` and ``dice``.

    An empty text (or ``Cannot Move``) is accepted only when no play is legal.

    >>> str(parse_play("6/5 8/5", Position.initial(), (3, 1)))
    '8/5 6/5'

    :raises NotationError: for text that is not a play.
    :raises IllegalPlayError: for a play the rules refuse; the message says which rule.
    :raises AmbiguousPlayError: when the text fits more than one legal play (the message lists them).
    """
    if legal is None:
        legal = legal_plays(position, dice)
    stripped = text.strip()
    if not stripped or stripped.lower() in ("cannot move", "can't move", "no move", "-"):
        if len(legal) == 0:
            return Play(())
        raise IllegalPlayError(
            f"{_dice_text(dice)} can be played, so the turn cannot be passed: for example {legal[0]}"
        )
    hops = parse_hops(stripped)
    if len(legal) == 0:
        raise IllegalPlayError(f"no legal play exists for {_dice_text(dice)} here: the turn passes")
    candidates: dict[tuple[Step, ...], tuple[int, Play]] = {}
    dice_pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    written = {h.dst: h.star for h in hops}
    blots = {p for p in range(1, 25) if position.opp[25 - p] == 1}
    for steps in _expansions(hops, dice_pool, position):
        play = legal.find(steps)
        if play is None:
            continue
        hits = {s.dst for s in steps if s.dst in blots}
        unwritten = sum(1 for p in hits if p not in written)
        mismatch = sum(1 for p, star in written.items() if star and p not in hits)
        score = unwritten * 10 + mismatch
        if play.steps not in candidates or score < candidates[play.steps][0]:
            candidates[play.steps] = (score, play)
    if candidates:
        best = min(score for score, _ in candidates.values())
        chosen = [play for score, play in candidates.values() if score == best]
        if len(chosen) == 1:
            return chosen[0]
        listed = ", ".join(sorted(str(p) for p in chosen))
        raise AmbiguousPlayError(f"{stripped!r} could mean {listed}: write the hits with * to say which")
    raise IllegalPlayError(_explain(hops, dice, position, legal))


def _expansions(hops: list[Hop], pool: list[int], position: Position) -> list[list[Step]]:
    """Every way of splitting the written hops into single-die steps using the dice in ``pool``."""
    results: list[list[Step]] = []
    limit = 64

    def go(i: int, remaining: list[int], acc: list[Step]) -> None:
        if len(results) >= limit:
            return
        if i == len(hops):
            results.append(list(acc))
            return
        hop = hops[i]
        for steps, used in _split_hop(hop, remaining):
            rest = list(remaining)
            for die in used:
                rest.remove(die)
            go(i + 1, rest, acc + steps)

    go(0, pool, [])
    return results


def _split_hop(hop: Hop, pool: list[int]) -> list[tuple[list[Step], list[int]]]:
    options: list[tuple[list[Step], list[int]]] = []
    seen: set[tuple[int, ...]] = set()

    def walk(at: int, remaining: list[int], used: list[int], steps: list[Step]) -> None:
        distance = (BAR - hop.dst if at == BAR else at - hop.dst) if hop.dst else at
        if hop.dst == 0 and at != BAR and steps and at <= 0:
            return
        for die in sorted(set(remaining), reverse=True):
            nxt = (BAR - die) if at == BAR else at - die
            if hop.dst == 0:
                landing = 0 if nxt <= 0 else nxt
            else:
                if nxt < hop.dst:
                    continue
                landing = nxt
            step = Step(at, landing, False)
            rest = list(remaining)
            rest.remove(die)
            if landing == hop.dst:
                key = (*used, die)
                if key not in seen:
                    seen.add(key)
                    options.append(([*steps, step], [*used, die]))
            elif landing > hop.dst and distance > die:
                walk(landing, rest, [*used, die], [*steps, step])

    walk(hop.src, pool, [], [])
    return options


def _explain(hops: list[Hop], dice: tuple[int, int], position: Position, legal: LegalPlays) -> str:
    """A player-facing reason why the written play is not legal (RULES.md wording)."""
    written = " ".join(f"{point_text(h.src)}/{point_text(h.dst)}" for h in hops)
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    expansions = _expansions(hops, pool, position)
    example = str(legal[0])
    if not expansions:
        return f"{written} does not fit the roll {_dice_text(dice)}: each checker moves by the number on a die"
    me = list(position.me)
    steps = sorted(expansions[0], key=lambda s: -(s.src if s.src != WAITING else 25.5))
    for step in steps:
        src = step.src
        if src == BAR and not me[BAR] and me[WAITING]:
            src = WAITING
        if src not in (BAR, WAITING) and me[BAR]:
            return f"{written}: a checker on the bar must enter first (for example {example})"
        if me[src] <= 0:
            where = "on the bar" if src == BAR else f"on your {src}-point"
            return f"{written}: there is no checker {where}"
        if step.dst and position.opp[25 - step.dst] >= 2:
            return f"{written}: your {step.dst}-point is blocked (two or more opposing checkers there)"
        if step.dst == 0:
            outside = next((p for p in range(26, 6, -1) if me[p]), None)
            if outside is not None:
                where = "on the bar" if outside == BAR else f"on your {outside}-point"
                if outside == WAITING:
                    where = "still to enter"
                return f"{point_text(step.src)}/off is not allowed: a checker is still {where}"
            die = step.src - step.dst if step.src - step.dst in pool else None
            higher = next((p for p in range(6, step.src, -1) if me[p]), None)
            if die is None and higher is not None:
                return (
                    f"{point_text(step.src)}/off is not allowed with a larger die while a checker is on your "
                    f"{higher}-point: move or bear off the higher checker first"
                )
        me[src] -= 1
        me[step.dst] += 1
    used = len(expansions[0])
    need = legal.max_dice
    if used < need:
        if dice[0] == dice[1]:
            return f"{written} plays {used} of your {need} possible {dice[0]}s: play as many as you can, e.g. {example}"
        return f"you must play both dice: {example} is possible"
    if used > need:
        return f"{written} uses {used} dice but only {need} can be played with {_dice_text(dice)}: e.g. {example}"
    if dice[0] != dice[1] and need == 1:
        return f"you must play the larger die ({max(dice)}) when only one can be played: {example}"
    return f"{written} is not a legal play for {_dice_text(dice)}; legal plays include {example}"


def _dice_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"
