"""Static, explainable plans of every bracket match of a division, and their resolution from results.

Terms
-----
- **Plan**: every match (node) a division can play, fixed before play starts. A node names where its two players
  come from (its *sources*): ``Seed(n)``, ``Winner(key)``, ``Loser(key)``, ``Place(label)`` (a last-chance entry
  place the director fills) or ``Empty()`` (statically nobody: only the byes of main round 1).
- **Brackets**: ``main``, ``consolation`` (also the losers' bracket of double elimination) and ``last-chance``.
  Keys read ``f"{bracket}-{round}-{index}"``, round 1-based, index 0-based from the top. Explanations number
  matches from 1 ("main round 1 match 3" is ``main-1-2``).
- **Main bracket**: the single-elimination draw of ``elimination.py``: ``bracket_size(n)`` places, seeds placed by
  ``placement_order``, seeds ``1..size-n`` have a bye in round 1 (a node whose side ``b`` is ``Empty``).
- **Feeder bracket** (consolation, last chance, losers' bracket): built from *waves*, the players dropping in
  after one round of the bracket above (the losers of main round 2, say). Only sources that can produce a player
  are listed: the loser of a main-round-1 bye is nobody and is left out, so a feeder never pads to a power of two.
- **First losses**: the consolation takes the players who lose one of their first ``drop_rounds`` matches (1 by
  default), the last chance those who lose one of their first ``last_chance_drop_rounds`` consolation matches. A
  bye is an advance, not a match, so a seed with a bye who loses in round 2 lost his first match. Where a node's
  loser may or may not qualify (one side came through a bye, the other did not), the source is conditional,
  ``Loser(key, within=k)``: nobody when the loser had played more than ``k`` matches of that bracket.

How a feeder bracket is built (what a director reads)
-----------------------------------------------------
1. The first wave is drawn like a single-elimination draw of its own size, seeded by the seed expected in each
   place (the loser of "seed 3 v seed 14" is expected to be seed 14); its top seeds get the byes.
2. Each later wave meets the players still in (the *survivors*) in a *major* round. While the survivors outnumber
   the wave they first play *minor* rounds among themselves (neighbours in pairs; an odd last one waits a round).
   When the wave outnumbers the survivors, the wave players spread evenly over it meet one survivor each and the
   others wait a round (a bye).
3. Which survivor meets which dropped player is chosen among four orders of the wave: plain, reversed, halves
   swapped, reversed with halves swapped, and (when the counts match) the least-rematch matching if it does
   strictly better. The plan keeps the one with the fewest expected immediate rematches: a dropped player's first
   feeder match (against a survivor, or after a bye against the next round's neighbour) against someone he has
   already played anywhere in the plan, every result counted as a coin toss. Plain order wins ties. Reversing is
   the classic double-elimination rule (the loser of main round 2 match 1 cannot meet at once the player he beat
   in round 1); ``Plan.drops`` records every candidate with its expected rematches, and the dropped player's
   explanation says which placement was used and why.
4. After the last wave the survivors play minor rounds down to one: the bracket's champion. The losers' bracket
   of double elimination with a single entrant is one bye node, so it still sends him to the grand final; a feeder
   with none has no node.

The expected rematches are computed as if every match were a coin toss: a source holds a player with some chance
(a conditional loser may be nobody, and then his opponent walks over), and a rematch counts only when the match
where the two met was played.

Formats and their waves (R main rounds): ``single`` (none); ``main-consolation`` (the first losses within D
matches, D = 1 by default, at most 2: one wave per main round that has some); ``progressive-consolation`` (the
same, D = R - 1 by default: every loser but the final's); ``main-consolation-lastchance`` (a consolation as either
of those, then a last chance fed by the first consolation losses within L matches, L = 1 by default, with the entry
places joining its first wave). A consolation or last chance that a single player could reach has no node (it is
not played: no flight of one), and a last chance without nodes has no places;
``double-elimination`` (the losers of every main round, the final's too, then the grand final ``main-(R+1)-0``
and, with ``reset``, the conditional reset ``main-(R+2)-0``). A final's loser never drops in the other formats,
so a 2-player field has no consolation. ``plan_bracket`` caches its plans: they are immutable.

Invariants: nodes are listed so that every node comes after the nodes its sources name; no node has two
statically empty sides; every feeder node but a lone entrant's bye is a real match, so a feeder of ``m`` possible
entrants has ``m - 1`` nodes; every non-seed source has an explanation. ``resolve`` is a pure function of the results.

The rooms, each importing only those before it: ``plan`` (the values: sources, nodes, placements, the plan; a
source in words), ``graph`` (the plan being built and what each source is expected to hold), ``waves`` (a planned
feeder bracket built wave by wave), ``planning`` (``plan_bracket``) and, beside it, ``resolution`` (``resolve``,
``champion``). Their underscored helpers are the package's own; callers import from
``tournaments.pairing.brackets``.
"""

from tournaments.pairing.brackets.plan import (
    CONSOLATION,
    FORMATS,
    LAST_CHANCE,
    MAIN,
    BracketFormat,
    Candidate,
    Drawn,
    Drop,
    Empty,
    Loser,
    Node,
    Opponent,
    Place,
    Plan,
    Seed,
    Source,
    Winner,
    describe,
)
from tournaments.pairing.brackets.planning import plan_bracket
from tournaments.pairing.brackets.resolution import NodeState, Resolution, Status, champion, resolve

__all__ = [
    "CONSOLATION",
    "FORMATS",
    "LAST_CHANCE",
    "MAIN",
    "BracketFormat",
    "Candidate",
    "Drawn",
    "Drop",
    "Empty",
    "Loser",
    "Node",
    "NodeState",
    "Opponent",
    "Place",
    "Plan",
    "Resolution",
    "Seed",
    "Source",
    "Status",
    "Winner",
    "champion",
    "describe",
    "plan_bracket",
    "resolve",
]
