"""Finding a person on a club's roster by the name a director typed (pure Python, no database).

Terms
- An **exact** match is the same name, spaces aside (``"Pia  Ruud"`` is ``"Pia Ruud"``): the same person, reused.
- A **close** match may be the same person written another way, and only the director can tell: the same name in
  other case or without its accents (``"pia ruud"``, ``"Pia Rüüd"``), with a typo (``"Pia Rud"``), with its given
  name as an initial (``"P. Ruud"``, ``"P Ruud"``), or in the other order (``"Ruud, Pia"``, ``"Ruud Pia"``).
  A close match is offered, never taken: registering never merges two people silently.

Invariants: :func:`roster_matches` reads the roster once, whatever its size, and answers in roster order.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["TYPO_RATIO", "Matches", "folded", "is_close", "roster_matches", "spaced", "told_apart"]

P = TypeVar("P", bound=Hashable)

#: How alike two folded names must be to be a typo of one another (difflib's ratio: 2 x common / total letters).
#: "pia rud" and "pia ruud" are 0.93, "per ruud" and "pia ruud" 0.75.
TYPO_RATIO = 0.85


def spaced(name: str) -> str:
    """The name with its spaces as people mean them: one between words, none around."""
    return " ".join(name.split())


def told_apart(name: str, club: str) -> str:
    """The name a director could give a second player of ``name`` to tell the two apart: his club, or a word for one.

    >>> told_apart("Ann Berg", "Oslo BK")
    'Ann Berg (Oslo BK)'
    >>> told_apart("Ann Berg", " ")
    'Ann Berg (his club or town)'
    """
    return f"{name} ({club.strip() or 'his club or town'})"


@functools.lru_cache(maxsize=65536)
def folded(name: str) -> str:
    """The name without case, accents or punctuation, one space between words.

    >>> folded("  Pía  RÜÜD-Hansen ")
    'pia ruud hansen'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w\s]|_", " ", plain).split())


def _initialled(a: list[str], b: list[str]) -> bool:
    """``a`` writes ``b``'s given names as initials: the same last name, each other word the first letter of ``b``'s
    word at its place (``p ruud`` for ``pia ruud``)."""
    if len(a) != len(b) or len(a) < 2 or a[-1] != b[-1] or a == b:
        return False
    return all(x == y or (len(x) == 1 and y.startswith(x)) for x, y in zip(a[:-1], b[:-1], strict=True))


def is_close(typed: str, known: str) -> bool:
    """Whether ``typed`` may be ``known`` written another way (see the module's terms); an exact match is not close.

    >>> [is_close(t, "Pia Ruud") for t in ("pia ruud", "Pia Rud", "P. Ruud", "Ruud, Pia", "Per Ruud", "Pia Ruud")]
    [True, True, True, True, False, False]
    """
    if spaced(typed) == spaced(known):
        return False
    return _close_folded(folded(typed), folded(known))


def _close_folded(a: str, b: str) -> bool:
    """:func:`is_close` on two folded names that are not the same name."""
    if not a or not b:
        return False
    if a == b:
        return True
    words_a, words_b = a.split(), b.split()
    if sorted(words_a) == sorted(words_b):
        return True
    if _initialled(words_a, words_b) or _initialled(words_b, words_a):
        return True
    if 2 * min(len(a), len(b)) < TYPO_RATIO * (len(a) + len(b)):  # difflib's real_quick_ratio, without the matcher
        return False
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return matcher.quick_ratio() >= TYPO_RATIO and matcher.ratio() >= TYPO_RATIO


@dataclass(frozen=True)
class Matches(Generic[P]):
    """The roster's players named exactly as typed, and those whose name is close to it."""

    exact: list[P] = field(default_factory=list)
    close: list[P] = field(default_factory=list)


def roster_matches(name: str, roster: Iterable[tuple[P, str]]) -> Matches[P]:
    """The roster's players (``(id, name)`` pairs) named exactly ``name`` or close to it.

    >>> roster_matches("Pia Ruud", [(1, "Pia Ruud"), (2, "pia ruud"), (3, "Per Ruud")])
    Matches(exact=[1], close=[2])
    """
    found: Matches[P] = Matches()
    wanted = spaced(name)
    typed = folded(wanted)
    for player, known in roster:
        if spaced(known) == wanted:
            found.exact.append(player)
        elif _close_folded(typed, folded(known)):
            found.close.append(player)
    return found
