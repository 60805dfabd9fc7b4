"""What tournaments/ answers when games/ asks about a match: whether its games are analysed one by one, whether an
imported match is analysed (games.hooks.GAME_ANALYSIS_CHECKS, IMPORT_ANALYSIS_CHECKS). A match's result is written
on its pairing, its follow-up flagged and enqueued, in the match's own transaction
(tournaments.services.sync.show_match_result, one of games.hooks.RESULT_WRITERS): no signal is heard here.
"""

from __future__ import annotations

from games.models import Match
from tournaments.models import Division, Event


def analyses_each_game(match: Match) -> bool:
    """Whether the division of the match's pairing analyses each game as it ends (games.hooks.GAME_ANALYSIS_CHECKS)."""
    return Division.objects.filter(pairings__match=match, analyse_each_game=True).exists()


def analyses_imported(match: Match) -> bool:
    """Whether the event the match was imported into analyses imported matches (games.hooks.IMPORT_ANALYSIS_CHECKS)."""
    return Event.objects.filter(imported_matches__match=match, analyse_imported=True).exists()
