"""Template tags of the public event pages: a player as the standings and the pairings tables show him, a row of
the standings and the rows of a round's table.

A big division's page names hundreds of players in tables of hundreds of rows: an ``{% include %}`` per name, then
the template variables of each row (each resolved, localized and escaped on its own) were most of its rendering
time. These build the same markup in Python, escaping every value they take from the database or a translation (a
name, a club, a reason, a status in words) with :func:`django.utils.html.escape` and formatting numbers as the
template would (:func:`django.utils.formats.localize`).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import get_format, localize
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.core import round_words
from tournaments.models import Division, Entry, Event, Pairing, Round
from tournaments.pages.words import PLAYOFF_TO_PLAY, place_words
from tournaments.standings.tiebreakers import Tiebreak

register = template.Library()

EN_DASH, EM_DASH = "\N{EN DASH}", "\N{EM DASH}"


@register.filter
def place_ordinal(place: int | str) -> str:
    """A place as people say it: 3 -> "3rd", "3-4" -> "3rd-4th" (:func:`tournaments.pages.words.place_words`)."""
    return place_words(str(place))


@register.filter
def round_name(rnd: Round, division: Division | str | None = None) -> str:
    """The round's name (:func:`tournaments.core.round_words`): "Round 3", "Main round 2", "Knockout final";
    ``division``: the round's, read from the round when the template has none."""
    return round_words(rnd, division if isinstance(division, Division) else None)


@register.filter
def status_words(item: Event | Division | Entry, division: Division | None = None) -> str:
    """An event's, a division's or a player's status in the words every page uses, lower case as the boards'
    states are ("registration open", "in play", "checked in", "withdrawn"): its model choice's label (the one
    truth of a status's words, tournaments/pages/words.py). A player of ``division`` once it has started, neither
    withdrawn nor eliminated, is in play as his division is (his entry stays registered or checked in:
    "registered" would be untrue of a player in a semi-final). An event or a division its page marked
    ``playoff_to_play`` (its rounds are over, a playoff for a tie is not) is "playoff to play", not finished."""
    if getattr(item, "playoff_to_play", False):
        return str(PLAYOFF_TO_PLAY)
    still_playing = isinstance(item, Entry) and item.status in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
    if division is not None and still_playing and division.status != Division.Status.REGISTRATION:
        return str(division.get_status_display())
    return str(item.get_status_display())


def _length_bracket(bracket: str) -> str:
    """A bracket as the summary of lengths names it before its round: its label ("consolation", "last chance"), the
    main draw shortened to "main", nothing in a Swiss or a round robin (their rounds need no bracket)."""
    if bracket in (Round.Bracket.SWISS, Round.Bracket.ROUND_ROBIN):
        return ""
    if bracket == Round.Bracket.MAIN:
        return "main"
    return str(Round.Bracket(bracket).label) if bracket in Round.Bracket.values else bracket


@register.filter
def other_lengths(division: Division) -> str:
    """The division's round lengths that differ from its match length, as its summary names them after it
    ("consolation: 5 points, main final: 9 points"; "" when every round plays the match length). The rules are
    the division's ``round_lengths`` (``bracket``, ``bracket:N``, ``bracket:final``)."""
    words = []
    for key, length in (division.round_lengths or {}).items():
        if length == division.match_length:
            continue
        bracket, _sep, which = str(key).partition(":")
        name = _length_bracket(bracket)
        if which == "final":
            where = f"{name} final" if name else _("the final")
        elif which:
            where = f"{name} round {which}" if name else _("round %(number)s") % {"number": which}
        else:
            where = name or _("every round")
        points = _("1 point") if length == 1 else _("%(length)s points") % {"length": length}
        words.append(f"{where}: {points}")
    return ", ".join(words)


@register.filter
def player(entry: Entry | None, seed: int | None = None, *, seeded: bool = True) -> SafeString | str:
    """``<span class="player">``: the seed (the entry's, or ``seed``: the knockout's; none when not ``seeded``), the
    name, the club and country, and a badge when withdrawn."""
    if entry is None:
        return ""
    person: Any = entry.player
    parts = ['<span class="player">']
    seed = (seed or entry.seed) if seeded else None
    if seed:
        parts.append(f'<span class="seed"><span class="visually-hidden">{escape(_("seed"))} </span>{seed}</span> ')
    name, where = person.name_and_where  # the club said once (games.models.Player.name_and_where)
    parts.append(f'<span class="who">{escape(name)}</span>')
    if where:
        parts.append(f' <span class="club">{escape(where)}</span>')
    if entry.status == Entry.Status.WITHDRAWN:
        parts.append(f' <span class="badge">{escape(_("withdrawn"))}</span>')
    parts.append("</span>")
    return mark_safe("".join(parts))  # every value from the database is escaped above


def _number(value: Any) -> str:
    """A cell's value as ``{{ value }}`` renders it (an ``int`` needs no locale without thousand separators)."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return escape(localize(value))


def _label(words: str) -> str:
    """The attribute that names a cell's column (its header's words): a table stacked into cards on a phone shows
    it above the cell (static/css/site.css, ``table.stack``)."""
    return f' data-label="{escape(words)}"'


@register.filter
def won_words(row: Any, division: Division | None = None) -> str:
    """A standings row's matches won as every table shows it (the page, the print): in a Swiss, a round robin and
    a Swiss into a knockout a bye counts as a win, and the figure says how many of them were byes, "3 (1 bye)",
    as master points (which count none) need; in an elimination a bye is an advance, never counted."""
    if not row.byes or (division is not None and division.is_elimination):
        return _number(row.wins)
    byes = ngettext("%(count)s bye", "%(count)s byes", row.byes) % {"count": row.byes}
    return f"{_number(row.wins)} ({byes})"


@register.simple_tag
def standings_row(item: Any, standings: Any) -> SafeString:
    """One ``<tr>`` of the standings (``item``: a :class:`tournaments.pages.StandingRow` of ``standings``): rank,
    player, the places per flight (elimination), won, lost, byes, points for and against, the tie-breaks, then the
    published prizes; each cell labelled with its column's header."""
    row = item.row
    numbers = zip(
        ("won", "lost", "more", "more", "more"),  # a phone shows won and lost in a row's one line (site.css)
        (_("Won"), _("Lost"), _("Byes"), _("Pts for"), _("Pts against")),
        (row.wins, row.losses, row.byes, row.points_for, row.points_against),
        strict=True,
    )
    flights = [words for _flight, words in standings.flights]
    places = "".join(
        f'<td class="place"{_label(words)}>{escape(place)}</td>'
        for words, place in zip(flights, item.places, strict=True)
    )
    won = won_words(row) if standings.byes_won else _number(row.wins)
    cells = "".join(
        f'<td class="{kind}"{_label(words)}>{won if kind == "won" else _number(n)}</td>' for kind, words, n in numbers
    )
    tiebreaks = "".join(
        f'<td class="tiebreak"{_label(column.abbr)}>{_number(v)}</td>'
        for column, v in zip(standings.tiebreaks, item.tiebreaks, strict=True)
    )
    prizes = "".join(
        f'<td class="prize"{_label(words)}>{escape(prize)}</td>'
        for words, prize in zip(standings.prize_columns, item.prizes, strict=True)
    )
    withdrawn = row.entry.status == Entry.Status.WITHDRAWN
    gone = f' <span class="muted">{escape(_("(withdrawn)"))}</span>' if withdrawn else ""
    return mark_safe(  # the player is escaped by player(), the places and labels by escape(), numbers by _number()
        f'<tr><td class="rank"{_label(_("Rank"))}>{_number(row.rank)}</td>'
        f'<th scope="row"{_label(_("Player"))}>{player(row.entry, seeded=standings.seeds)}{gone}</th>'
        f"{places}{cells}{tiebreaks}{prizes}</tr>"
    )


def _side_cell(side: Any, is_bye: bool, winner: str) -> str:
    if side.entry is not None:
        said = f' <span class="source">{escape(side.said)}</span>' if side.said else ""
        return player(side.entry, side.seed) + (winner if side.won else "") + said
    if is_bye:
        return f'<span class="muted">{escape(_("bye"))}</span>'
    return f'<span class="source">{escape(side.source or EM_DASH)}</span>'


def table_cell(pairing: Any) -> str:
    """The venue's table a board plays at: its number (or name) while it holds one; a ready match without one
    waits in the queue for a table; a match over shows the table it was played at; any other board holds none."""
    playable = pairing.status in (Pairing.Status.READY, Pairing.Status.PLAYING)
    if pairing.table_id is None and playable and pairing.match_id is not None:
        return f'<span class="muted">{escape(_("queue"))}</span>'
    return escape(table_column(pairing)) or EM_DASH


@register.filter
def table_column(pairing: Any) -> str:
    """A board's table as a Table column says it, on every page and sheet alike: the number (or the name) of the
    table it holds, or of the one it was played at, kept as people say it ("Table 4") and shown as the tables
    still held are, by its number alone ("" when it has had none)."""
    if pairing.table_id is not None:
        table = pairing.table
        return table.name if table.name else _number(table.number)
    if not pairing.played_at:
        return ""
    number = str(pairing.played_at).removeprefix(_("Table %(number)s") % {"number": ""})
    return _number(int(number)) if number.isdigit() else str(pairing.played_at)


@register.simple_tag
def board_rows(view: Any) -> SafeString:
    """The ``<tr>`` of each board of a round (``view``: a :class:`tournaments.pages.RoundView`): table, player A,
    score (a link to the match page when there is a match), player B, length, status badges, notes; each cell
    labelled with its column's header."""
    winner = f' <span class="visually-hidden">{escape(_("(winner)"))}</span>'
    score_words, match_words = escape(_("Match page, score")), escape(_("match page"))
    live = f'<span class="badge badge-live">{escape(_("live"))}</span>'
    if_needed = f' <span class="badge badge-if-needed">{escape(_("if needed"))}</span>'
    labels = [
        _label(words)
        for words in (_("Table"), _("Player A"), _("Score"), _("Player B"), _("Length"), _("Status"), _("Notes"))
    ]
    rows = []
    for board in view.boards:
        pairing, a, b = board.pairing, board.a, board.b
        url = reverse("games:match", args=[board.match_id]) if board.match_id else ""
        if a.score is not None:
            score = f"{_number(a.score)}{EN_DASH}{_number(b.score)}"
            if url:
                score = f'<a href="{url}"><span class="visually-hidden">{score_words} </span>{score}</a>'
        else:
            score = f'<a href="{url}">{match_words}</a>' if url else EM_DASH
        if board.is_live:
            badges = live
        else:
            badges = f'<span class="badge badge-{escape(board.state)}">{escape(board.state_words)}</span>'
        if pairing.conditional:
            badges += if_needed
        if board.confirmation:
            badges += f' <span class="badge badge-{escape(pairing.confirmation)}">{escape(board.confirmation)}</span>'
        notes = "".join(f'<span class="note-line">{escape(note)}</span>' for note in board.notes)
        rows.append(
            f'<tr class="state-{escape(board.state)}"><th scope="row"{labels[0]}>{table_cell(pairing)}</th>'
            f'<td class="side{" won" if a.won else ""}"{labels[1]}>{_side_cell(a, board.is_bye, winner)}</td>'
            f'<td class="score-cell"{labels[2]}>{score}</td>'
            f'<td class="side{" won" if b.won else ""}"{labels[3]}>{_side_cell(b, board.is_bye, winner)}</td>'
            f'<td class="length"{labels[4]}>{_number(pairing.length)}</td><td class="state"{labels[5]}>{badges}</td>'
            f'<td class="notes"{labels[6]}>{notes}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # every value from the database or a translation is escaped above


@register.simple_tag
def season_rows(rows: Any) -> SafeString:
    """The ``<tr>`` of each row of a season's table (:class:`tournaments.selectors.seasons.SeasonRow`): rank, the
    player (a link to his page, a badge when qualified or tied at the playoff line), points to two decimals, events
    played, matches won; each cell labelled with its column's header. Built in Python: a season of a thousand
    players is a thousand rows."""
    rank, name, points, events, wins = (
        _label(words) for words in (_("Rank"), _("Player"), _("Points"), _("Events"), _("Matches won"))
    )
    badge = f' <span class="badge">{escape(_("qualified"))}</span>'
    tied = f' <span class="badge">{escape(_("tied at the line: playoff or tie-break"))}</span>'
    players = reverse("games:player", args=[0]).removesuffix("0/")  # the players' pages' address, before the id
    two_places = _two_places()
    out = []
    for row in rows:
        mark, after = (' class="qualified"', badge) if row.qualified else ("", tied if row.tied_at_line else "")
        out.append(
            f"<tr{mark}><td{rank}>{_number(row.rank)}</td>"
            f'<th scope="row"{name}><a href="{players}{row.player_id}/">{escape(row.name)}</a>{after}</th>'
            f'<td class="num"{points}>{two_places(row.points)}</td>'
            f'<td class="num"{events}>{_number(row.events)}</td><td class="num"{wins}>{_number(row.match_wins)}</td>'
            "</tr>"
        )
    return mark_safe("\n".join(out))  # the names and the labels are escaped above; the address and numbers are ours


_CENT = Decimal("0.01")


def _two_places() -> Any:
    """A number to two decimals as ``|floatformat:2`` shows it (half up, the language's decimal separator), without
    its per-call work (most of a thousand rows' time): with thousand separators on, that filter itself."""
    if settings.USE_THOUSAND_SEPARATOR:
        return lambda value: floatformat(value, 2)
    separator = str(get_format("DECIMAL_SEPARATOR"))
    return lambda value: format(Decimal(str(value)).quantize(_CENT, ROUND_HALF_UP), "f").replace(".", separator)


#: The tie-breaks that score a bye's virtual opponent (the standings' note says how).
_SCORING_BYES = frozenset({Tiebreak.BUCHHOLZ, Tiebreak.MEDIAN_BUCHHOLZ, Tiebreak.SONNEBORN_BERGER})


@register.filter
def scores_byes(columns: Any) -> bool:
    """Whether a standings table's tie-break columns include one that scores a bye's opponent (Buchholz, median
    Buchholz, Sonneborn-Berger): only then does its legend say how a bye counts."""
    return any(getattr(column, "code", None) in _SCORING_BYES for column in columns or ())


_SCORE = re.compile(r"\b(\d+)-(\d+)\b")


@register.filter
def scores_kept(words: str) -> SafeString:
    """``words`` (escaped) with each score ("1-0", "7-5") in a ``<span class="kept-score">`` that never breaks across
    lines: on a phone "beat Lars Nes 1-0." stays whole, never "1-" then "0." (the playoffs' words)."""
    return mark_safe(_SCORE.sub(r'<span class="kept-score">\1-\2</span>', str(escape(words))))  # escaped above
