"""The words of the pages: brackets and tie-breaks as people say them, a division's format and match lengths in its
header, a place ("3rd-4th").

Where a status's words live: in the model. The label of each choice in tournaments/models.py (``Event.Status``,
``Division.Status``, ``Entry.Status``, ``Pairing.Status``, ``Pairing.Confirmation``, ``Pairing.Decision``,
``Division.Format``, ``Round.Bracket``, ``Playoff.Kind``...) is the word every page shows for it, so the admin, the API
schema's enum descriptions and ``get_FOO_display()`` say the same: the pages read ``get_status_display()`` or
``Model.Status(value).label`` and keep no table of their own. A page words a choice otherwise only where it has a
reason, and then derives from the label: a bracket's heading is its label capitalised ("Main draw",
:func:`bracket_words`); a Swiss or a round robin says its rounds after the format's label (:func:`format_words`).
What no choice says stays here: a double elimination's brackets by the names players use, the knockout of a Swiss
into a knockout, a ready match still waiting for a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.utils.translation import ngettext as _n

from tournaments.core import (
    knockout_round_words,
    knockout_rounds,
)
from tournaments.models import Division, Pairing, Playoff, Round
from tournaments.standings.tiebreakers import Tiebreak

StrOrPromise = str | Promise
EN_DASH = "\N{EN DASH}"
PStatus = Pairing.Status
Confirmation = Pairing.Confirmation


#: A ready match the venue has no free table for yet: a board's state the model has no status for.
WAITING_FOR_TABLE_WORDS: StrOrPromise = gettext_lazy("waiting for a table")
#: A Swiss into a knockout calls its bracket (the main one) the knockout.
KNOCKOUT_WORDS: StrOrPromise = gettext_lazy("Knockout")
#: Double elimination calls its brackets by the names players use.
DOUBLE_BRACKET_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Winners' bracket"),
    Round.Bracket.CONSOLATION: gettext_lazy("Losers' bracket"),
}


@dataclass(frozen=True)
class TiebreakColumn:
    code: str
    abbr: StrOrPromise
    name: StrOrPromise
    meaning: StrOrPromise


TIEBREAK_COLUMNS = {
    column.code: column
    for column in (
        TiebreakColumn(
            Tiebreak.MATCH_WINS,
            pgettext_lazy("tie-break abbreviation", "W"),
            gettext_lazy("Wins"),
            gettext_lazy("matches won over the board; byes are not counted"),
        ),
        TiebreakColumn(
            Tiebreak.BUCHHOLZ,
            pgettext_lazy("tie-break abbreviation", "Bu"),
            gettext_lazy("Buchholz"),
            gettext_lazy("the sum of the opponents' scores"),
        ),
        TiebreakColumn(
            Tiebreak.MEDIAN_BUCHHOLZ,
            pgettext_lazy("tie-break abbreviation", "MBu"),
            gettext_lazy("Median Buchholz"),
            gettext_lazy("Buchholz without the highest and the lowest opponent's score"),
        ),
        TiebreakColumn(
            Tiebreak.SONNEBORN_BERGER,
            pgettext_lazy("tie-break abbreviation", "SB"),
            gettext_lazy("Sonneborn-Berger"),
            gettext_lazy("the sum of the scores of the opponents the player beat"),
        ),
        TiebreakColumn(
            Tiebreak.POINTS_DIFF,
            pgettext_lazy("tie-break abbreviation", "+/-"),
            gettext_lazy("Points difference"),
            gettext_lazy("points won minus points lost, over all the player's matches"),
        ),
        TiebreakColumn(
            Tiebreak.HEAD_TO_HEAD,
            pgettext_lazy("tie-break abbreviation", "H2H"),
            gettext_lazy("Head-to-head"),
            gettext_lazy("matches won against the players still tied at this point"),
        ),
    )
}


def tiebreak_name(code: str) -> StrOrPromise:
    """A tie-break's name as people say it ("Buchholz", "Points difference"), from its code ("points-diff")."""
    column = TIEBREAK_COLUMNS.get(code)
    return column.name if column is not None else code


def format_words(division: Division) -> str:
    """``Swiss, 5 rounds`` / ``double round robin`` / ``double elimination``: the format's label, with what the
    division's settings add to it."""
    words = str(division.get_format_display())
    if division.format == Division.Format.SWISS and division.rounds_planned:
        return _("%(format)s, %(rounds)s rounds") % {"format": words, "rounds": division.rounds_planned}
    if division.is_swiss_knockout:
        return _("Swiss, %(rounds)s rounds, then the top %(size)s in a knockout") % {
            "rounds": division.rounds_planned,
            "size": division.knockout_size,
        }
    if division.format == Division.Format.ROUND_ROBIN and division.double_round_robin:
        return _("double round robin")
    return words


def lengths_words(division: Division) -> str:
    """The division's match lengths as its header says them: ``1-point matches``, then each per-round rule by the
    round's name on the pages: ``1-point matches; Knockout final: 3 points``."""
    words = _n("%(length)s-point matches", "%(length)s-point matches", division.match_length) % {
        "length": division.match_length
    }
    rules = [
        _("%(round)s: %(points)s") % {"round": _rule_words(division, key), "points": _points(length)}
        for key, length in sorted((division.round_lengths or {}).items(), key=lambda rule: _rule_order(rule[0]))
    ]
    return "; ".join([words, *rules])


def _points(length: int) -> str:
    return _n("%(length)s point", "%(length)s points", length) % {"length": length}


def _rule_order(key: str) -> tuple[int, int, str]:
    bracket, _sep, which = key.partition(":")
    rank = {"": 0, "semi-final": 2, "final": 3}.get(which, 1)
    brackets = Round.Bracket.values
    return (brackets.index(bracket) if bracket in brackets else 9, rank, which.zfill(3))


def _rule_words(division: Division, key: str) -> str:
    """A per-round length rule's round as the pages name it: ``main:final`` is "Knockout final" in a Swiss into a
    knockout ("Main draw final" elsewhere), ``swiss:5`` "Round 5", ``consolation`` "Consolation"."""
    bracket, _sep, which = key.partition(":")
    if bracket in (Round.Bracket.SWISS, Round.Bracket.ROUND_ROBIN):
        if not which:
            return _("every round") if not division.is_swiss_knockout else _("every Swiss round")
        if which == "final":
            return _("the last round") if not division.is_swiss_knockout else _("the last Swiss round")
        return _("Round %(number)s") % {"number": which}
    name = str(bracket_words(division, bracket))
    if division.is_swiss_knockout and bracket == Round.Bracket.MAIN and which.isdigit():
        return knockout_round_words(int(which), knockout_rounds(division))
    if which == "final":
        return _("%(bracket)s final") % {"bracket": name}
    if which == "semi-final":
        return _("%(bracket)s semi-finals") % {"bracket": name}
    if which:
        return _("%(bracket)s round %(number)s") % {"bracket": name, "number": which}
    return name


def bracket_words(division: Division, bracket: str) -> StrOrPromise:
    """A bracket's heading: "Winners' bracket" in a double elimination, "Knockout" for the main bracket of a Swiss
    into a knockout, otherwise the bracket's label capitalised ("Main draw", "Last chance")."""
    if division.format == Division.Format.DOUBLE and bracket in DOUBLE_BRACKET_WORDS:
        return DOUBLE_BRACKET_WORDS[bracket]
    if division.is_swiss_knockout and bracket == Round.Bracket.MAIN:
        return KNOCKOUT_WORDS
    return capfirst(Round.Bracket(bracket).label) if bracket in Round.Bracket.values else bracket


def place_words(place: str) -> str:
    """A place as people say it: "3" -> "3rd", "3-4" -> "3rd-4th"."""
    return "-".join(str(ordinal(part)) for part in place.split("-"))


# A division's (and its event's) status while its rounds are over but a playoff for a tie is to be played: the
# stored status says finished, the pages say the truth.
PLAYOFF_TO_PLAY = gettext_lazy("playoff to play")


def playoff_words(playoff: Playoff, match_id: int | None = None) -> str:
    """A playoff as the players hear it: "Playoff for the tie at 2nd place"; a match of a three-player stepladder
    (``match_id``) says which: "Playoff for the tie at 1st place, first match" or "..., final"."""
    words = _("Playoff for the tie at %(place)s place") % {"place": place_words(str(playoff.place))}
    if match_id is None or playoff.first_match_id is None:
        return words  # two players: one match
    which = _("first match") if playoff.which(match_id) == "first" else _("final")
    return f"{words}, {which}"
