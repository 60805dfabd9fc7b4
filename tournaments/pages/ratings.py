"""A player's rating history as his page draws it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The rating chart's drawing area, in SVG units (the labels sit outside it).
RATING_CHART_WIDTH, RATING_CHART_HEIGHT = 300, 100


@dataclass(frozen=True)
class RatingPoint:
    rating: float
    x: float
    y: float


@dataclass(frozen=True)
class RatingChart:
    """A player's rating after each rated match, oldest first, from the list's start (the first point), drawn
    between ``low`` (bottom) and ``high`` (top), both multiples of 25 around his ratings."""

    name: str
    current: float
    matches: int
    points: list[RatingPoint]
    low: int
    high: int

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def rating_chart(history: Any) -> RatingChart:
    """The chart of one :class:`~tournaments.selectors.players.RatingHistory`: his rating before his first rated
    match, then after each."""
    changes = history.changes
    ratings = ([changes[0].before] if changes else [history.rating.rating]) + [c.after for c in changes]
    low = int(25 * ((min(ratings) - 1) // 25))
    high = int(25 * ((max(ratings) + 1) // 25 + 1))
    step = RATING_CHART_WIDTH / max(1, len(ratings) - 1)
    points = [
        RatingPoint(r, round(n * step, 1), round(RATING_CHART_HEIGHT * (high - r) / (high - low), 1))
        for n, r in enumerate(ratings)
    ]
    rating = history.rating
    return RatingChart(rating.rating_list.name, rating.rating, rating.matches, points, low, high)
