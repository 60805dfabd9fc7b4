"""The venue: a call as the player hears it, and the screens of the venue display (the calls, the boards at the
tables and waiting for one, the standings), a page of each list at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.models import Match
from tournaments.core import (
    round_words,
)
from tournaments.models import Division, Pairing, Standing
from tournaments.pages.words import EN_DASH, StrOrPromise
from tournaments.selectors.common import place_of
from tournaments.selectors.playoffs import PlayoffMatch, PlayoffView, ordinal


def call_round_words(pairing: Pairing) -> str:
    """The round as a call names it, as every page names it (:func:`tournaments.core.round_words`): "Main round
    2", "Consolation round 1", "Round 3", "Knockout semi-final" (needs the pairing's round and division loaded)."""
    return round_words(pairing.round, pairing.division)


def call_words(
    pairing: Pairing, player_id: int | None = None, *, division: bool = False, round_name: str | None = None
) -> str:
    """A call as the player hears it: "Table 7: you play Pia Ruud, Main round 2, 7 points"; without ``player_id``
    (the venue display, the director) both names: "Table 7: Lars Nes v Pia Ruud, Main round 2, 7 points".
    ``division``: the division named before the round, for a room shared by several ("..., Pia Ruud, Open, Main
    round 2, 7 points"); ``round_name``: the round's name where the page knows its bracket's rounds ("Main
    final": :func:`round_titles_of`). Needs the pairing's table, round and players loaded (and its division)."""
    a, b = pairing.entry_a, pairing.entry_b
    names = [e.player.display_name if e is not None else "" for e in (a, b)]
    length = _("%(length)s points") % {"length": pairing.length} if pairing.length != 1 else _("1 point")
    where = pairing.table_label or _("Waiting for a table")
    if player_id is not None and a is not None and b is not None and player_id in (a.player_id, b.player_id):
        other = names[1] if a.player_id == player_id else names[0]
        who = _("you play %(name)s") % {"name": other}
    else:
        who = _("%(a)s v %(b)s") % {"a": names[0], "b": names[1]}
    named = f"{pairing.division.name}, " if division else ""
    return f"{where}: {who}, {named}{round_name or call_round_words(pairing)}, {length}"


# -- the venue display -----------------------------------------------------------------------------------------------

#: Rows of each list on one screen of the venue display (1920x1080, read from five metres): the boards (two lines
#: each at most), the standings (one line each: a screen holds a division of 16 players), the calls shown (the
#: others are counted, with their tables), and the matches waiting for a table listed after the boards.
DISPLAY_ROWS = 9
DISPLAY_STANDINGS_ROWS = 16
DISPLAY_CALLS = 4
DISPLAY_QUEUE = 2 * DISPLAY_ROWS


@dataclass(frozen=True)
class DisplayBoard:
    """A match at a table, being played, or waiting for a table (``waiting``: its place in the queue) as the venue
    display shows it."""

    table: str
    division: str
    round: str
    a: str
    b: str
    score: str
    state: str
    waiting: int = 0
    length: int = 0  # the match's length: the score is read against it ("2-1, to 3")


@dataclass(frozen=True)
class DisplayStanding:
    division: str
    place: str  # the place the division's page gives the player (:func:`tournaments.selectors.common.place_of`)
    name: str
    wins: int
    losses: int


@dataclass(frozen=True)
class DisplayPage:
    """One screen of the venue display: the calls, a page of the current boards and of the standings; the lists
    longer than a screen are shown a page at a time, the screen moving to the next page at every refresh."""

    calls: list[str]
    boards: list[DisplayBoard]
    standings: list[DisplayStanding]
    page: int
    pages: int
    boards_page: tuple[int, int]
    standings_page: tuple[int, int]
    # The rows of each list on this screen, as its heading says them: first, last, of how many ("10-18 of 23").
    boards_rows: tuple[int, int, int] = (0, 0, 0)
    standings_rows: tuple[int, int, int] = (0, 0, 0)
    over: bool = False  # every division is finished
    more_calls: list[str] = field(default_factory=list)  # the tables of the calls not shown
    waiting: int = 0  # the matches waiting for a table
    waiting_unlisted: int = 0  # of which not listed
    # How each playoff for a tie stands, beside the standings ("Open: Tie at 1st: a playoff is ordered (...).").
    playoffs: list[str] = field(default_factory=list)
    seated: bool = False  # a match is at a table (no call: every one has started; or none is at a table)

    @property
    def next_page(self) -> int:
        return (self.page + 1) % self.pages


def _page_of(items: list[Any], page: int, rows: int = DISPLAY_ROWS) -> tuple[list[Any], tuple[int, int]]:
    count = max(1, -(-len(items) // rows))
    shown = page % count
    return items[shown * rows : (shown + 1) * rows], (shown + 1, count)


def _rows_of(shown: list[Any], page: tuple[int, int], total: int, rows: int) -> tuple[int, int, int]:
    """The rows a screen shows of a list, numbered from 1: (first, last, of how many); the template says one row
    alone by its number ("10 of 10")."""
    first = (page[0] - 1) * rows + 1
    return first, first + len(shown) - 1, total


def _display_board(division: Division, board: Any, titles: dict[int, StrOrPromise], waiting: int = 0) -> DisplayBoard:
    p = board.pairing
    match = p.match
    score = f"{match.score1}{EN_DASH}{match.score2}" if match is not None and match.seq else ""
    return DisplayBoard(
        table=p.table_label,
        division=division.name,
        round=str(titles.get(p.round_id) or call_round_words(p)),
        a=p.entry_a.player.display_name,
        b=p.entry_b.player.display_name,
        score=score,
        state="waiting" if waiting else str(board.state),
        waiting=waiting,
        length=p.length,
    )


def display_page(
    calls: Sequence[Pairing],
    boards: Sequence[tuple[Division, Any]],
    standings: Sequence[tuple[Division, Sequence[Standing]]],
    page: int,
    round_titles: dict[int, StrOrPromise] | None = None,
    *,
    over: bool = False,
    divisions: int = 1,
    queue: Sequence[tuple[Division, Any]] = (),
    playoffs: Sequence[tuple[Division, PlayoffView]] = (),
) -> DisplayPage:
    """The screen ``page`` of the display from the calls (newest first: :data:`DISPLAY_CALLS` lines, the last one
    counting the others with their tables when there are more), the boards of the room (division, a director's board of
    tournaments.selectors.director: the venue's matches, whatever their round), of which it shows each once, those
    at a table or being played (a match over is no longer playing), then the ``queue`` (the matches waiting for a
    table, next first: the first :data:`DISPLAY_QUEUE` listed, the others counted), and the standings of each
    division in play or finished (a finished one's heading says its standings are final). ``round_titles``: the
    rounds' names by id (:func:`round_titles_of`); ``over``: every division is finished; ``divisions``: how many
    the event has (more than one: each call names its division, as each board does); ``playoffs``: the divisions'
    playoffs for ties (:func:`tournaments.selectors.playoffs.playoffs_in`), whose matches still to be played or
    being played follow the boards at tables ("Playoff for the tie at 1st place"), and whose words the screen says
    beside the standings."""
    titles = round_titles or {}
    rows = []
    seen: set[int] = set()
    for division, board in boards:
        p = board.pairing
        if p.entry_a is None or p.entry_b is None or p.pk in seen:
            continue
        seen.add(p.pk)
        if board.state.is_over or not (p.table_label or board.state == "playing"):
            continue
        rows.append(_display_board(division, board, titles))
    rows.sort(key=lambda r: (not r.table, _table_sort(r.table)))
    rows += [_playoff_board(division, view, match) for division, view in playoffs for match in _to_play(view)]
    waiting = [(d, b) for d, b in queue if b.pairing.entry_a is not None and b.pairing.entry_b is not None]
    rows += [_display_board(d, b, titles, n) for n, (d, b) in enumerate(waiting[:DISPLAY_QUEUE], start=1)]
    unsettled = {d.pk for d, view in playoffs if not view.finished}
    table = [
        DisplayStanding(
            _division_heading(division, unsettled),
            place_of(division, row),
            row.entry.player.display_name,
            row.wins,
            row.losses,
        )
        for division, rows_of in standings
        for row in rows_of
    ]
    shown_boards, boards_page = _page_of(rows, page)
    shown_standings, standings_page = _page_of(table, page, DISPLAY_STANDINGS_ROWS)
    pages = max(boards_page[1], standings_page[1])
    shown_calls = DISPLAY_CALLS if len(calls) <= DISPLAY_CALLS else DISPLAY_CALLS - 1  # the last line counts the others
    return DisplayPage(
        calls=[
            call_words(p, division=divisions > 1, round_name=str(titles.get(p.round_id) or "") or None)
            for p in calls[:shown_calls]
        ],
        boards=shown_boards,
        standings=shown_standings,
        page=page % pages,
        pages=pages,
        boards_page=boards_page,
        standings_page=standings_page,
        boards_rows=_rows_of(shown_boards, boards_page, len(rows), DISPLAY_ROWS),
        standings_rows=_rows_of(shown_standings, standings_page, len(table), DISPLAY_STANDINGS_ROWS),
        over=over,
        more_calls=[p.table_label for p in calls[shown_calls:]],
        waiting=len(waiting),
        waiting_unlisted=max(0, len(waiting) - DISPLAY_QUEUE),
        playoffs=[f"{d.name}: {view.words}" if divisions > 1 else view.words for d, view in playoffs],
        seated=any(row.table and not row.waiting for row in rows),
    )


def _to_play(view: PlayoffView) -> list[PlayoffMatch]:
    """The playoff's matches to show as playing: those to be played or being played, none once the playoff has
    settled its tie. A match with a result (waiting for a confirmation, disputed) is over, as a round's is: the
    playoff's line under the standings says how it stands."""
    if view.finished:
        return []
    return [m for m in view.matches if m.winner is None and m.status != Match.Status.VOID]


def _playoff_board(division: Division, view: PlayoffView, match: PlayoffMatch) -> DisplayBoard:
    """A playoff's match as "Now playing" shows it: no table (the director seats its players), its score once
    started, "Playoff for the tie at 1st place" for its round."""
    started = match.status != Match.Status.SCHEDULED
    state = "playing" if started else "ready"
    return DisplayBoard(
        table="",
        division=division.name,
        round=_("Playoff for the tie at %(place)s place") % {"place": ordinal(view.place)},
        a=match.names[0],
        b=match.names[1],
        score=f"{match.score[0]}{EN_DASH}{match.score[1]}" if started else "",
        state=state,
        length=view.length,
    )


def _division_heading(division: Division, unsettled: set[int]) -> str:
    """The division's name over its standings: "Open: final standings" once it is over, "Open: standings (a playoff
    to play)" while its rounds are over but a playoff for a tie (``unsettled``: such divisions' ids) is not."""
    if division.status == Division.Status.FINISHED and division.pk in unsettled:
        return _("%(division)s: standings (a playoff to play)") % {"division": division.name}
    if division.status == Division.Status.FINISHED:
        return _("%(division)s: final standings") % {"division": division.name}
    return division.name


def _table_sort(label: str) -> tuple[int, str]:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits else 0, label)
