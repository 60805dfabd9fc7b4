"""The one read layer of tournaments/ (docs/ARCHITECTURE.md, "Where logic lives"): every page, API view and template
tag reads
through a selector, and each selector runs a fixed number of queries whatever the size of the field.

- common: what every audience reads: the events and divisions a user may see, standings tables, rounds and
  pairings, the directors' queue of results (rounds' pairings and playoffs' matches), a player's next match
  (re-exported here);
- public: the public event pages (a division with its fingerprint for the ETags, its rounds, the rounds its
  standings exist for, an event's summaries);
- director: the directors' pages (their events, the dashboard's current rounds, boards, the pairing sheet's links);
- venue: the room (the venue's tables with their matches, the calls, the queue for a table);
- api: the API (visible events and divisions, entries, pairings, ratings and their history);
- clubs, points, seasons: clubs and their pages, master points (contract H), a club's season table.

What a division is (its plan, counted results, the state of a pairing) comes from :mod:`tournaments.core`.
"""

from tournaments.selectors.common import (
    NextFor,
    QueueItem,
    corrected_pairings,
    director_queue,
    divisions_visible_to,
    events_visible_to,
    final_prize_of,
    finished_place_of,
    next_for,
    next_pairing_for,
    out_place_of,
    pairings_of,
    payouts_of,
    rounds_of,
    standings_table,
    waiting_slot_for,
)

__all__ = [
    "NextFor",
    "QueueItem",
    "corrected_pairings",
    "director_queue",
    "divisions_visible_to",
    "events_visible_to",
    "final_prize_of",
    "finished_place_of",
    "next_for",
    "next_pairing_for",
    "out_place_of",
    "pairings_of",
    "payouts_of",
    "rounds_of",
    "standings_table",
    "waiting_slot_for",
]
