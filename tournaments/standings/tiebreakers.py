"""Tie-breaks for match-play standings, with the chess definitions. Pure functions over a list of results.

A player's *score* is his number of match wins; a bye counts as a win. The tie-breaks (codes are stable, they are
stored in tournament settings):

- ``wins``: matches won over the board, byes excluded (so a bye ranks below a real win).
- ``buchholz``: the sum of the final scores of the player's opponents.
- ``median-buchholz``: Buchholz without the highest and the lowest opponent score (0 with fewer than 3 opponents).
- ``sonneborn-berger``: the sum of the final scores of the opponents the player beat (draws, which would count
  half, do not exist in backgammon matches).
- ``points-diff``: points won minus points lost, summed over the player's matches.
- ``head-to-head``: matches won against the other players still tied when this tie-break is reached (tied on score
  and on every earlier tie-break).

A **forfeit** (a no-show, a withdrawal, penalty points past half the match length) is a match win for the player
awarded it and a loss for the other, in the score, in ``wins`` and in ``head-to-head``. How it counts in the other
tie-breaks is the division's choice (``forfeits``):

- ``left-out`` (the default, the common rule): it is left out of ``points-diff`` (and of points for and against)
  and of the opponent-score tie-breaks of both players: neither counts the other's score in his ``buchholz``,
  ``median-buchholz`` or ``sonneborn-berger``, so a no-show gives no points and no opponent;
- ``as-played``: it counts as the match recorded (its points, normally the match length to 0, and the opponent).

A bye is a win against a *virtual opponent whose score is 0*: it adds one entry of 0 to the opponent scores used
by Buchholz, median Buchholz and Sonneborn-Berger, and the bye's recorded points (normally 0-0) to points-diff.
(FIDE's alternative, a virtual opponent with the player's own score, is not used: 0 is simpler to explain and does
not reward the bye.) Players still tied after every tie-break share a position and keep the order of ``players``
(or of their first appearance in ``results``).
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

PlayerId: TypeAlias = int | str


class ForfeitRule(enum.StrEnum):
    """How a forfeit counts in the tie-breaks (the codes are stored in division settings)."""

    LEFT_OUT = "left-out"
    AS_PLAYED = "as-played"


class Tiebreak(enum.StrEnum):
    MATCH_WINS = "wins"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    SONNEBORN_BERGER = "sonneborn-berger"
    POINTS_DIFF = "points-diff"
    HEAD_TO_HEAD = "head-to-head"


@dataclass(frozen=True)
class Result:
    """A finished match: ``a`` against ``b`` (None = ``a`` had the bye), won by ``winner``."""

    round: int
    a: PlayerId
    b: PlayerId | None
    winner: PlayerId
    points_a: int = 0
    points_b: int = 0
    forfeit: bool = False  # awarded by a director, not played over the board

    def __post_init__(self) -> None:
        if self.winner not in (self.a, self.b):
            raise ValueError(f"round {self.round}: winner {self.winner!r} did not play {self.a!r} v {self.b!r}")
        if self.a == self.b:
            raise ValueError(f"round {self.round}: {self.a!r} cannot play himself")


@dataclass(frozen=True)
class Row:
    position: int  # 1-based; players tied on score and every tie-break share it
    player: PlayerId
    score: int
    tiebreaks: dict[Tiebreak, int] = field(default_factory=dict)


def scores(results: Sequence[Result]) -> dict[PlayerId, int]:
    """Match wins per player, byes included; players who never won score 0."""
    out: dict[PlayerId, int] = defaultdict(int)
    for r in results:
        out[r.a] += r.winner == r.a
        if r.b is not None:
            out[r.b] += r.winner == r.b
    return dict(out)


class _Index:
    """The results indexed once by player, so that every tie-break of every player costs only that player's
    matches (the standings of a 1,024-player, 9-round Swiss stay well under a second)."""

    def __init__(self, results: Sequence[Result], forfeits: ForfeitRule = ForfeitRule.LEFT_OUT) -> None:
        self.score = scores(results)
        self.matches: dict[PlayerId, list[Result]] = defaultdict(list)
        self.left_out = forfeits is ForfeitRule.LEFT_OUT
        for r in results:
            self.matches[r.a].append(r)
            if r.b is not None:
                self.matches[r.b].append(r)

    def _counted(self, player: PlayerId) -> list[Result]:
        """The player's matches that count in points and opponent scores (forfeits left out by the rule)."""
        return [r for r in self.matches.get(player, ()) if not (self.left_out and r.forfeit)]

    def opponent_scores(self, player: PlayerId) -> list[tuple[int, bool]]:
        """(opponent's final score, player won) for each match of ``player``; a bye is (0, True)."""
        out = []
        for r in self._counted(player):
            opponent = r.b if r.a == player else r.a
            out.append((0 if opponent is None else self.score.get(opponent, 0), r.winner == player))
        return out

    def match_wins(self, player: PlayerId) -> int:
        return sum(r.winner == player and r.b is not None for r in self.matches.get(player, ()))

    def buchholz(self, player: PlayerId) -> int:
        return sum(s for s, _ in self.opponent_scores(player))

    def median_buchholz(self, player: PlayerId) -> int:
        return sum(sorted(s for s, _ in self.opponent_scores(player))[1:-1])

    def sonneborn_berger(self, player: PlayerId) -> int:
        return sum(s for s, won in self.opponent_scores(player) if won)

    def points_diff(self, player: PlayerId) -> int:
        total = 0
        for r in self._counted(player):
            total += r.points_a - r.points_b if r.a == player else r.points_b - r.points_a
        return total

    def head_to_head(self, player: PlayerId, tied: Sequence[PlayerId]) -> int:
        others = set(tied) - {player}
        return sum(r.winner == player and ({r.a, r.b} & others) != set() for r in self.matches.get(player, ()))

    def value(self, tiebreak: Tiebreak, player: PlayerId, group: Sequence[PlayerId]) -> int:
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            return self.head_to_head(player, group) if len(group) > 1 else 0
        return int(getattr(self, tiebreak.name.lower())(player))


def match_wins(results: Sequence[Result], player: PlayerId) -> int:
    return _Index(results).match_wins(player)


def buchholz(results: Sequence[Result], player: PlayerId) -> int:
    return _Index(results).buchholz(player)


def median_buchholz(results: Sequence[Result], player: PlayerId) -> int:
    return _Index(results).median_buchholz(player)


def sonneborn_berger(results: Sequence[Result], player: PlayerId) -> int:
    return _Index(results).sonneborn_berger(player)


def points_diff(results: Sequence[Result], player: PlayerId) -> int:
    return _Index(results).points_diff(player)


def head_to_head(results: Sequence[Result], player: PlayerId, tied: Sequence[PlayerId]) -> int:
    """Matches ``player`` won against the players in ``tied``."""
    return _Index(results).head_to_head(player, tied)


def standings(
    results: Sequence[Result],
    order: Sequence[Tiebreak],
    players: Sequence[PlayerId] | None = None,
    forfeits: ForfeitRule = ForfeitRule.LEFT_OUT,
    pending: Collection[PlayerId] = (),
) -> list[Row]:
    """Rank by score, then by each tie-break of ``order`` in turn (higher is better for all of them); forfeits
    count in the tie-breaks as ``forfeits`` says (the module docstring). ``pending``: the players whose match of
    the table's rounds is still to be played (a table during its round): on the same score they rank before the
    players who lost theirs, whatever the tie-breaks (one of them may still win; none of the others can)."""
    if players is None:
        players = list(dict.fromkeys(p for r in results for p in (r.a, r.b) if p is not None))
    index = _Index(results, forfeits)
    score = index.score
    values: dict[PlayerId, dict[Tiebreak, int]] = {p: {} for p in players}
    # Split the field into groups of tied players, refining them one criterion at a time.
    groups = _split([list(players)], lambda p: score.get(p, 0))
    if pending:
        groups = _split(groups, lambda p: int(p in pending))
    for tiebreak in order:
        for group in groups:
            for p in group:
                values[p][tiebreak] = index.value(tiebreak, p, group)
        groups = _split(groups, {p: values[p][tiebreak] for p in players}.__getitem__)
    rows: list[Row] = []
    for group in groups:
        position = len(rows) + 1
        rows.extend(Row(position, p, score.get(p, 0), values[p]) for p in group)
    return rows


def _split(groups: list[list[PlayerId]], key: Callable[[PlayerId], int]) -> list[list[PlayerId]]:
    """Split each group by ``key(player)``, highest first; the order within a new group is kept."""
    out: list[list[PlayerId]] = []
    for group in groups:
        by_value: dict[int, list[PlayerId]] = defaultdict(list)
        for p in group:
            by_value[key(p)].append(p)
        out.extend(by_value[v] for v in sorted(by_value, reverse=True))
    return out
