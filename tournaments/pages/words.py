"""The words of the pages: formats, statuses, brackets, decisions and tie-breaks as people say them, a
division's format and match lengths in its header, a place ("3rd-4th").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.utils.translation import ngettext as _n

from tournaments.core import (
    knockout_round_words,
    knockout_rounds,
)
from tournaments.models import Division, Event, Pairing, Round
from tournaments.standings.tiebreakers import Tiebreak

StrOrPromise = str | Promise
EN_DASH = "\N{EN DASH}"
PStatus = Pairing.Status
Confirmation = Pairing.Confirmation


FORMAT_WORDS: dict[str, StrOrPromise] = {
    Division.Format.SINGLE: gettext_lazy("single elimination"),
    Division.Format.MAIN_CONSOLATION: gettext_lazy("main draw with a consolation"),
    Division.Format.PROGRESSIVE: gettext_lazy("main draw with a progressive consolation"),
    Division.Format.LAST_CHANCE: gettext_lazy("main draw, consolation and last chance"),
    Division.Format.DOUBLE: gettext_lazy("double elimination"),
    Division.Format.SWISS: gettext_lazy("Swiss"),
    Division.Format.ROUND_ROBIN: gettext_lazy("round robin"),
    Division.Format.SWISS_KNOCKOUT: gettext_lazy("Swiss into a knockout"),
}
EVENT_STATUS_WORDS: dict[str, StrOrPromise] = {
    Event.Status.DRAFT: gettext_lazy("in preparation"),
    Event.Status.REGISTRATION: gettext_lazy("registration open"),
    Event.Status.RUNNING: gettext_lazy("running"),
    Event.Status.FINISHED: gettext_lazy("finished"),
}
DIVISION_STATUS_WORDS: dict[str, StrOrPromise] = {
    Division.Status.REGISTRATION: gettext_lazy("registration open"),
    Division.Status.RUNNING: gettext_lazy("in play"),
    Division.Status.FINISHED: gettext_lazy("finished"),
}
PAIRING_STATUS_WORDS: dict[str, StrOrPromise] = {
    PStatus.WAITING: gettext_lazy("waiting for earlier results"),
    PStatus.READY: gettext_lazy("ready to play"),
    PStatus.PLAYING: gettext_lazy("playing"),
    PStatus.FINISHED: gettext_lazy("finished"),
    PStatus.BYE: gettext_lazy("bye"),
    PStatus.EMPTY: gettext_lazy("not needed"),
    PStatus.SKIPPED: gettext_lazy("not needed"),
}
#: A ready match the venue has no free table for yet.
WAITING_FOR_TABLE_WORDS: StrOrPromise = gettext_lazy("waiting for a table")
DECISION_WORDS: dict[str, StrOrPromise] = {
    Pairing.Decision.FORFEIT_NO_SHOW: gettext_lazy("forfeit (no-show)"),
    Pairing.Decision.FORFEIT_WITHDRAWAL: gettext_lazy("forfeit (withdrawal)"),
    Pairing.Decision.FORFEIT_PENALTY: gettext_lazy("forfeit (penalty points past half the match length)"),
    Pairing.Decision.DIRECTOR: gettext_lazy("decided by the director"),
    Pairing.Decision.DOUBLE_FORFEIT: gettext_lazy("double forfeit (both players withdrew): nobody wins"),
}
BRACKET_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Main draw"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last chance"),
    Round.Bracket.SWISS: gettext_lazy("Swiss"),
    Round.Bracket.ROUND_ROBIN: gettext_lazy("Round robin"),
}
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
    """``Swiss, 5 rounds`` / ``double round robin`` / ``double elimination``."""
    words = str(FORMAT_WORDS.get(division.format, division.format))
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
    return (list(BRACKET_WORDS).index(bracket) if bracket in BRACKET_WORDS else 9, rank, which.zfill(3))


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
    if division.format == Division.Format.DOUBLE and bracket in DOUBLE_BRACKET_WORDS:
        return DOUBLE_BRACKET_WORDS[bracket]
    if division.is_swiss_knockout and bracket == Round.Bracket.MAIN:
        return KNOCKOUT_WORDS
    return BRACKET_WORDS.get(bracket, bracket)


def place_words(place: str) -> str:
    """A place as people say it: "3" -> "3rd", "3-4" -> "3rd-4th"."""
    return "-".join(str(ordinal(part)) for part in place.split("-"))
