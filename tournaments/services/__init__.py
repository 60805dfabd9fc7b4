"""The only way to write tournaments (DESIGN.md, "Where logic lives"), one module per part of the workflow:

- events: events, directors, divisions, registration (one by one, CSV), check-in, seeds;
- draw: starting a division, the bracket and Swiss/round-robin pairings, and ``sync_division``, which moves a
  division forward from its results (idempotent, serialised per division);
- results: confirmations, disputes, forfeits, withdrawals, swaps, and the guard on corrections;
- standings: standings tables and ratings, recomputed from scratch.
- archive: a whole event exported as one file and imported into another installation (``import_event``,
  ``export_event``; imported from their module, not re-exported here).
"""

from tournaments.services.draw import (
    close_last_chance_places,
    divisions_behind_their_matches,
    pair_next_round,
    start_division,
    sync_division,
)
from tournaments.services.events import (
    DivisionSettings,
    add_director,
    check_in,
    close_event,
    create_division,
    create_event,
    create_rating_list,
    import_entries_csv,
    register_player,
    remove_director,
    set_seed,
)
from tournaments.services.results import (
    award_forfeit,
    confirm_result,
    dispute_result,
    give_penalty,
    schedule_followup,
    swap_players,
    withdraw_entry,
)
from tournaments.services.standings import mark_standings_failed, recompute_ratings, recompute_standings

__all__ = [
    "DivisionSettings",
    "add_director",
    "award_forfeit",
    "check_in",
    "close_event",
    "close_last_chance_places",
    "confirm_result",
    "create_division",
    "create_event",
    "create_rating_list",
    "dispute_result",
    "divisions_behind_their_matches",
    "give_penalty",
    "import_entries_csv",
    "mark_standings_failed",
    "pair_next_round",
    "recompute_ratings",
    "recompute_standings",
    "register_player",
    "remove_director",
    "schedule_followup",
    "set_seed",
    "start_division",
    "swap_players",
    "sync_division",
    "withdraw_entry",
]
