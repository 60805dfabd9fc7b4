"""BackGames.org's Universal Club Master Points: the default table a season of that system counts by.

The figures are BackGames' chart ("Universal Master Points System", its club program's user guide, appendix
"Master Point Chart"): three levels (advanced/open, intermediate, novice); one row of places per column, the columns
read by field size (1-11, 12-23, 24-32, 33-64, over 64 players) or by rounds (3, 4, 5, 6, 7+), the same figures
either way; the places 1st, 1/2 tie, 2nd, 2/3 tie, 3rd, 3/4 tie, 4th and 5-8 tie; a player takes his place's
figure or an amount per match won, whichever is higher, times the event's bonus (1x, 1.5x, 2x).

Where the chart as found was cut short (the novice level from its 3rd place on, and the novice amount per match
won), the figures follow the chart's own ratios at every other level, marked ``DERIVED`` below: 3rd is a third of
1st, 3/4 tie a quarter, 4th 0.22 of 1st, 5-8 tie an eighth, and the amount per match won halves from one level to
the next (0.08, 0.04, so 0.02). A club that counts otherwise gives its season its own figures (its ``table``'s
``figures``, the same shape, any part of it: what it leaves out is taken from here).

Plain data and two pure helpers (no database): :func:`tournaments.points.universal_points` does the arithmetic.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["BASES", "DEFAULT_TABLE", "LEVELS", "MULTIPLIERS", "PLACES", "PLAYER_BANDS", "ROUND_BANDS", "with_changes"]

#: The levels, as a division names its own (Division.Level).
LEVELS = ("open", "intermediate", "novice")
#: The field-size bands: 1-11, 12-23, 24-32, 33-64 players, and over 64.
PLAYER_BANDS = ("1-11", "12-23", "24-32", "33-64", "65+")
#: The rounds bands: 3, 4, 5, 6 rounds, and 7 or more (an event of fewer than 3 rounds has no row).
ROUND_BANDS = ("3", "4", "5", "6", "7+")
#: The places of a row: 1st, tied for 1-2, 2nd, tied for 2-3, 3rd, tied for 3-4, 4th, tied for 5-8.
PLACES = ("1", "1/2", "2", "2/3", "3", "3/4", "4", "5-8")
#: What a season reads its placement points by: the field's size, the rounds, or the higher of the two.
BASES = ("players", "rounds", "higher")
#: The bonus multipliers an event may have.
MULTIPLIERS = (1.0, 1.5, 2.0)


def _level(per_win: float, rows: dict[str, tuple[float, ...]]) -> dict[str, Any]:
    """A level's table: the amount per match won, and the same column of places by players and by rounds."""
    columns = [{place: rows[place][k] for place in PLACES} for k in range(5)]
    return {
        "per_win": per_win,
        "players": dict(zip(PLAYER_BANDS, (dict(c) for c in columns), strict=True)),
        "rounds": dict(zip(ROUND_BANDS, (dict(c) for c in columns), strict=True)),
    }


#: Each place's figures, column by column (1-11 players or 3 rounds, ..., over 64 players or 7+ rounds).
DEFAULT_TABLE: dict[str, dict[str, Any]] = {
    "open": _level(
        0.08,
        {
            "1": (1.75, 2.00, 2.50, 3.00, 4.00),
            "1/2": (1.31, 1.50, 1.88, 2.25, 3.00),
            "2": (0.88, 1.00, 1.25, 1.50, 2.00),
            "2/3": (0.73, 0.83, 1.04, 1.25, 1.67),
            "3": (0.58, 0.67, 0.83, 1.00, 1.33),
            "3/4": (0.44, 0.50, 0.63, 0.75, 1.00),
            "4": (0.38, 0.44, 0.55, 0.66, 0.88),
            "5-8": (0.22, 0.25, 0.31, 0.38, 0.50),
        },
    ),
    "intermediate": _level(
        0.04,
        {
            "1": (1.25, 1.50, 2.00, 2.50, 3.00),
            "1/2": (0.94, 1.13, 1.50, 1.88, 2.25),
            "2": (0.63, 0.75, 1.00, 1.25, 1.50),
            "2/3": (0.52, 0.62, 0.83, 1.04, 1.25),
            "3": (0.42, 0.50, 0.67, 0.83, 1.00),
            "3/4": (0.31, 0.38, 0.50, 0.63, 0.75),
            "4": (0.27, 0.33, 0.44, 0.55, 0.66),
            "5-8": (0.16, 0.19, 0.25, 0.31, 0.38),
        },
    ),
    "novice": _level(
        0.02,  # DERIVED
        {
            "1": (0.50, 0.75, 1.00, 1.25, 1.50),
            "1/2": (0.38, 0.56, 0.75, 0.94, 1.13),
            "2": (0.25, 0.38, 0.50, 0.63, 0.75),
            "2/3": (0.21, 0.31, 0.42, 0.52, 0.62),
            "3": (0.17, 0.25, 0.33, 0.42, 0.50),  # DERIVED: the last two
            "3/4": (0.13, 0.19, 0.25, 0.31, 0.38),  # DERIVED
            "4": (0.11, 0.17, 0.22, 0.28, 0.33),  # DERIVED
            "5-8": (0.06, 0.09, 0.13, 0.16, 0.19),  # DERIVED
        },
    ),
}


def with_changes(figures: dict[str, Any]) -> dict[str, Any]:
    """The default table with the club's ``figures`` put over it (any part of the table's shape: a level's
    ``per_win``, one band's row, one place of a row).

    :raises ValueError: naming the first key the table does not have, or a figure that is not a number from 0 to
        10000.

    >>> with_changes({"novice": {"players": {"1-11": {"1": 3}}}})["novice"]["players"]["1-11"]["1"]
    3.0
    """
    table = copy.deepcopy(DEFAULT_TABLE)
    _put(table, figures, "figures")
    return table


def _put(into: dict[str, Any], changes: Any, where: str) -> None:
    if not isinstance(changes, dict):
        raise ValueError(f"{where} is {changes!r}: give an object of {', '.join(into)}")
    for key, value in changes.items():
        if key not in into:
            raise ValueError(f"{where} has no {key!r}: its keys are {', '.join(into)}")
        if isinstance(into[key], dict):
            _put(into[key], value, f"{where}.{key}")
        elif isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10_000:
            raise ValueError(f"{where}.{key} is {value!r}: give a number from 0 to 10000")
        else:
            into[key] = float(value)
