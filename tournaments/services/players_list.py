"""A pasted list of players, read line by line: the one format both a division's registration from a list
(tournaments/services/events.py) and a club's roster (tournaments/services/clubs.py) accept.

One player a line, ``name,club,country,rating,seed,player,override`` in this order (only the name is required; the
others may be left off), or under a header row naming the columns in any order. ``player``: in a club, the roster's
player (his number) a name close to the roster's is, or ``new`` for a new person; ``override``: in a division open
by rating or points, the director's reason to enter a player outside its cap. A comma ends the name: "Nes, Lars"
is the player Nes of the club Lars, so the forms ask for "Lars Nes" (a name typed alone, outside a list, may be
written "Nes, Lars": tournaments/names.py finds it close to "Lars Nes").

:func:`read_players_list` reads the whole list and names every bad line, each with all its problems, so that the
caller refuses the list whole and stores nothing of it.
"""

from __future__ import annotations

import csv
import io
from typing import Any, NoReturn

from common.errors import ApplicationError, ErrorCode
from games.models import Player
from games.services import country_problem

#: The columns of a players' list without a header row, in this order.
CSV_COLUMNS = ("name", "club", "country", "rating", "seed", "player", "override")
MAX_IMPORT_ROWS = 5000
MAX_SEED = 100_000
#: The longest name a player has (games.models.Player.display_name).
MAX_NAME = 100
#: The longest reason a director may give for entering a player outside a division's cap.
MAX_OVERRIDE = 500


def read_players_list(text: str, *, nothing: str) -> tuple[list[dict[str, Any]], list[tuple[int, str]], int]:
    """The fields of each line of the list (``{}`` for a bad line), the bad lines (line number, every problem of
    the line) and the number of the first player's line (2 under a header row). A list that cannot be read at all
    (not CSV, a header without a name column, too long, empty) is refused, saying ``nothing`` (what was not done).

    :raises ApplicationError: INVALID_INPUT for a list that cannot be read at all.
    """
    try:
        lines = list(csv.reader(io.StringIO(text.strip())))
    except csv.Error as exc:
        raise _invalid(f"the list is not readable CSV ({exc}); {nothing}") from None
    named = {cell.strip().lower() for cell in lines[0] if cell.strip()} if lines else set()
    header = "name" in named or (bool(named) and named <= set(CSV_COLUMNS))  # a line of column names is a header
    if header and "name" not in named:
        raise _invalid(
            "the header row names no 'name' column: add one, or leave the header out and give each player as "
            f"name,club,country,rating,seed; {nothing}"
        )
    columns = [cell.strip().lower() for cell in lines[0]] if header else list(CSV_COLUMNS)
    first = 2 if header else 1
    rows = [dict(zip(columns, cells, strict=False)) for cells in lines[1 if header else 0 :] if cells]
    if len(rows) > MAX_IMPORT_ROWS:
        raise _invalid(f"a list holds at most {MAX_IMPORT_ROWS} players; split it, {nothing}")
    if not rows:
        raise _invalid("the list holds no player: one a line, name,club,country,rating,seed (only name is required)")
    parsed: list[dict[str, Any]] = []
    errors: list[tuple[int, str]] = []
    for line, row in enumerate(rows, start=first):
        try:
            parsed.append(read_player_row(row))
        except ValueError as exc:
            errors.append((line, str(exc)))
            parsed.append({})
    return parsed, errors, first


def refuse_lines(errors: list[tuple[int, str]], *, nothing: str = "") -> NoReturn:
    """Refuse a pasted list for its bad lines, each named with its line: the message says them all on one line
    (after ``nothing``, what was not done, when given), and ``lead`` and ``problems`` let a page list them one a
    line under the lead (tournaments/director/forms.py, ``ImportForm.refused``)."""
    problems = [f"line {line}: {problem}" for line, problem in sorted(errors, key=lambda e: e[0])]
    lead = "Fix these lines and send the list again:"
    said = f"{lead[0].lower()}{lead[1:]} {'; '.join(problems)}"
    message = f"{nothing}; {said}" if nothing else said
    raise ApplicationError(ErrorCode.INVALID_INPUT, message, lead=lead, problems=problems)


def _invalid(message: str) -> ApplicationError:
    return ApplicationError(ErrorCode.INVALID_INPUT, message)


def read_player_row(row: dict[str, Any]) -> dict[str, Any]:
    """The fields of one line; a ValueError naming every problem of the line (not only the first)."""
    problems: list[str] = []
    name = (row.get("name") or "").strip()
    if not name:
        problems.append("the name is empty")
    elif len(" ".join(name.split())) > MAX_NAME:
        problems.append(f"the name is longer than {MAX_NAME} characters")
    fields: dict[str, Any] = {"name": name, "club": (row.get("club") or "").strip()}
    fields["country"] = (row.get("country") or "").strip()
    country = country_problem(fields["country"])
    if country is not None:
        problems.append(country)
    if len(fields["club"]) > 100:
        problems.append("the club name is longer than 100 characters")
    for key, kind in (("rating", float), ("seed", int)):
        value = (row.get(key) or "").strip()
        if value:
            try:
                fields[key] = kind(value)
            except ValueError:
                problems.append(f"{key} {value!r} is not a number")
    if "seed" in fields and not 1 <= fields["seed"] <= MAX_SEED:
        problems.append(f"seed {fields['seed']} is outside 1-{MAX_SEED}")
    if "rating" in fields and not 0 < fields["rating"] < 10000:
        problems.append(f"rating {fields['rating']} is outside 1-9999")
    chosen = (row.get("player") or "").strip().lstrip("#")
    if chosen.lower() == "new":
        fields["new_player"] = True
    elif chosen.isdigit():
        fields["player"] = Player.objects.filter(pk=int(chosen)).first()
        if fields["player"] is None:
            problems.append(f"there is no player {chosen}")
    elif chosen:
        problems.append(f"player {chosen!r} is neither a player's number nor new")
    override = " ".join((row.get("override") or "").split())
    if len(override) > MAX_OVERRIDE:
        problems.append(f"the override's reason is longer than {MAX_OVERRIDE} characters")
    elif override:
        fields["cap_override"] = override
    if problems:
        raise ValueError(", ".join(problems))
    return fields
