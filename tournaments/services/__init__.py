"""The only way to write tournaments (docs/ARCHITECTURE.md, "Where logic lives"), one module per part of the workflow.

The use cases, re-exported here:

- events: events, directors, divisions, registration (one by one, CSV), check-in, seeds;
- clubs: clubs, their directors, rosters (a club's events enter the roster's players: one record per person),
  seasons;
- rosters: a club's director puts players on its roster, one (``add_roster_player``) or a pasted list
  (``import_roster``), a name close to the roster's asked about as a registration asks (imported from their module,
  not re-exported here); players_list reads a pasted players' list, for a division's registration and a roster alike;
- merges: two records of one person merged into one (every row follows, with an audit row) and the undo;
- player_details: a registered player's name, club and country corrected by a director;
- start: starting a division: the field, the seeds and the draw;
- advance: the director moves a division on (pairs the next Swiss round, closes the last-chance places) and
  steers a Swiss (ends it, changes its rounds, takes back the current round and pairs it again);
- sync: ``sync_division``, which moves a division forward from its results (idempotent, serialised per
  division), and the divisions behind their matches that ``reconcile`` brings up to date;
- results: confirmations, disputes, forfeits, withdrawals, swaps, and the guard on corrections;
- tables: the venue's tables, given to the matches that can start (``assign_tables``, run by the sync), and the
  director's changes (``set_tables``, ``hold_table``, ``seat_match``);
- followup: a result's follow-up (standings pending, then the sync and the standings after the commit);
- standings: standings tables and ratings, recomputed from scratch;
- playoffs: playoffs for ties (``order_playoff``, ``cancel_playoff``; ``confirm_playoff_result``,
  ``dispute_playoff_result`` and ``award_playoff_forfeit`` on a playoff's match; the sync settles them);
- seasons: a season's points stored per event and player, rewritten after an event's follow-up or a season's change;
- payouts: a division's payout table (``set_payouts``, ``stored_table``, ``flight_sizes``; imported from its module,
  not re-exported here);
- archive: a whole event exported as one file and imported into another installation (``import_event``,
  ``export_event``; imported from their module, not re-exported here).

The parts they share: swiss (pairing a Swiss round), bracket (moving a knockout forward); common.bulk writes many
rows in one statement. What every service and read path agrees on about a division (its lock, plan, counted results, the
state of a pairing, round lengths) is the division's core, :mod:`tournaments.core`, below them all.
"""

from tournaments.services.advance import (
    close_last_chance_places,
    end_swiss,
    pair_next_round,
    repair_round,
    set_swiss_rounds,
    unpair_round,
)
from tournaments.services.clubs import add_club_director, add_to_roster, change_season, create_club, create_season
from tournaments.services.events import (
    DivisionSettings,
    add_director,
    check_in,
    check_in_all,
    close_event,
    create_division,
    create_event,
    create_rating_list,
    import_entries_csv,
    register_player,
    remove_director,
    set_points_weights,
    set_seed,
)
from tournaments.services.followup import Sent, request_followup, schedule_followup
from tournaments.services.merges import merge_players, undo_merge
from tournaments.services.player_details import correct_player_details
from tournaments.services.playoffs import (
    award_playoff_forfeit,
    cancel_playoff,
    confirm_playoff_result,
    dispute_playoff_result,
    order_playoff,
)
from tournaments.services.results import (
    award_forfeit,
    confirm_result,
    dispute_result,
    give_penalty,
    new_entry_link,
    pairing_match,
    swap_players,
    withdraw_entry,
)
from tournaments.services.seasons import (
    recompute_event_season_points,
    recompute_season_points,
    schedule_season_points,
    seasons_to_compute,
)
from tournaments.services.standings import mark_standings_failed, recompute_ratings, recompute_standings
from tournaments.services.start import start_division
from tournaments.services.swiss import round_needs_repairing
from tournaments.services.sync import divisions_behind_their_matches, sync_division
from tournaments.services.tables import MAX_TABLES, hold_table, seat_match, set_tables

__all__ = [
    "MAX_TABLES",
    "DivisionSettings",
    "Sent",
    "add_club_director",
    "add_director",
    "add_to_roster",
    "award_forfeit",
    "award_playoff_forfeit",
    "cancel_playoff",
    "change_season",
    "check_in",
    "check_in_all",
    "close_event",
    "close_last_chance_places",
    "confirm_playoff_result",
    "confirm_result",
    "correct_player_details",
    "create_club",
    "create_division",
    "create_event",
    "create_rating_list",
    "create_season",
    "dispute_playoff_result",
    "dispute_result",
    "divisions_behind_their_matches",
    "end_swiss",
    "give_penalty",
    "hold_table",
    "import_entries_csv",
    "mark_standings_failed",
    "merge_players",
    "new_entry_link",
    "order_playoff",
    "pair_next_round",
    "pairing_match",
    "recompute_event_season_points",
    "recompute_ratings",
    "recompute_season_points",
    "recompute_standings",
    "register_player",
    "remove_director",
    "repair_round",
    "request_followup",
    "round_needs_repairing",
    "schedule_followup",
    "schedule_season_points",
    "seasons_to_compute",
    "seat_match",
    "set_points_weights",
    "set_seed",
    "set_swiss_rounds",
    "set_tables",
    "start_division",
    "swap_players",
    "sync_division",
    "undo_merge",
    "unpair_round",
    "withdraw_entry",
]
