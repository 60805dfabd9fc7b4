"""The only way to write matches (docs/ARCHITECTURE.md, "Where things go").

Each service runs in one transaction around one private write path (``write``): it locks the match row, returns
the first result for a repeated idempotency key without writing (the key's digest and sender checked), refuses a
stale expected sequence number (never merges), validates through the engine, appends to the log and applies the
caches. Recording an action loads the cached engine snapshot instead of replaying the match, so its cost stays
flat as the match grows; only director corrections replay the log.

The rooms: ``players`` (names checked), ``matches`` (started, set up, deleted unplayed), ``record`` (the players'
actions and the director's marks), ``corrections`` (undo, take back, correction requests, reopen, replaced
results, the replay of the log in force), ``imports`` (match logs, and the matches of an event archive restored)
and ``write`` (the write path they share, with :func:`~games.services.write.apply_caches`, the one rule for a
match row's caches; its underscored helpers are the package's own and nothing outside imports them). Callers
import from ``games.services``.

Lock order: a service locks exactly one match row (``SELECT ... FOR UPDATE``) before touching its games and log.
"""

from games.services.corrections import (
    answer_correction,
    last_entry_of,
    may_take_back_after,
    rebuild_match,
    reopen_match,
    replace_game_result,
    request_correction,
    take_back,
    take_back_target,
    undo_last_action,
)
from games.services.imports import (
    MatchToImport,
    MatchToRestore,
    import_log,
    import_match,
    import_matches,
    restore_matches,
    restore_players,
)
from games.services.matches import (
    SETUP_FIELDS,
    delete_unplayed_matches,
    new_match,
    start_many_matches,
    start_match,
    start_matches,
    update_match_setup,
)
from games.services.players import (
    PLAYER_REFERENCES,
    correct_player,
    country_problem,
    create_player,
    fold_player,
    unfold_player,
)
from games.services.record import (
    RECORDERS,
    accept_resignation,
    award_penalty,
    choose_double,
    drop,
    finish_match,
    forfeit_match,
    offer_double,
    offer_resignation,
    record_action,
    record_game_result,
    record_opening_roll,
    record_play,
    record_roll,
    reject_resignation,
    take,
    void_match,
)
from games.services.write import Recorded, check_match_size

__all__ = [
    "PLAYER_REFERENCES",
    "RECORDERS",
    "SETUP_FIELDS",
    "MatchToImport",
    "MatchToRestore",
    "Recorded",
    "accept_resignation",
    "answer_correction",
    "award_penalty",
    "check_match_size",
    "choose_double",
    "correct_player",
    "country_problem",
    "create_player",
    "delete_unplayed_matches",
    "drop",
    "finish_match",
    "fold_player",
    "forfeit_match",
    "import_log",
    "import_match",
    "import_matches",
    "last_entry_of",
    "may_take_back_after",
    "new_match",
    "offer_double",
    "offer_resignation",
    "rebuild_match",
    "record_action",
    "record_game_result",
    "record_opening_roll",
    "record_play",
    "record_roll",
    "reject_resignation",
    "reopen_match",
    "replace_game_result",
    "request_correction",
    "restore_matches",
    "restore_players",
    "start_many_matches",
    "start_match",
    "start_matches",
    "take",
    "take_back",
    "take_back_target",
    "undo_last_action",
    "unfold_player",
    "update_match_setup",
    "void_match",
]
