"""What the public event pages show, shaped for the templates (tournaments/views.py renders them): the words for
formats, brackets and tie-breaks; each live part's ETag, made from the division's *fingerprint*; a board per
pairing, a view per round, the bracket's columns, the standings rows, and each division's summary on its event page.

Reads go through tournaments/selectors/public.py; nothing here writes. The live parts, their ETags and their
queries are described in the views' module docstring.

The rooms, each importing only those before it: ``words`` (what people call formats, statuses, brackets,
decisions, tie-breaks and places), ``boards`` (a board per pairing, the rounds, the bracket's columns),
``standings`` (the table with its tie-break, place and prize columns), ``divisions`` (the event page's summaries,
champions and titles, corrected results, the live parts' ETags), ``venue`` (calls and the venue display) and
``ratings`` (a player's rating chart). Callers import from ``tournaments.pages``.
"""

from tournaments.pages.boards import (
    RoundView,
    board_of,
    bracket_views,
    counts_of,
    current_from,
    current_round_ids,
    current_rounds,
    round_links,
    round_titles_of,
    round_views,
)
from tournaments.pages.divisions import (
    PLAYOFF_TO_PLAY,
    correction_notes,
    division_summaries,
    etag_of,
    event_status_words,
    final_titles,
    settled_by_playoff_words,
)
from tournaments.pages.ratings import rating_chart
from tournaments.pages.standings import place_columns, prize_cells, prize_columns, remainder_notes, standings_view
from tournaments.pages.venue import call_words, display_page
from tournaments.pages.words import (
    TIEBREAK_COLUMNS,
    format_words,
    lengths_words,
    place_words,
    playoff_words,
    tiebreak_name,
)

__all__ = [
    "PLAYOFF_TO_PLAY",
    "TIEBREAK_COLUMNS",
    "RoundView",
    "board_of",
    "bracket_views",
    "call_words",
    "correction_notes",
    "counts_of",
    "current_from",
    "current_round_ids",
    "current_rounds",
    "display_page",
    "division_summaries",
    "etag_of",
    "event_status_words",
    "final_titles",
    "format_words",
    "lengths_words",
    "place_columns",
    "place_words",
    "playoff_words",
    "prize_cells",
    "prize_columns",
    "rating_chart",
    "remainder_notes",
    "round_links",
    "round_titles_of",
    "round_views",
    "settled_by_playoff_words",
    "standings_view",
    "tiebreak_name",
]
