"""A club's director puts players on its roster: one at a time or from a pasted list, in the format a division's
registration from a list reads (tournaments/services/players_list.py).

Each name is looked up on the roster as a registration in a club's event looks it up (tournaments/names.py,
:func:`~tournaments.names.roster_matches`):

- a name written exactly as a roster player's (spaces aside) is that player: reported as on the roster already,
  never added twice;
- a name close to a roster player's (case, accents, a typo, an initial, the other order) is never taken silently:
  it is refused with ``player_to_choose`` and the candidates, for the director to say which player it is (``choice``:
  his number; reported as on the roster already) or that it is a new person (``new``);
- any other name is a new player, who joins the roster with the club and country given.

All or nothing: a list with a bad line (every problem of every line is named) or an unsettled close name adds
nobody. The roster is read once, whatever its size, under the club's row lock, so two directors adding one new
name at once make one record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import ngettext

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from games.services import create_player
from tournaments.access import check_directs_club
from tournaments.models import Club
from tournaments.names import roster_matches, spaced
from tournaments.services.players_list import read_player_row, read_players_list, refuse_lines

#: The columns of the event's list that a roster does not keep, and why.
_NOT_KEPT = {
    "rating": "a roster has no declared ratings (the club's rating list counts them from the matches): leave the "
    "rating out",
    "seed": "a roster has no seeds (they are given in a division): leave the seed out",
    "cap_override": "a roster has no cap to override: leave the override out",
}


@dataclass(frozen=True)
class OnRoster:
    """A line whose player is on the roster already: the name as given and the roster's player it is."""

    name: str
    player: Player
    chosen: bool  # the director said so ("Who is it?"), the name not being exactly his


@dataclass(frozen=True)
class RosterReport:
    """What a roster addition did: the new players, who joined it, and the lines that were on it already."""

    added: list[Player] = field(default_factory=list)
    already: list[OnRoster] = field(default_factory=list)


def add_roster_player(
    club: Club, *, actor: Actor, name: str, club_text: str = "", country: str = "", choice: str = ""
) -> RosterReport:
    """Put one player on the roster (see the module): ``choice`` answers "Who is it?" for a name close to the
    roster's, the roster player's number or ``new``.

    :raises ApplicationError: INVALID_INPUT naming what is wrong; PLAYER_TO_CHOOSE with ``candidates``.
    """
    check_directs_club(actor, club)
    try:
        fields = read_player_row({"name": name, "club": club_text, "country": country, "player": choice})
    except ValueError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{exc}; nothing was added") from None
    return _put_on_roster(club, [fields], first=1, one=True)


def import_roster(club: Club, *, actor: Actor, text: str, choices: Mapping[int, str] | None = None) -> RosterReport:
    """Put the players of a pasted list on the roster (see the module), all or nothing. ``choices``: "Who is it?"
    answered for lines of the list (line number: the roster player's number, or ``new``), as a ``player`` column
    says it.

    :raises ApplicationError: INVALID_INPUT naming every bad line; PLAYER_TO_CHOOSE with ``lines``, each with its
        ``candidates``.
    """
    check_directs_club(actor, club)
    parsed, errors, first = read_players_list(text, nothing="nothing was added")
    for line, choice in (choices or {}).items():
        if first <= line < first + len(parsed) and parsed[line - first]:
            parsed[line - first].pop("player", None)
            parsed[line - first].pop("new_player", None)
            parsed[line - first]["choice"] = choice
    errors += _list_problems(parsed, first)
    if errors:
        _refuse(errors, one=False)
    return _put_on_roster(club, parsed, first=first, one=False)


def _list_problems(parsed: list[dict[str, Any]], first: int) -> list[tuple[int, str]]:
    """The lines that give what a roster does not keep, or a name an earlier line of the list gives."""
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for line, fields in enumerate(parsed, start=first):
        if not fields:
            continue  # refused already
        problems += [(line, why) for key, why in _NOT_KEPT.items() if key in fields]
        key = spaced(fields["name"]).casefold()
        if key in seen:
            problems.append((line, f"{spaced(fields['name'])} is also on line {seen[key]} of this list: leave one out"))
        seen.setdefault(key, line)
    return problems


def _refuse(errors: list[tuple[int, str]], *, one: bool) -> None:
    if one:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{errors[0][1]}; nothing was added")
    refuse_lines(errors, nothing="nothing was added")


def _put_on_roster(club: Club, parsed: list[dict[str, Any]], *, first: int, one: bool) -> RosterReport:
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        roster = list(club.players.values_list("pk", "display_name"))
        on_roster = {pk for pk, _ in roster}
        report = RosterReport()
        errors: list[tuple[int, str]] = []
        unsure: list[tuple[int, str, list[int]]] = []
        new: list[tuple[int, dict[str, Any]]] = []
        known: list[tuple[str, int, bool]] = []
        for line, fields in enumerate(parsed, start=first):
            outcome = _settle(club, roster, on_roster, fields)
            if isinstance(outcome, tuple):
                known.append(outcome)
            elif isinstance(outcome, str):
                errors.append((line, outcome))
            elif outcome:
                unsure.append((line, fields["name"], outcome))
            else:
                new.append((line, fields))
        if errors:
            _refuse(errors, one=one)
        if unsure:
            _ask_who(club, unsure, one=one)
        players = Player.objects.in_bulk([pk for _, pk, _ in known])
        report.already.extend(OnRoster(name, players[pk], chosen) for name, pk, chosen in known)
        for line, fields in new:
            report.added.append(_new_player(fields, line=line, one=one))
        club.players.add(*report.added)
    return report


def _chosen_pk(fields: dict[str, Any]) -> int | None:
    choice = str(fields.get("choice") or "")
    if choice.isdigit():
        return int(choice)
    player = fields.get("player")
    return player.pk if isinstance(player, Player) else None


def _settle(club: Club, roster: list[tuple[int, str]], on_roster: set[int], fields: dict[str, Any]) -> Any:
    """One line's outcome: the roster's player it is (the name, his number, whether the director chose him), a
    problem (a string), the roster players it may be (a list of their numbers, to choose from) or a new player (an
    empty list)."""
    name = spaced(fields["name"])
    pk = _chosen_pk(fields)
    if pk is not None:
        if pk not in on_roster:
            return f"player {pk} is not on {club.name}'s roster: choose one of the players offered, or a new player"
        return (name, pk, True)
    found = roster_matches(name, roster)
    if found.exact:
        return (name, found.exact[0], False)
    if fields.get("new_player") or fields.get("choice") == "new":
        return []
    return found.close


def _ask_who(club: Club, unsure: list[tuple[int, str, list[int]]], *, one: bool) -> None:
    """Refuse the names close to the roster's, each with its candidates (read in one statement)."""
    known = Player.objects.in_bulk({pk for _, _, close in unsure for pk in close})
    asked: list[tuple[int, str, list[Player]]] = [
        (line, spaced(name), sorted((known[pk] for pk in close), key=lambda p: (p.display_name, p.pk)))
        for line, name, close in unsure
    ]

    def offered(players: list[Player]) -> list[dict[str, Any]]:
        return [{"id": p.pk, "name": p.display_name, "label": p.label} for p in players]

    if one:
        _, name, players = asked[0]
        close = ngettext("close to a name on", "close to names on", len(players))
        raise ApplicationError(
            ErrorCode.PLAYER_TO_CHOOSE,
            f"{name!r} is {close} {club.name}'s roster: {'; '.join(p.label for p in players)}. Choose the "
            f"player it is, or add {name} as a new player",
            candidates=offered(players),
        )
    lead = (
        "Say who these players are (with the choices given for each line; in the list itself, in a player column: "
        "the roster player's number, or new for a new player), then send the list again:"
    )
    problems = [f"line {line}: {name!r} is close to {'; '.join(p.label for p in ps)}" for line, name, ps in asked]
    raise ApplicationError(
        ErrorCode.PLAYER_TO_CHOOSE,
        f"Nothing was added. {lead} {'; '.join(problems)}",
        lines=[{"line": line, "name": name, "candidates": offered(ps)} for line, name, ps in asked],
        lead=lead,
        problems=problems,
    )


def _new_player(fields: dict[str, Any], *, line: int, one: bool) -> Player:
    try:
        return create_player(display_name=fields["name"], club=fields["club"], country=fields["country"])
    except ApplicationError as exc:
        if one:
            raise
        raise ApplicationError(exc.code, f"nothing was added; line {line}: {exc.message}") from None
