"""BackGames.org's Universal Club Master Points: the default table a season of that system counts by.

**PLACEHOLDER FIGURES.** The structure below is the table's (three levels; by field size 1-11, 12-23, 24-32, 33-64
and over 64 players, or by 3, 4, 5, 6 and 7+ rounds; the places 1st, 1/2 tie, 2nd, 2/3 tie, 3rd, 3/4 tie, 4th and
5-8 tie; a small amount per match won, the player taking whichever is higher), but the numbers are NOT BackGames'
published ones: they were not at hand when this was written. Check every figure against the table BackGames
publishes and correct it here, or give a season the club's own figures (its ``table``'s ``figures``, the same shape,
any part of it: what it leaves out is taken from here). Seasons that gave no figures read this table whenever their
points are computed, so a correction here changes them too.

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

DEFAULT_TABLE: dict[str, dict[str, Any]] = {
    "open": {
        "per_win": 0.25,
        "players": {
            "1-11": {"1": 4.0, "1/2": 3.5, "2": 3.0, "2/3": 2.5, "3": 2.0, "3/4": 1.75, "4": 1.5, "5-8": 0.75},
            "12-23": {"1": 6.0, "1/2": 5.25, "2": 4.5, "2/3": 3.75, "3": 3.0, "3/4": 2.62, "4": 2.25, "5-8": 1.12},
            "24-32": {"1": 8.0, "1/2": 7.0, "2": 6.0, "2/3": 5.0, "3": 4.0, "3/4": 3.5, "4": 3.0, "5-8": 1.5},
            "33-64": {"1": 12.0, "1/2": 10.5, "2": 9.0, "2/3": 7.5, "3": 6.0, "3/4": 5.25, "4": 4.5, "5-8": 2.25},
            "65+": {"1": 16.0, "1/2": 14.0, "2": 12.0, "2/3": 10.0, "3": 8.0, "3/4": 7.0, "4": 6.0, "5-8": 3.0},
        },
        "rounds": {
            "3": {"1": 4.0, "1/2": 3.5, "2": 3.0, "2/3": 2.5, "3": 2.0, "3/4": 1.75, "4": 1.5, "5-8": 0.75},
            "4": {"1": 6.0, "1/2": 5.25, "2": 4.5, "2/3": 3.75, "3": 3.0, "3/4": 2.62, "4": 2.25, "5-8": 1.12},
            "5": {"1": 8.0, "1/2": 7.0, "2": 6.0, "2/3": 5.0, "3": 4.0, "3/4": 3.5, "4": 3.0, "5-8": 1.5},
            "6": {"1": 12.0, "1/2": 10.5, "2": 9.0, "2/3": 7.5, "3": 6.0, "3/4": 5.25, "4": 4.5, "5-8": 2.25},
            "7+": {"1": 16.0, "1/2": 14.0, "2": 12.0, "2/3": 10.0, "3": 8.0, "3/4": 7.0, "4": 6.0, "5-8": 3.0},
        },
    },
    "intermediate": {
        "per_win": 0.17,
        "players": {
            "1-11": {"1": 2.8, "1/2": 2.45, "2": 2.1, "2/3": 1.75, "3": 1.4, "3/4": 1.22, "4": 1.05, "5-8": 0.52},
            "12-23": {"1": 4.2, "1/2": 3.67, "2": 3.15, "2/3": 2.62, "3": 2.1, "3/4": 1.84, "4": 1.57, "5-8": 0.79},
            "24-32": {"1": 5.6, "1/2": 4.9, "2": 4.2, "2/3": 3.5, "3": 2.8, "3/4": 2.45, "4": 2.1, "5-8": 1.05},
            "33-64": {"1": 8.4, "1/2": 7.35, "2": 6.3, "2/3": 5.25, "3": 4.2, "3/4": 3.67, "4": 3.15, "5-8": 1.57},
            "65+": {"1": 11.2, "1/2": 9.8, "2": 8.4, "2/3": 7.0, "3": 5.6, "3/4": 4.9, "4": 4.2, "5-8": 2.1},
        },
        "rounds": {
            "3": {"1": 2.8, "1/2": 2.45, "2": 2.1, "2/3": 1.75, "3": 1.4, "3/4": 1.22, "4": 1.05, "5-8": 0.52},
            "4": {"1": 4.2, "1/2": 3.67, "2": 3.15, "2/3": 2.62, "3": 2.1, "3/4": 1.84, "4": 1.57, "5-8": 0.79},
            "5": {"1": 5.6, "1/2": 4.9, "2": 4.2, "2/3": 3.5, "3": 2.8, "3/4": 2.45, "4": 2.1, "5-8": 1.05},
            "6": {"1": 8.4, "1/2": 7.35, "2": 6.3, "2/3": 5.25, "3": 4.2, "3/4": 3.67, "4": 3.15, "5-8": 1.57},
            "7+": {"1": 11.2, "1/2": 9.8, "2": 8.4, "2/3": 7.0, "3": 5.6, "3/4": 4.9, "4": 4.2, "5-8": 2.1},
        },
    },
    "novice": {
        "per_win": 0.12,
        "players": {
            "1-11": {"1": 2.0, "1/2": 1.75, "2": 1.5, "2/3": 1.25, "3": 1.0, "3/4": 0.88, "4": 0.75, "5-8": 0.38},
            "12-23": {"1": 3.0, "1/2": 2.62, "2": 2.25, "2/3": 1.88, "3": 1.5, "3/4": 1.31, "4": 1.12, "5-8": 0.56},
            "24-32": {"1": 4.0, "1/2": 3.5, "2": 3.0, "2/3": 2.5, "3": 2.0, "3/4": 1.75, "4": 1.5, "5-8": 0.75},
            "33-64": {"1": 6.0, "1/2": 5.25, "2": 4.5, "2/3": 3.75, "3": 3.0, "3/4": 2.62, "4": 2.25, "5-8": 1.12},
            "65+": {"1": 8.0, "1/2": 7.0, "2": 6.0, "2/3": 5.0, "3": 4.0, "3/4": 3.5, "4": 3.0, "5-8": 1.5},
        },
        "rounds": {
            "3": {"1": 2.0, "1/2": 1.75, "2": 1.5, "2/3": 1.25, "3": 1.0, "3/4": 0.88, "4": 0.75, "5-8": 0.38},
            "4": {"1": 3.0, "1/2": 2.62, "2": 2.25, "2/3": 1.88, "3": 1.5, "3/4": 1.31, "4": 1.12, "5-8": 0.56},
            "5": {"1": 4.0, "1/2": 3.5, "2": 3.0, "2/3": 2.5, "3": 2.0, "3/4": 1.75, "4": 1.5, "5-8": 0.75},
            "6": {"1": 6.0, "1/2": 5.25, "2": 4.5, "2/3": 3.75, "3": 3.0, "3/4": 2.62, "4": 2.25, "5-8": 1.12},
            "7+": {"1": 8.0, "1/2": 7.0, "2": 6.0, "2/3": 5.0, "3": 4.0, "3/4": 3.5, "4": 3.0, "5-8": 1.5},
        },
    },
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
