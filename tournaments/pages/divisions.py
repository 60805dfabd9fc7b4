"""The divisions on their event's page and on their own: each division's summary, its champions and final titles,
the notes of corrected results, and each live part's ETag, made from the division's *fingerprint*.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from tournaments.core import (
    BRACKET_ORDER,
    may_have_playoffs,
    pairing_words,
    place_span,
    round_words,
)
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Round
from tournaments.pages.words import PLAYOFF_TO_PLAY, StrOrPromise, format_words, lengths_words, place_words
from tournaments.selectors.common import corrected_pairings, corrected_playoff_matches, standings_table
from tournaments.selectors.playoffs import ordinal, unsettled_playoffs
from tournaments.selectors.public import (
    bracket_finals,
    divisions_with_players,
    rounds_in_play,
    table_leaders,
)


def etag_of(division: Division, part: str, *extra: object) -> str:
    """A quoted ETag for one live part of the division page, from the fingerprint that
    :func:`tournaments.selectors.public.division_for_page` reads (see the views' module docstring)."""
    names = getattr(division, "names_changed", None)
    parts: tuple[object, ...] = (
        part,
        division.pk,
        division.status,
        division.results_version,
        division.standings_version,
        division.standings_state,
        getattr(division, "entries_sum", None),
        names.isoformat() if names is not None else None,
        get_language(),
        *extra,
    )
    parts += (getattr(division, "corrected_playoffs", None),)  # a playoff's result the director corrected
    if part == "standings":
        payouts = repr(sorted(division.payouts.items())) if division.payouts else ""  # a new table changes the page
        parts += (getattr(division, "standings_rows", None), tuple(division.tiebreaks), payouts)
        parts += (getattr(division, "playoffs_sum", None),)  # the playoffs' words and their matches' links
    else:
        parts += (getattr(division, "pairings_sum", None), getattr(division, "matches_sum", None))
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    return f'"{digest}"'


@dataclass
class DivisionSummary:
    division: Division
    format: str
    status: StrOrPromise
    players: int
    current: list[str]
    champions: list[tuple[StrOrPromise, list[Entry]]]
    lengths: str = ""
    # "to be settled by a playoff (A v B)": the champion, while a playoff for the tie at 1st is to be played
    champion_playoff: str = ""
    now: str = ""  # while it runs: "2 matches being played, 3 to play"


def division_summaries(event: Event) -> list[DivisionSummary]:
    """The event's divisions with their players, current rounds and champions (four queries, and one for the
    playoffs still to be played when a division may hold one: a finished division whose playoff is unfinished is
    not over, :data:`PLAYOFF_TO_PLAY`, and a tie at 1st waits for its playoff to name its champion)."""
    divisions = divisions_with_players(event)
    rounds = rounds_in_play([d.pk for d in divisions])
    champions = _champions([d for d in divisions if d.status == Division.Status.FINISHED])
    unsettled = unsettled_playoffs(divisions)
    out = []
    for d in divisions:
        status = PLAYOFF_TO_PLAY if d.pk in unsettled else d.get_status_display()
        out.append(
            DivisionSummary(
                division=d,
                format=format_words(d),
                status=status,
                players=getattr(d, "players", 0),  # annotated by divisions_with_players
                current=_current_words(d, rounds[d.pk]) if d.status == Division.Status.RUNNING else [],
                champions=champions.get(d.pk, []),
                lengths=lengths_words(d),
                champion_playoff=_champion_playoff(unsettled.get(d.pk, []), champions.get(d.pk, [])),
                now=_now_words(d) if d.status == Division.Status.RUNNING else "",
            )
        )
    return out


def _now_words(division: Division) -> str:
    """What a running division's matches are doing, as the event's page says it beside its current rounds: "2
    matches being played, 3 to play" (annotated by ``divisions_with_players``); "" when none is."""
    playing, waiting = getattr(division, "being_played", None) or 0, getattr(division, "to_play", None) or 0
    words = []
    if playing:
        words.append(
            ngettext("%(count)s match being played", "%(count)s matches being played", playing) % {"count": playing}
        )
    if waiting:
        words.append(
            ngettext("%(count)s to play", "%(count)s to play", waiting) % {"count": waiting}
            if playing
            else ngettext("%(count)s match to play", "%(count)s matches to play", waiting) % {"count": waiting}
        )
    return ", ".join(words)


def _champion_playoff(playoffs: list[Playoff], champions: list[tuple[StrOrPromise, list[Entry]]]) -> str:
    """ "to be settled by a playoff (A v B)" for a playoff at 1st among ``playoffs`` (its players named from the
    tied ``champions``), "" for none."""
    names = {e.pk: e.player.display_name for _label, entries in champions for e in entries}
    for p in playoffs:
        if p.place == 1:
            return settled_by_playoff_words([names.get(pk, "") for pk in p.entries])
    return ""


def settled_by_playoff_words(names: Iterable[str]) -> str:
    """A champion while the playoff for the tie at 1st is to be played: "to be settled by a playoff (A v B)"."""
    return _("to be settled by a playoff (%(players)s)") % {"players": " v ".join(names)}


def event_status_words(event: Event, summaries: list[DivisionSummary] | None = None) -> StrOrPromise:
    """The event's status in words: :data:`PLAYOFF_TO_PLAY` while it is finished but a division's playoff is
    not. ``summaries``: its divisions' (its own page); without them, the event as a list read it, annotated with
    ``playoff_to_play`` (:func:`tournaments.selectors.playoffs.playoff_to_play`)."""
    if summaries is None:
        to_play = bool(getattr(event, "playoff_to_play", False))
    else:
        to_play = any(s.status == PLAYOFF_TO_PLAY for s in summaries)
    if event.status == Event.Status.FINISHED and to_play:
        return PLAYOFF_TO_PLAY
    return event.get_status_display()


def _current_words(division: Division, rounds: list[tuple[str, int | None, int]]) -> list[str]:
    if division.knockout_drawn:
        rounds = [r for r in rounds if r[0] == Round.Bracket.MAIN]
    if not division.has_bracket:
        number = min((o for _b, o, _l in rounds if o is not None), default=None)
        if number is None:
            number = max((last for _b, _o, last in rounds), default=0)
        if not number:
            return []
        total = division.rounds_planned if division.in_swiss_phase else max(r[2] for r in rounds)
        return [_("round %(number)s of %(total)s") % {"number": number, "total": total}]
    out = []
    for bracket, open_min, _last in sorted(rounds, key=lambda r: BRACKET_ORDER.get(r[0], 9)):
        if open_min is not None:  # named as every page names it (tournaments.core.round_words)
            out.append(round_words(Round(bracket=bracket, number=open_min), division))
    return out


def correction_notes(division: Division, pairings: Iterable[Pairing] | None = None) -> list[str]:
    """What the division page says of the results a director corrected: "Round 2, Table 1: Per Foss v Ola Dahl: the
    director corrected the result (the wrong winner was entered)." and how the later rounds take it. From
    ``pairings`` when the page has read them all (with their rounds and players), else one query, none when the
    division's page fingerprint says it has no corrected result (``corrected``, :func:`division_for_page`)."""
    if pairings is not None:
        corrected = [p for p in pairings if p.decision == Pairing.Decision.DIRECTOR]
        corrected.sort(key=lambda p: (p.round.number, p.round.bracket, p.board))
    elif hasattr(division, "corrected") and not division.corrected:
        corrected = []
    else:
        corrected = corrected_pairings(division)
    notes = []
    for pairing in corrected:
        words = pairing_words(pairing, division)
        why = f" ({pairing.decision_reason})" if pairing.decision_reason else ""
        notes.append(_("%(pairing)s: the director corrected the result%(why)s.") % {"pairing": words, "why": why})
    if notes and division.format in (Division.Format.SWISS, Division.Format.SWISS_KNOCKOUT):
        notes.append(
            _(
                "The standings count the corrected results; the later Swiss rounds' pairings stand, and their boards "
                "say the score groups as they are now."
            )
        )
    return notes + _playoff_correction_notes(division)


def _playoff_correction_notes(division: Division) -> list[str]:
    """ "Playoff for the tie at 2nd: Pia Ruud v Lars Nes: the director corrected the result (the wrong winner was
    entered)." for each playoff match a director corrected: one query, none for a division that holds no playoff
    (:func:`tournaments.core.may_have_playoffs`) or whose page fingerprint says there is none
    (``corrected_playoffs``)."""
    if not may_have_playoffs(division) or (hasattr(division, "corrected_playoffs") and not division.corrected_playoffs):
        return []
    return [
        _("Playoff for the tie at %(place)s: %(a)s v %(b)s: the director corrected the result (%(why)s).")
        % {
            "place": ordinal(playoff.place),
            "a": match.player1.display_name,
            "b": match.player2.display_name,
            "why": playoff.correction_of(match.pk),
        }
        for playoff, match in corrected_playoff_matches(division)
    ]


def finish_words(place: str) -> StrOrPromise:
    """What a player finished, by one rule for every shared place: "4" -> "Finished 4th", a place several players
    share ("4-6": three tied at 4th in a table, two semi-final losers at "3-4") -> "Shared 4th-6th place"."""
    if "-" in place:
        return _("Shared %(place)s place") % {"place": place_words(place)}
    return _("Finished %(place)s") % {"place": place_words(place)}


def final_titles(division: Division) -> dict[int, StrOrPromise]:
    """A finished division's players by entry id, each with what he finished: the winners' titles
    (:func:`champion_titles`), everyone else his place (:func:`finish_words`: "Finished 2nd", "Shared 4th-6th
    place" for three tied at 4th); empty while the division is played (two queries)."""
    titles = champion_titles(division)
    if not titles:
        return {}
    rows = standings_table(division)
    sharing = Counter(row.rank for row in rows)
    for row in rows:
        place = (row.places or {}).get(Round.Bracket.MAIN) or place_span(row.rank, sharing[row.rank])
        titles.setdefault(row.entry_id, finish_words(str(place)))
    return titles


def champion_titles(division: Division) -> dict[int, StrOrPromise]:
    """A finished division's winners by entry id, each with the title it won ("Champion", whatever the format, as
    every page calls him; "Consolation winner"); empty while the division is played (one query)."""
    if division.status != Division.Status.FINISHED:
        return {}
    titles: dict[int, StrOrPromise] = {}
    for label, entries in _champions([division]).get(division.pk, []):
        for entry in entries:
            titles.setdefault(entry.pk, label)
    return titles


def _champions(finished: list[Division]) -> dict[int, list[tuple[StrOrPromise, list[Entry]]]]:
    """Elimination: the winner of each bracket's last match played (a double elimination's losers' bracket winner
    plays on in the grand final). Swiss and round robin: the players ranked first in the final standings."""
    out: dict[int, list[tuple[StrOrPromise, list[Entry]]]] = defaultdict(list)
    elimination = [d for d in finished if d.is_elimination]
    tables = [d for d in finished if not d.is_elimination]
    if elimination:
        labels = {"main": _("Champion"), "consolation": _("Consolation winner"), "last-chance": _("Last chance winner")}
        formats = {d.pk: d.format for d in elimination}
        found: dict[int, dict[str, Entry]] = defaultdict(dict)
        for pairing in bracket_finals(elimination):
            if formats[pairing.division_id] == Division.Format.DOUBLE and pairing.round.bracket != "main":
                continue
            assert pairing.winner is not None  # the filter on winner__isnull
            found[pairing.division_id].setdefault(pairing.round.bracket, pairing.winner)
        for division_id, by_bracket in found.items():
            for bracket in ("main", "consolation", "last-chance"):
                if bracket in by_bracket:
                    out[division_id].append((labels[bracket], [by_bracket[bracket]]))
    if tables:
        leaders: dict[int, list[Entry]] = defaultdict(list)
        for row in table_leaders(tables):
            leaders[row.division_id].append(row.entry)
        for division_id, entries in leaders.items():
            title = _("Champion") if len(entries) == 1 else finish_words(place_span(1, len(entries)))
            out[division_id].append((title, entries))
    return out
