"""The .mat match-log text format (Jellyfish, gnubg, eXtreme Gammon, Galaxy, Backgammon Studio): syntax only.

:func:`read_mat` turns the text of a match log into a :class:`MatchRecord`; :func:`write_mat` turns a record
back into text in GNU Backgammon's ``export match mat`` layout (FORMATS.md 1.10). This layer knows the format,
not the game: it never checks that plays are legal, that turns alternate or that scores add up. The replayer
does that.

Terms (FORMATS.md 1.2-1.5):

* A **game** is a ``Game N`` header, a **score line** ``name : score   name : score`` (the score before the
  game) and a body of **rows** ``NN) <left cell> <right cell>`` and unnumbered **continuation lines**.
* A **cell** is one turn of one player: a roll with its play, a cube action, or a result. The left column is
  always the first player on the score line (``side`` 0), the right column the second (``side`` 1).
* Rows are split by content, never by fixed columns: a cell starts at a dice token ``XY:``, at a keyword
  (``Doubles``, ``Beavers``, ``Raccoons``, ``Takes``, ``Drops``, ``Passes``, ``Wins``, ``Losses``,
  ``Resigns``) or after a repeated row number. The first cell of a row is the right player's when it stands 10
  or more columns after the ``)``; the first cell of a continuation line is the right player's when it is
  indented 15 or more columns. Every further cell on the same line belongs to the other side than the cell
  before it.

Invariants of a :class:`MatchRecord` read from text: cells are in file order; ``line`` and ``column`` are
1-based (columns count after tabs are expanded to 8); a roll has ``dice`` and a ``play`` (``""`` when nothing
was moved); every other kind has ``dice`` and ``play`` set to ``None``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import FormatError

__all__ = [
    "LEFT",
    "RIGHT",
    "Cell",
    "CellKind",
    "GameRecord",
    "MatchRecord",
    "RollMarker",
    "format_cell",
    "read_mat",
    "write_mat",
]

LEFT = 0
RIGHT = 1

#: A row's first cell starting this many columns or more after the ``)`` is the right player's (the left cell
#: is empty). Left cells start 1 or 2 columns after it, right cells 29 or more, in every known dialect.
_RIGHT_GAP = 10
#: A continuation line indented this far or further is the right player's (gnubg's rule, FORMATS.md 1.4).
_RIGHT_INDENT = 15


class CellKind(enum.Enum):
    """What one cell records."""

    ROLL = "roll"  # "62: 24/18 13/11", "62:", "62: Cannot Move", "62: ???", "62: Illegal play (...)"
    DOUBLE = "double"  # " Doubles => 2" (value: the new cube value)
    BEAVER = "beaver"  # " Beavers => 4" (value: the new cube value; no "Takes" follows)
    RACCOON = "raccoon"  # " Raccoons => 8"
    TAKE = "take"  # " Takes"
    DROP = "drop"  # " Drops", Arkadium's "Passes"
    WINS = "wins"  # "Wins 2 points [and the match]" in the winner's column (value: the points written)
    LOSSES = "losses"  # Galaxy "Losses 2 point" in the resigning / losing player's column
    RESIGNS = "resigns"  # Jellyfish .gam / GammonView "Resigns" in the resigning player's column


class RollMarker(enum.StrEnum):
    """What a roll cell says instead of a play."""

    CANNOT_MOVE = "cannot-move"  # "XY: Cannot Move" (XG .txt, Studio): a dance
    RESIGN_AFTER_ROLL = "resign-after-roll"  # "XY: ???" / "XY: ????" (XG, Studio): rolled, then resigned
    ILLEGAL_PLAY = "illegal-play"  # gnubg Snowie text "XY: Illegal play (<Snowie position>)": board edited


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One turn of one column's player.

    ``play`` is the play text after ``XY:`` with whitespace runs collapsed, exactly as written otherwise
    (``"24/18 13/11"``, ``"bar/22*"``, ``"6/off(2)"``); it is ``""`` for an empty play (a dance, or gnubg's
    roll-then-resign, which look the same) and for every marker. ``position`` holds the Snowie position text
    of an ``Illegal play (...)`` cell. ``value`` is the cube value of a double, beaver or raccoon, the points
    of a ``Wins``/``Losses``/``Resigns`` cell (``None`` when not written). ``move_number`` is the printed row
    number, ``None`` on continuation lines. ``line`` and ``column`` (1-based) locate the cell; ``text`` is the
    cell as written. Cells built by a program may leave the last four at their defaults.
    """

    side: int
    kind: CellKind
    dice: tuple[int, int] | None = None
    play: str | None = None
    marker: RollMarker | None = None
    value: int | None = None
    and_the_match: bool = False
    position: str | None = None
    move_number: int | None = None
    line: int = 0
    column: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """One ``Game N`` block: its number as written, the score line, and the cells in file order.

    ``score`` is the match score before the game, as written. ``ratings`` holds GridGammon's
    ``name,rating`` suffixes (split off ``players``). ``set_position`` is the payload of an XG ``; Set Pos=``
    line; ``comments`` holds any other ``;``/``#`` line inside the game. ``line`` is the ``Game N`` line,
    ``score_line`` the score line.
    """

    number: int
    players: tuple[str, str]
    score: tuple[int, int]
    cells: tuple[Cell, ...] = ()
    ratings: tuple[str | None, str | None] = (None, None)
    set_position: str | None = None
    comments: tuple[str, ...] = ()
    line: int = 0
    score_line: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRecord:
    """A whole match log: the ``N point match`` length (0 = money), the header block and the games.

    ``tags`` are the ``; [Key "Value"]`` lines in file order; ``comments`` the other header comment lines
    (the text after ``;`` or ``#`` and one space).
    """

    match_length: int
    games: tuple[GameRecord, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    comments: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, str]:
        """The players as named on the first game's score line (left column first); empty without games."""
        return self.games[0].players if self.games else ("", "")

    @property
    def ratings(self) -> tuple[str | None, str | None]:
        """GridGammon ratings from the first game's score line."""
        return self.games[0].ratings if self.games else (None, None)

    def tag(self, key: str) -> str | None:
        """The value of the first tag named ``key`` (case-insensitive), or None."""
        folded = key.casefold()
        return next((value for name, value in self.tags if name.casefold() == folded), None)


# ------------------------------------------------------------------------------------------------------------
# Reading

_HEADER_RE = re.compile(r"\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"\s*game\s+(\d+)\s*$", re.IGNORECASE)
_COMMENT_RE = re.compile(r"\s*[;#] ?")
#: Control characters a log never holds (tabs and line ends aside): a NUL or an escape is a damaged or hostile file.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_TAG_RE = re.compile(r'\s*[;#]\s*\[\s*([^"\]]*?)\s+"(.*)"\s*\]\s*$')
_SET_POS_RE = re.compile(r"\s*;\s*set\s+pos\s*=\s*(.*?)\s*$", re.IGNORECASE)
_SCORE_RE = re.compile(r"\s*([^:]*?)\s*:\s*(\S+)\s+([^:]*?)\s*:\s*(\S+)\s*$")
_RATING_RE = re.compile(r"(.*?)\s*,\s*(\d+(?:[.,]\d+)?)")
_ROW_RE = re.compile(r"\s*(\d+)\)")
_START_RE = re.compile(
    r"(?<!\S)(?:([0-9])([0-9]):|(doubles|beavers|raccoons|takes|drops|passes|wins|losses|resigns)\b|(\d+)\)(?!\S))",
    re.IGNORECASE,
)
_ILLEGAL_RE = re.compile(r"illegal\s+play\s*\((.*)\)", re.IGNORECASE)
_ILLEGAL_SPAN_RE = re.compile(r"illegal\s+play\s*\([^)]*\)", re.IGNORECASE)
_CUBE_RE = re.compile(r"(?:doubles|beavers|raccoons)(?:\s*=>\s*(\d+))?", re.IGNORECASE)
_RESULT_RE = re.compile(r"(?:wins|losses)(?:\s+(\d+)(?:\s+points?)?)?(\s+and\s+the\s+match)?", re.IGNORECASE)
_RESIGNS_RE = re.compile(r"resigns(?:\s+(\d+)(?:\s+points?)?)?(\s+and\s+the\s+match)?\b.*", re.IGNORECASE)
_POINT = r"(?:\d{1,2}|bar|off|b|o)"
_PLAY_TOKEN = rf"{_POINT}?(?:\*|\(\d\))*(?:[/-]{_POINT}?(?:\*|\(\d\))*)+,?"
_PLAY_TOKEN_RE = re.compile(_PLAY_TOKEN, re.IGNORECASE)
_PLAY_RE = re.compile(rf"{_PLAY_TOKEN}(?:\s+{_PLAY_TOKEN})*", re.IGNORECASE)
_CANNOT_MOVE_RE = re.compile(r"cannot\s+move", re.IGNORECASE)
_RESIGN_MARK_RE = re.compile(r"\?+")
_TOKEN_RE = re.compile(r"\S+")
_DIGITS_RE = re.compile(r"[0-9]+")
_WORD_RE = re.compile(r"[a-z]+", re.IGNORECASE)

_KEYWORD_KINDS = {
    "doubles": CellKind.DOUBLE,
    "beavers": CellKind.BEAVER,
    "raccoons": CellKind.RACCOON,
    "takes": CellKind.TAKE,
    "drops": CellKind.DROP,
    "passes": CellKind.DROP,
    "wins": CellKind.WINS,
    "losses": CellKind.LOSSES,
    "resigns": CellKind.RESIGNS,
}


def read_mat(text: str | bytes) -> MatchRecord:
    """Read a whole match log.

    Bytes are decoded as UTF-8 (a BOM is dropped), falling back to cp1252 and then Latin-1. CRLF and CR line
    ends, tabs and any number of blank lines are accepted.

    :raises FormatError: for text that cannot be read at all (no ``N point match`` header, a second header, a
        game without a score line, a non-numeric score, an unreadable row, a control character such as NUL
        anywhere), with the 1-based line and, where it helps, the column.
    """
    if isinstance(text, bytes):
        text = _decode(text)
    text = text.removeprefix("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return _Reader().read(lines)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class _GameBuilder:
    """The parts of one game while its lines are being read."""

    __slots__ = (
        "cells",
        "comments",
        "line",
        "number",
        "players",
        "ratings",
        "score",
        "score_line",
        "set_position",
    )

    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.line = line
        self.score_line = 0
        self.players: tuple[str, str] = ("", "")
        self.ratings: tuple[str | None, str | None] = (None, None)
        self.score = (0, 0)
        self.cells: list[Cell] = []
        self.comments: list[str] = []
        self.set_position: str | None = None

    def build(self) -> GameRecord:
        return GameRecord(
            number=self.number,
            players=self.players,
            score=self.score,
            cells=tuple(self.cells),
            ratings=self.ratings,
            set_position=self.set_position,
            comments=tuple(self.comments),
            line=self.line,
            score_line=self.score_line,
        )


class _Reader:
    """A line-by-line state machine: header block, then games (``Game N``, score line, body)."""

    def __init__(self) -> None:
        self.match_length: int | None = None
        self.header_line = 0
        self.tags: list[tuple[str, str]] = []
        self.comments: list[str] = []
        self.games: list[GameRecord] = []
        self.game: _GameBuilder | None = None

    def read(self, lines: list[str]) -> MatchRecord:
        for lineno, raw in enumerate(lines, start=1):
            control = _CONTROL_RE.search(raw)
            if control:
                raise FormatError(
                    f"control character U+{ord(control.group()):04X} in the log: a .mat log is plain text; remove it",
                    line=lineno,
                    column=control.start() + 1,
                )
            line = raw.expandtabs(8) if "\t" in raw else raw
            if line and not line.isspace():
                self._line(line, lineno)
        last = max(1, len(lines) - (lines[-1] == ""))
        if self.match_length is None:
            raise FormatError("no 'N point match' header found", line=last)
        self._finish_game(last)
        return MatchRecord(
            match_length=self.match_length,
            games=tuple(self.games),
            tags=tuple(self.tags),
            comments=tuple(self.comments),
        )

    def _line(self, line: str, lineno: int) -> None:
        if _COMMENT_RE.match(line):
            self._comment(line)
            return
        header = _HEADER_RE.match(line)
        if header:
            self._match_header(int(header[1]), lineno)
            return
        if self.match_length is None:
            raise FormatError(f"expected the match header 'N point match', found {line.strip()!r}", line=lineno)
        game = _GAME_RE.match(line)
        if game:
            self._finish_game(lineno)
            self.game = _GameBuilder(int(game[1]), lineno)
        elif self.game is None:
            raise FormatError(f"expected 'Game 1' after the match header, found {line.strip()!r}", line=lineno)
        elif not self.game.score_line:
            self._score_line(self.game, line, lineno)
        else:
            self.game.cells.extend(_row_cells(line, lineno))

    def _comment(self, line: str) -> None:
        if self.game is not None:
            set_pos = _SET_POS_RE.match(line)
            if set_pos:
                self.game.set_position = set_pos[1]
            else:
                self.game.comments.append(_comment_text(line))
            return
        tag = _TAG_RE.match(line)
        if tag:
            self.tags.append((tag[1], tag[2]))
        else:
            self.comments.append(_comment_text(line))

    def _match_header(self, length: int, lineno: int) -> None:
        if self.match_length is not None:
            raise FormatError(
                f"a second match header (first on line {self.header_line}): one file holds one match",
                line=lineno,
            )
        self.match_length = length
        self.header_line = lineno

    def _finish_game(self, lineno: int) -> None:
        game = self.game
        if game is None:
            return
        if not game.score_line:
            raise FormatError(f"game {game.number} (line {game.line}) has no score line", line=lineno)
        self.games.append(game.build())
        self.game = None

    def _score_line(self, game: _GameBuilder, line: str, lineno: int) -> None:
        match = None if _ROW_RE.match(line) else _SCORE_RE.match(line)
        if match is None:
            raise FormatError(
                f"game {game.number} has no score line 'name : score   name : score'; found {line.strip()!r}",
                line=lineno,
            )
        scores = []
        for group in (2, 4):
            if not _DIGITS_RE.fullmatch(match[group]):
                raise FormatError(f"score {match[group]!r} is not a number", line=lineno, column=match.start(group) + 1)
            scores.append(int(match[group]))
        (name0, rating0), (name1, rating1) = _name(match[1]), _name(match[3])
        game.players = (name0, name1)
        game.ratings = (rating0, rating1)
        game.score = (scores[0], scores[1])
        game.score_line = lineno


def _comment_text(line: str) -> str:
    match = _COMMENT_RE.match(line)
    assert match is not None
    return line[match.end() :].rstrip()


def _name(text: str) -> tuple[str, str | None]:
    """A score-line name with whitespace runs collapsed, and a GridGammon ``,rating`` suffix split off."""
    name = " ".join(text.split())
    rating = _RATING_RE.fullmatch(name)
    if rating and int(re.split(r"[.,]", rating[2])[0]) > 0:
        return rating[1], rating[2]
    return name, None


def _row_cells(line: str, lineno: int) -> list[Cell]:
    """Split one body line (a numbered row or a continuation line) into its cells, in order."""
    row = _ROW_RE.match(line)
    number = int(row[1]) if row else None
    anchor = row.end() if row else None  # column after the ")" of the current row number
    pos = anchor if anchor is not None else 0
    starts = _cell_starts(line, pos)
    side: int | None = None  # side of the next cell; None = decide from its column
    cells: list[Cell] = []
    for index, start in enumerate(starts):
        if side is None:
            _check_blank(line, pos, start.start(), lineno)
        if start[4] is not None:  # a repeated row number in the middle of a line (Galaxy)
            number, anchor, side, pos = int(start[4]), start.end(), None, start.end()
            continue
        if side is None:
            if anchor is not None:
                side = RIGHT if start.start() - anchor >= _RIGHT_GAP else LEFT
            else:
                side = RIGHT if start.start() >= _RIGHT_INDENT else LEFT
        end = starts[index + 1].start() if index + 1 < len(starts) else len(line)
        cells.append(_cell(line, start, end, side, number, lineno))
        side = 1 - side
    if side is None:
        _check_blank(line, pos, len(line), lineno)
    return cells


def _cell_starts(line: str, pos: int) -> list[re.Match[str]]:
    """Where cells (and repeated row numbers) start, skipping the inside of ``Illegal play (...)``."""
    starts = list(_START_RE.finditer(line, pos))
    if "llegal" in line or "LLEGAL" in line:
        spans = [match.span() for match in _ILLEGAL_SPAN_RE.finditer(line, pos)]
        starts = [start for start in starts if not any(a < start.start() < b for a, b in spans)]
    return starts


def _check_blank(line: str, begin: int, end: int, lineno: int) -> None:
    gap = line[begin:end]
    if gap and not gap.isspace():
        column = begin + len(gap) - len(gap.lstrip()) + 1
        raise FormatError(f"unreadable text {gap.strip()!r}", line=lineno, column=column)


def _cell(line: str, start: re.Match[str], end: int, side: int, number: int | None, lineno: int) -> Cell:
    text = line[start.start() : end].strip()
    column = start.start() + 1
    if start[1] is not None:
        return _roll_cell(text, start, side, number, lineno)
    kind = _KEYWORD_KINDS[start[3].lower()]
    value: int | None = None
    if kind in (CellKind.DOUBLE, CellKind.BEAVER, CellKind.RACCOON):
        match = _CUBE_RE.fullmatch(text)
    elif kind in (CellKind.WINS, CellKind.LOSSES):
        match = _RESULT_RE.fullmatch(text)
    elif kind is CellKind.RESIGNS:
        match = _RESIGNS_RE.fullmatch(text)
    else:
        match = _WORD_RE.fullmatch(text)
    if match is None:
        raise FormatError(f"unreadable cell {text!r}", line=lineno, column=column)
    groups = match.groups()
    if groups and groups[0] is not None:
        value = int(groups[0])
    and_the_match = len(groups) > 1 and groups[1] is not None
    return Cell(
        side=side,
        kind=kind,
        value=value,
        and_the_match=and_the_match,
        move_number=number,
        line=lineno,
        column=column,
        text=text,
    )


def _roll_cell(text: str, start: re.Match[str], side: int, number: int | None, lineno: int) -> Cell:
    rest = text[3:].lstrip()
    marker: RollMarker | None = None
    position: str | None = None
    play = ""
    if not rest:
        pass
    elif _PLAY_RE.fullmatch(rest):
        play = " ".join(rest.split())
    elif _RESIGN_MARK_RE.fullmatch(rest):
        marker = RollMarker.RESIGN_AFTER_ROLL
    elif _CANNOT_MOVE_RE.fullmatch(rest):
        marker = RollMarker.CANNOT_MOVE
    else:
        illegal = _ILLEGAL_RE.fullmatch(rest)
        if illegal is None:
            _bad_play(rest, start.start() + len(text) - len(rest), lineno)
        else:
            marker = RollMarker.ILLEGAL_PLAY
            position = illegal[1].strip()
    return Cell(
        side=side,
        kind=CellKind.ROLL,
        dice=(int(start[1]), int(start[2])),
        play=play,
        marker=marker,
        position=position,
        move_number=number,
        line=lineno,
        column=start.start() + 1,
        text=text,
    )


def _bad_play(rest: str, offset: int, lineno: int) -> None:
    """Raise the error for the first unreadable token of a play that starts at column ``offset`` (0-based)."""
    for token in _TOKEN_RE.finditer(rest):
        if not _PLAY_TOKEN_RE.fullmatch(token[0]):
            raise FormatError(f"unreadable play {token[0]!r}", line=lineno, column=offset + token.start() + 1)
    raise FormatError(f"unreadable play {rest!r}", line=lineno, column=offset + 1)


# ------------------------------------------------------------------------------------------------------------
# Writing

_WINS_LEFT = " " * 6  # gnubg: a left-column result line starts at column 6
_WINS_RIGHT = " " * 34  # ... and a right-column one at column 34


def write_mat(record: MatchRecord) -> str:
    """The record as text in GNU Backgammon's ``export match mat`` layout (FORMATS.md 1.10).

    Header tags (``; [Key "Value"]``) and comments come first, then one blank line (gnubg writes it even
    without tags), ``" N point match"`` and a blank line. Each game is ``" Game N"``, the score line
    ``" %-31s%s : %d"`` built from ``"%s : %d"``, then rows ``"%3d) %-27s %s"`` numbered from 1, and a blank
    line. A ``Wins`` cell goes where gnubg puts it: column 6 on its own line for the left player, column 34
    for the right one (on the row of the left cell it follows, if that row has no right cell yet). Rows are
    renumbered; cells keep their sides. Every line ends in ``\n``.

    :raises FormatError: when the record cannot be written readably (a player name holding ``:``, a line break
        inside a name, tag, comment or play, a roll cell without dice).
    """
    out: list[str] = [f'; [{key} "{value}"]' for key, value in record.tags]
    if record.comments:
        out.append("")
        out.extend(f"; {comment}" if comment else ";" for comment in record.comments)
    out += ["", f" {record.match_length} point match", ""]
    for game in record.games:
        out.extend(_game_lines(game))
    broken = next((line for line in out if "\n" in line or "\r" in line), None)
    if broken is not None:
        raise FormatError(f"cannot write a line break inside a line: {broken!r}")
    return "\n".join(out) + "\n"


def format_cell(cell: Cell) -> str:
    """One cell as gnubg writes it: ``"62: 24/18 13/11 "``, ``" Doubles => 2"``, ``"Wins 1 point"``.

    A play gets gnubg's trailing space unless it has four sub-moves. Markers are written as XG and Studio
    write them (``Cannot Move``, ``???``), which gnubg's importer reads. ``Losses`` and ``Resigns`` cells
    (which gnubg skips) get a leading space like the cube actions.
    """
    kind = cell.kind
    if kind is CellKind.ROLL:
        return _roll_text(cell)
    if kind in (CellKind.DOUBLE, CellKind.BEAVER, CellKind.RACCOON):
        word = {CellKind.DOUBLE: "Doubles", CellKind.BEAVER: "Beavers", CellKind.RACCOON: "Raccoons"}[kind]
        return f" {word}" if cell.value is None else f" {word} => {cell.value}"
    if kind is CellKind.TAKE:
        return " Takes"
    if kind is CellKind.DROP:
        return " Drops"
    word = {CellKind.WINS: "Wins", CellKind.LOSSES: " Losses", CellKind.RESIGNS: " Resigns"}[kind]
    if cell.value is not None:
        word += f" {cell.value} point{'s' if cell.value != 1 else ''}"
    return word + (" and the match" if cell.and_the_match else "")


def _roll_text(cell: Cell) -> str:
    if cell.dice is None:
        raise FormatError("a roll cell has no dice", line=cell.line or None)
    head = f"{cell.dice[0]}{cell.dice[1]}: "
    if cell.marker is RollMarker.CANNOT_MOVE:
        return head + "Cannot Move"
    if cell.marker is RollMarker.RESIGN_AFTER_ROLL:
        return head + "???"
    if cell.marker is RollMarker.ILLEGAL_PLAY:
        return head + f"Illegal play ({cell.position or ''})"
    play = " ".join((cell.play or "").split())
    if not play:
        return head
    return head + play + (" " if len(play.split()) < 4 else "")


def _game_lines(game: GameRecord) -> list[str]:
    for name in game.players:
        if ":" in name:
            raise FormatError(f"player name {name!r} contains ':', which a score line cannot hold")
    names = [
        name if rating is None else f"{name},{rating}" for name, rating in zip(game.players, game.ratings, strict=True)
    ]
    left = f"{names[0]} : {game.score[0]}"
    lines = [f" Game {game.number}", f" {left:<31}{names[1]} : {game.score[1]}"]
    if game.set_position is not None:
        lines.append(f"; Set Pos={game.set_position}")
    lines.extend(f"; {comment}" if comment else ";" for comment in game.comments)
    lines.extend(_RowWriter().rows(game.cells))
    lines.append("")
    return lines


class _RowWriter:
    """Lays cells out in gnubg's rows: a left cell opens a row, the right cell after it closes the row."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.row = 0
        self.open: Cell | None = None  # the left cell of the current row, while it has no right cell

    def rows(self, cells: Iterable[Cell]) -> list[str]:
        for cell in cells:
            if cell.kind is CellKind.WINS:
                self._result(cell)
            elif cell.side == LEFT:
                self._close()
                self.row += 1
                self.open = cell
            else:
                self._right(format_cell(cell))
        self._close()
        return self.lines

    def _prefix(self, left_text: str) -> str:
        return f"{self.row:3d}) {left_text:<27} "

    def _close(self) -> None:
        if self.open is not None:
            self.lines.append(self._prefix(format_cell(self.open)))
            self.open = None

    def _right(self, text: str) -> None:
        if self.open is None:
            self.row += 1
            self.lines.append(self._prefix("") + text)
        else:
            self.lines.append(self._prefix(format_cell(self.open)) + text)
            self.open = None

    def _result(self, cell: Cell) -> None:
        text = format_cell(cell)
        if cell.side == LEFT:
            self._close()
            self.lines.append(_WINS_LEFT + text)
            return
        left = self.open
        if left is None:
            self.lines.append(_WINS_RIGHT + text)
        elif left.kind is CellKind.DROP:  # gnubg writes the drop and the opponent's result as one cell
            self.lines.append(self._prefix(format_cell(left) + " " * 23 + text))
        elif left.kind is CellKind.ROLL and left.marker is None and not left.play:  # rolled, then resigned
            self.lines.append(f"{self.row:3d}) {format_cell(left):<3}" + " " * 24 + text)
        else:
            self.lines.append(self._prefix(format_cell(left)) + " " + text)
        self.open = None
