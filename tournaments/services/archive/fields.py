"""The archive's format: its name and version, its notes, and the fields of every record, copied as they are or
handled apart (the package's docstring describes the file)."""

from __future__ import annotations

from django.db import models

from games.models import Action, Game, Match, Player
from tournaments.models import (
    Division,
    Entry,
    Event,
    ImportedMatch,
    Pairing,
    Playoff,
    Rating,
    RatingChange,
    RatingList,
    Round,
    Standing,
)

FORMAT = "bgmatch-event-archive"
VERSION = 1
EVENT_JSON = "event.json"
#: The largest ``event.json`` an import reads (uncompressed).
MAX_JSON_BYTES = 256 * 1024 * 1024
#: Where an imported action row keeps the name of the user who entered it on the exporting site.
ENTERED_BY_KEY = "archive_entered_by"

NOTES = (
    "Ids are the exporting installation's; they only link records within this file.",
    "Players' contact details (the contact field) are personal data and are not exported.",
    "Entry-link secrets are never exported: new entry links are made after import.",
    "Directors and other user accounts are not carried over (users differ between installations): the importing "
    "user becomes the director. entered_by names the exporting site's user or entry link as text.",
    "The rating list is a snapshot: its ratings of this event's players and its changes for this event's matches.",
    "The .mat files are derived from the action logs; an import reads event.json only.",
)

# The fields copied as they are, per record (references, nested lists and derived values are handled apart).
EVENT_FIELDS = ("name", "slug", "venue", "time_zone", "starts_on", "ends_on", "status", "public", "analyse_imported",
    "points_weight", "created_at",
)  # fmt: skip
DIVISION_FIELDS = (
    "name",
    "slug",
    "format",
    "match_length",
    "round_lengths",
    "crawford",
    "casual",
    "variant",
    "entry_mode",
    "clock",
    "seeding",
    "draw_seed",
    "tiebreaks",
    "forfeit_tiebreaks",
    "rounds_planned",
    "knockout_size",
    "double_round_robin",
    "drop_rounds",
    "last_chance_drop_rounds",
    "walkover_as_bye",
    "last_chance_places",
    "last_chance_closed",
    "grand_final_reset",
    "auto_pair",
    "analyse_each_game",
    "payouts",
    "points_weight",
    "points_places",
    "entry_fee",
    "side_pool_fee",
    "side_pool_prizes",
    "house_share",
    "added_money",
    "level",
    "rating_under",
    "rating_from",
    "status",
    "standings_status",
    "standings_error",
    "results_version",
    "standings_version",
    "started_at",
    "finished_at",
)
ENTRY_FIELDS = (
    "seed",
    "rating",
    "status",
    "late",
    "place",
    "registered_at",
    "checked_in_at",
    "withdrawn_at",
    "withdrawal_reason",
    "paid",
    "side_pool",
    "paid_at",
    "refunded",
    "cap_override",
)
ROUND_FIELDS = ("bracket", "number", "length", "seed", "created_at")
PAIRING_FIELDS = (
    "key",
    "board",
    "source_a",
    "source_b",
    "reason",
    "conditional",
    "length",
    "status",
    "score_a",
    "score_b",
    "confirmation",
    "confirmation_side",
    "dispute",
    "decision",
    "decision_reason",
    "penalty_a",
    "penalty_b",
    "swapped_reason",
    "played_at",
    "updated_at",
)
PLAYOFF_FIELDS = (
    "kind",
    "place",
    "after_round",
    "length",
    "status",
    "created_at",
    "finished_at",
    "first_confirmation",
    "first_confirmation_side",
    "final_confirmation",
    "final_confirmation_side",
    "dispute_text",
    "first_correction",
    "final_correction",
)
STANDING_FIELDS = (
    "after_round",
    "rank",
    "wins",
    "losses",
    "byes",
    "points_for",
    "points_against",
    "tiebreaks",
    "places",
    "results_version",
)
PLAYER_FIELDS = ("display_name", "club", "country")
MATCH_FIELDS = (
    "length",
    "variant",
    "crawford",
    "casual",
    "entry_mode",
    "status",
    "private",
    "score1",
    "score2",
    "seq",
    "created_at",
    "started_at",
    "finished_at",
    "source",
)
GAME_FIELDS = (
    "number",
    "start_score1",
    "start_score2",
    "crawford",
    "opening_winner",
    "winner_side",
    "result_kind",
    "ended_by",
    "cube_value",
    "cube_owner",
    "points",
)
ACTION_FIELDS = (
    "seq",
    "game_number",
    "kind",
    "side",
    "play",
    "steps",
    "value",
    "data",
    "position_id",
    "match_id_after",
    "reason",
    "idempotency_key",
    "created_at",
)
RATING_LIST_FIELDS = ("name", "slug", "start", "k_factor", "computed_at")
RATING_FIELDS = ("rating", "experience", "matches")
RATING_CHANGE_FIELDS = ("order", "before", "after", "experience_before", "won")
IMPORTED_MATCH_FIELDS = ("created_at",)

#: Fields added since version 1 of the format was first written: a file made before them lacks them, and reads as
#: the field's default (what the setting meant before it existed). A field added later goes here too.
ADDED_SINCE_FIRST_WRITTEN: dict[type[models.Model], frozenset[str]] = {
    Event: frozenset({"analyse_imported", "points_weight"}),
    Division: frozenset(
        {
            "casual",
            "forfeit_tiebreaks",
            "analyse_each_game",
            "payouts",
            "knockout_size",
            "walkover_as_bye",
            "points_weight",
            "points_places",
            "entry_fee",
            "side_pool_fee",
            "side_pool_prizes",
            "house_share",
            "added_money",
            "level",
            "rating_under",
            "rating_from",
        }
    ),
    Entry: frozenset({"paid", "side_pool", "paid_at", "refunded", "cap_override"}),
    Standing: frozenset({"places"}),
    Match: frozenset({"casual"}),
    Pairing: frozenset({"played_at"}),
    Playoff: frozenset(
        {
            "first_confirmation",
            "first_confirmation_side",
            "final_confirmation",
            "final_confirmation_side",
            "dispute_text",
            "first_correction",
            "final_correction",
        }
    ),
}

#: Every model field that is not copied as it is, and what the file does with it (a test checks that every field
#: of these models is either copied or named here, so a new field cannot be dropped silently).
HANDLED_APART: dict[type[models.Model], dict[str, str]] = {
    Event: {
        "id": "id",
        "directors": "not carried over: users differ",
        "rating_list": "the rating_list record",
        "tables_given": "the venue's tables are the room's, given again where the event is run",
        "club": "not carried over: a club, its roster and its directors belong to the installation it runs on",
    },
    Division: {
        "id": "id",
        "event": "nested in the event's document",
        "knockout_seeds": "references to its entries (knockout_seeds)",
        "points_under": "not carried over with points_season: a cap of points counts a season of the club",
        "points_season": "not carried over: a season belongs to its club, which stays where the event ran",
    },
    Entry: {"id": "id", "division": "nested in its division", "player": "reference"},
    Round: {"id": "id", "division": "nested in its division"},
    Pairing: {
        "id": "id",
        "division": "nested in its division",
        "round": "reference",
        "entry_a": "reference",
        "entry_b": "reference",
        "winner": "reference",
        "match": "reference",
        "table": "the venue's tables are the room's: the first sync after the import assigns them",
        "called_at": "a call belongs to the room it was made in",
        "followup": "work of the room it was due in: the result it follows is on the pairing, as are its standings",
    },
    Standing: {"id": "id", "division": "nested in its division", "entry": "reference"},
    Playoff: {
        "id": "id",
        "division": "nested in its division",
        "entries": "references to its entries",
        "order": "references to its entries",
        "first_match": "reference",
        "final_match": "reference",
    },
    Player: {
        "id": "id",
        "contact": "personal data: never exported",
        "user": "not carried over: users differ",
        "merged_into": "an event's rows name the kept record of a merge, never the merged one",
        "created_at": "the player is created anew",
        "updated_at": "the player is created anew",
    },
    Match: {
        "id": "id",
        "player1": "reference",
        "player2": "reference",
        "winner": "reference, checked against the replay",
        "state": "a cache, rebuilt by replaying the log",
        "created_by": "not carried over: users differ",
    },
    Game: {"id": "not exported", "match": "nested in its match; rebuilt by the replay and checked"},
    Action: {
        "id": "not exported: a row is its match's seq",
        "match": "nested in its match",
        "die1": "dice",
        "die2": "dice",
        "undoes": "undoes, the seq of the row undone",
        "entered_by_user": "entered_by",
        "entered_by_token": "entered_by (the link's secret is never exported)",
        "request_digest": "not exported: it names this site's sender of a keyed request, and senders differ",
    },
    RatingList: {"id": "not exported", "owners": "not carried over: users differ"},
    Rating: {"id": "not exported", "rating_list": "nested in the list", "player": "reference"},
    RatingChange: {
        "id": "not exported",
        "rating_list": "nested in the list",
        "match": "reference",
        "player": "reference",
    },
    ImportedMatch: {"id": "not exported", "event": "the file's event", "match": "reference"},
}
