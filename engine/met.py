"""Match equity: the chance of winning a match from a score, read from the Kazaross-XG2 table.

A casual match (no cube, every game worth one point) is not read from the table, which prices the cube and the
gammons: there each game is a coin toss between even players, and the chance is that of winning the race to the
length first (:func:`race_winning_chance`).

The table is ``engine/data/Kazaross-XG2.xml``, copied unmodified from GNU Backgammon (its notice is in the file),
and read with :mod:`xml.etree` the first time a chance is asked for. It holds, in gnubg's layout:

* a *pre-Crawford* table of 25 rows of 25 figures: row ``i``, column ``j`` is the chance that the player who needs
  ``i + 1`` points wins against one who needs ``j + 1`` (the first row is 1-away). A row or column for 1-away is
  the Crawford game itself: the cube is dead, so those figures are Crawford-game chances;
* a *post-Crawford* row of 25 figures: entry ``j`` is the chance of the trailer who needs ``j + 1`` points against
  a leader who is 1-away, in the games after the Crawford game (the trailer doubles at once; the free drop is
  priced in). gnubg's ``getME`` reads it the same way (``aafMETPostCrawford[fPlayer][nAway - 1]``).

Terms: *away* is the points a player still needs (``length - score``, at least 1 while the match is on). All
figures assume a centred cube at the start of a game.

Scores past 25-away are refused (:class:`ValueError`), not extrapolated: the table's own figures past 15-away are
already a projection, and a guess on top of a guess would look more exact than it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from math import comb
from xml.etree import ElementTree

#: The longest match (in points away) the table covers.
MAX_AWAY = 25

TABLE_FILE = "Kazaross-XG2.xml"


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """The two tables of a gnubg MET file: ``pre[i][j]`` and ``post[j]`` as the module docstring says."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]


def parse_met(text: str | bytes) -> MatchEquityTable:
    """Read a GNU Backgammon match equity table (``<met>`` with explicit pre- and post-Crawford tables).

    :raises ValueError: if the text is not such a table (missing tables, rows of uneven length).

    >>> t = parse_met(
    ...     "<met><info><name>t</name></info><pre-crawford-table type='explicit'><row><me>0.5</me></row>"
    ...     "</pre-crawford-table><post-crawford-table type='explicit'><row><me>0.5</me></row>"
    ...     "</post-crawford-table></met>"
    ... )
    >>> t.pre, t.post
    (((0.5,),), (0.5,))
    """
    root = ElementTree.fromstring(text)
    pre_rows = _rows(root, "pre-crawford-table")
    post_rows = _rows(root, "post-crawford-table")
    if not pre_rows or any(len(row) != len(pre_rows) for row in pre_rows):
        raise ValueError("the pre-Crawford table must be square")
    if len(post_rows) != 1 or len(post_rows[0]) != len(pre_rows):
        raise ValueError("the post-Crawford table must be one row as long as the pre-Crawford rows")
    return MatchEquityTable(root.findtext("info/name", default="").strip(), tuple(pre_rows), post_rows[0])


def _rows(root: ElementTree.Element, tag: str) -> list[tuple[float, ...]]:
    table = root.find(tag)
    if table is None:
        raise ValueError(f"no <{tag}> in the match equity table")
    return [tuple(float(me.text or "") for me in row.iter("me")) for row in table.iter("row")]


@cache
def kazaross_xg2() -> MatchEquityTable:
    """The Kazaross-XG2 table shipped with the engine (read once)."""
    return parse_met((resources.files("engine") / "data" / TABLE_FILE).read_bytes())


def match_winning_chance(away_me: int, away_opp: int, *, post_crawford: bool = False) -> float:
    """The chance that a player needing ``away_me`` points wins the match against one needing ``away_opp``.

    ``post_crawford`` says the Crawford game has been played (or the Crawford rule is off) and one side is 1-away:
    the post-Crawford row is read then. Without it a 1-away score is the Crawford game (the pre-Crawford table's
    first row and column). 1-away against 1-away is 0.5 either way.

    :raises ValueError: for an away below 1 or above 25 (not extrapolated), or ``post_crawford`` with neither
        side 1-away.

    >>> match_winning_chance(1, 2)  # the Crawford game, leader 1-away
    0.67736
    >>> match_winning_chance(2, 1, post_crawford=True)  # after it: the trailer's free drop
    0.48803
    """
    for away in (away_me, away_opp):
        if not 1 <= away <= MAX_AWAY:
            raise ValueError(f"the table covers 1 to {MAX_AWAY} points away, not {away} (no extrapolation)")
    table = kazaross_xg2()
    if not post_crawford:
        return table.pre[away_me - 1][away_opp - 1]
    if away_me == 1:
        return 1.0 - table.post[away_opp - 1] if away_opp > 1 else 0.5
    if away_opp == 1:
        return table.post[away_me - 1]
    raise ValueError(f"post-Crawford needs a side 1-away, not {away_me}-away against {away_opp}-away")


def race_winning_chance(away_me: int, away_opp: int) -> float:
    """The chance that a player needing ``away_me`` games wins ``away_me`` games before his opponent wins
    ``away_opp``, each game won with one chance in two: a casual match, where every game is one point and there is
    no cube (so the Crawford rule changes nothing). It is the sum over ``k`` from 0 to ``away_opp - 1`` (the games
    the opponent wins on the way) of ``C(away_me - 1 + k, k) / 2 ** (away_me + k)``; any away, no table limit.

    :raises ValueError: for an away below 1.

    >>> race_winning_chance(2, 3)  # a 3-point casual match at 1-0
    0.6875
    >>> race_winning_chance(1, 2), race_winning_chance(1, 1), race_winning_chance(1, 3)
    (0.75, 0.5, 0.875)
    """
    if away_me < 1 or away_opp < 1:
        raise ValueError(f"an away is at least 1, not {min(away_me, away_opp)}")
    # over the common denominator 2 ** (away_me + away_opp - 1), in integers: exact, for any length
    numerator = sum(comb(away_me - 1 + k, k) << (away_opp - 1 - k) for k in range(away_opp))
    return numerator / (1 << (away_me + away_opp - 1))


def match_winning_chances(
    length: int, score: tuple[int, int], *, post_crawford: bool = False, casual: bool = False
) -> tuple[float, float]:
    """Both sides' chances at ``score`` in a match to ``length``: (1, 0) or (0, 1) once a side has won.

    A ``casual`` match reads the race to ``length`` (:func:`race_winning_chance`), not the table, and
    ``post_crawford`` does not matter there.

    :raises ValueError: for a money session (``length`` 0) or, unless ``casual``, a score more than 25 away (see
        :func:`match_winning_chance`).

    >>> match_winning_chances(7, (7, 3))
    (1.0, 0.0)
    >>> match_winning_chances(7, (0, 0))
    (0.5, 0.5)
    """
    if length < 1:
        raise ValueError("a money session has no match to win")
    away = (length - score[0], length - score[1])
    if away[0] <= 0 or away[1] <= 0:
        return (1.0, 0.0) if away[0] <= 0 else (0.0, 1.0)
    if casual:
        chance = race_winning_chance(away[0], away[1])
    else:
        chance = match_winning_chance(away[0], away[1], post_crawford=post_crawford)
    return chance, 1.0 - chance


__all__ = [
    "MAX_AWAY",
    "MatchEquityTable",
    "kazaross_xg2",
    "match_winning_chance",
    "match_winning_chances",
    "parse_met",
    "race_winning_chance",
]
