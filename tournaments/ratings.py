"""FIBS-style match ratings, recomputed from a club's match history.

Pure Python: no Django, no database. The caller loads a club's (or organisation's) finished matches, puts them in
match order and hands them to :func:`rate`, which replays them from scratch and returns every player's current
rating plus the per-match rating history.

The formula is the rating formula of FIBS, the First Internet Backgammon Server, as the project's issue
defines it:

* The underdog's win probability in an ``N``-point match is ``1 / (10 ** (D * sqrt(N) / 2000) + 1)``, with ``D``
  the (non-negative) rating difference; the favourite's is ``1 -`` that. With a signed difference the same
  expression gives either player's probability (:func:`win_probability`).
* The winner gains ``4 * K * sqrt(N) * P`` and the loser loses ``4 * K * sqrt(N) * P``, where ``P`` is the
  probability that the result would *not* happen (i.e. the loser's pre-match win probability).
* ``K = max(1, 5 - experience / 100)``, where experience is the sum of the lengths of the player's finished
  (rated) matches; :func:`fibs_k`.
* Everyone starts at 1500 with experience 0.
* Unlimited (money) sessions, recorded here with length 0, are unrated: they change neither rating nor
  experience.

K is per player, as on FIBS: the winner's gain uses the winner's K and the loser's loss uses the loser's K, each
taken from that player's experience *before* the match. The two changes are therefore equal (and the match is
zero-sum) only when both players have the same K, e.g. two new players, or two players past 400 points of
experience. A club may replace the K rule (:class:`RatingRule`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "FIBS_START",
    "RatedMatch",
    "Rating",
    "RatingChange",
    "RatingRule",
    "fibs_k",
    "rate",
    "win_probability",
]

FIBS_START = 1500.0

# Player and match identifiers are whatever the caller uses (primary keys, usernames, ...); they only need hashing.
PlayerId = Hashable
MatchId = Hashable


def fibs_k(experience: int) -> float:
    """FIBS's experience factor: ``max(1, 5 - experience / 100)`` (5 for a new player, 1 from 400 points on)."""
    return max(1.0, 5.0 - experience / 100.0)


@dataclass(frozen=True)
class RatingRule:
    """A club's rating rule: the starting rating and the K factor as a function of a player's experience."""

    start: float = FIBS_START
    k: Callable[[int], float] = field(default=fibs_k)


@dataclass(frozen=True)
class RatedMatch:
    """One finished match: who won, who lost, and the match length in points (0 = unlimited/money, unrated)."""

    match_id: MatchId
    winner: PlayerId
    loser: PlayerId
    length: int


@dataclass(frozen=True)
class Rating:
    """A player's rating after replaying the history: rating, experience (points played) and rated matches."""

    player: PlayerId
    rating: float
    experience: int
    matches: int


@dataclass(frozen=True)
class RatingChange:
    """One player's rating history entry for one rated match (``delta = after - before``)."""

    match_id: MatchId
    player: PlayerId
    before: float
    after: float
    delta: float
    experience_before: int
    experience_after: int


def win_probability(rating_a: float, rating_b: float, length: int) -> float:
    """Probability that the player rated ``rating_a`` wins a ``length``-point match against ``rating_b`` (FIBS).

    ``1 / (10 ** ((rating_b - rating_a) * sqrt(length) / 2000) + 1)``: for the underdog this is the issue's
    formula with ``D = rating_b - rating_a >= 0``; for the favourite it equals ``1 -`` the underdog's.
    """
    if length <= 0:
        raise ValueError(f"win probability needs a positive match length, got {length}")
    return 1.0 / (10.0 ** ((rating_b - rating_a) * math.sqrt(length) / 2000.0) + 1.0)


def rate(
    matches: Iterable[RatedMatch],
    rule: RatingRule | None = None,
    initial: Mapping[PlayerId, Rating] | None = None,
) -> tuple[dict[PlayerId, Rating], list[RatingChange]]:
    """Replay ``matches`` in the given order and return ``(ratings, history)``.

    ``ratings`` maps every player of a rated match (and every player in ``initial``) to their final
    :class:`Rating`; ``history`` holds two :class:`RatingChange` entries per rated match, winner first, in match
    order. Length-0 (unlimited/money) matches are skipped. ``initial`` optionally seeds players' ratings and
    experience (e.g. carried over from elsewhere); unseeded players start at ``rule.start`` with experience 0.

    Raises ValueError for a negative length or a match whose winner is also its loser.
    """
    rule = rule if rule is not None else RatingRule()
    ratings: dict[PlayerId, Rating] = dict(initial) if initial is not None else {}
    history: list[RatingChange] = []

    for match in matches:
        if match.length < 0:
            raise ValueError(f"match {match.match_id!r}: match length must be >= 0, got {match.length}")
        if match.winner == match.loser:
            raise ValueError(f"match {match.match_id!r}: winner and loser are the same player ({match.winner!r})")
        if match.length == 0:
            continue  # unlimited (money) session: unrated

        winner = ratings.get(match.winner, Rating(match.winner, rule.start, 0, 0))
        loser = ratings.get(match.loser, Rating(match.loser, rule.start, 0, 0))
        # P: the probability that this result would not have happened, i.e. that the loser would have won.
        upset = win_probability(loser.rating, winner.rating, match.length)
        scale = 4.0 * math.sqrt(match.length) * upset
        gain = rule.k(winner.experience) * scale
        loss = rule.k(loser.experience) * scale

        for old, delta in ((winner, gain), (loser, -loss)):
            new = Rating(old.player, old.rating + delta, old.experience + match.length, old.matches + 1)
            ratings[old.player] = new
            history.append(
                RatingChange(
                    match_id=match.match_id,
                    player=old.player,
                    before=old.rating,
                    after=new.rating,
                    delta=delta,
                    experience_before=old.experience,
                    experience_after=new.experience,
                )
            )

    return ratings, history
