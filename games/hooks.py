"""The contract between games/ and the apps built on it: every hook another app plugs into games/, in one place.

games/ never imports tournaments/ (docs/ARCHITECTURE.md, "Layers"): what tournaments/ adds to matches (event
directors, the
guard on corrections, its block on the players' entry pages) and what it hears from them (a match finished, a
result changed) goes through what is declared here. ``TournamentsConfig.ready`` plugs into it; games/ reads the
lists and sends the signals, and imports them from here only.

Registries (appended to once, at start-up, through the ``register_*`` functions):

- :data:`DIRECTOR_CHECKS`: ``(user, match) -> bool``, whether a user directs a match (besides staff and the
  match's creator). tournaments/: the directors of the event whose pairing made the match.
- :data:`DIRECTED_MATCHES`: ``user -> Q``, the private matches a user directs, as a filter of matches (the list
  counterpart of the checks, for the lists of matches a user may read).
- :data:`HIDDEN_PLAYERS`: ``user -> Q``, the players a user may not see, as a filter of players (the player lists
  and pages exclude them). tournaments/: players registered only in private events the user may not see.
- :data:`CORRECTION_GUARDS`: ``(match, override) -> None``, run before a correction changes the result of a closed
  match, inside the correction's transaction with the match row locked; each may refuse by raising
  ``ApplicationError``. tournaments/: refuses once a later match that depends on the result has started, unless the
  director overrides.
- :data:`TAKE_BACK_GUARDS`: ``(match, side) -> None``, run before a player takes back his last entry or asks for a
  correction; each may refuse by raising ``ApplicationError``. tournaments/: refuses once the result is confirmed.
- :data:`PANELS`: :class:`Panel` blocks shown on every player's entry page, in order. tournaments/: confirm or
  dispute a scoresheet result, and a link to the player's next match.
- :data:`PLAYER_SECTIONS`: ``(request, player) -> HTML or None``, blocks shown on a player's page above his PR.
  tournaments/: his events and places, his season points, his rating history as a chart.

And one writer: :data:`RESULT_WRITERS`: ``match -> None``, run at the end of every write that changes a match's
result (it ended, was forfeited, voided, reopened or corrected), inside that write's transaction, the match row
locked and written. Each may write rows of its own app that show the result (never a lock taken before the
match's in the lock order: a writer locks only its own rows, and skips one another transaction holds).
tournaments/: the match's pairing shows the result at once, its follow-up marked due.

Signals, sent after the transaction that caused them commits, with ``sender=Match`` and ``match_id``:

- :data:`match_finished`: a match ended (won, forfeited or voided); ``imported=True`` when it came finished from a
  match log (``import_match``), then with ``attached`` saying whether the import attached it to anything
  (:data:`IMPORT_TARGETS`): a match just imported has no analysis yet and belongs to no pairing;
- :data:`match_result_changed`: a director's correction changed a result that was already final (a finished match
  reopened or its result replaced);
- :data:`game_finished`: a game of a match recorded move by move ended and the match goes on.

And :data:`GAME_ANALYSIS_CHECKS`: ``match -> bool``, whether each game of a match is analysed as it ends.
tournaments/: the division's "analyse each game" setting. :data:`IMPORT_ANALYSIS_CHECKS`: ``match -> bool``, whether
a match imported from a match log is analysed as it is imported (besides settings.ANALYSIS_IMPORTED).
tournaments/: the "analyse imported matches" setting of the event the match was imported into.

:data:`MATCH_EVENTS`: ``(user, match ids) -> {match id: EventLink}``, the event each match was played in or imported
into, as ``user`` may see it (the player's page names it by each match). tournaments/: its events.

:data:`IMPORT_TARGETS`: ``(slug, actor) -> attach or None``, the event an import names (``import_matches --event``,
the API's import with ``event``): a callable ``match -> None`` that attaches an imported match to it, called inside
the import's transaction, or None when there is no such event (or none the actor may see); it raises
``ApplicationError`` when the actor may not import into it. tournaments/: its events, for their directors.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import django.dispatch

if TYPE_CHECKING:
    from django.db.models import Q
    from django.http import HttpRequest

    from games.models import Match

# -- who directs a match -------------------------------------------------------------------------------------------

#: Callables (user, match) -> bool that say whether a user directs a match.
DIRECTOR_CHECKS: list[Callable[[Any, Match], bool]] = []

#: Callables user -> Q naming more private matches a user directs (the list counterpart of DIRECTOR_CHECKS).
DIRECTED_MATCHES: list[Callable[[Any], Q]] = []


def register_director_check(check: Callable[[Any, Match], bool]) -> None:
    if check not in DIRECTOR_CHECKS:
        DIRECTOR_CHECKS.append(check)


def register_directed_matches(directed: Callable[[Any], Q]) -> None:
    if directed not in DIRECTED_MATCHES:
        DIRECTED_MATCHES.append(directed)


# -- who may see a player -----------------------------------------------------------------------------------------

#: Callables user -> Q naming the players ``user`` may not see (each is excluded from the players' reads).
HIDDEN_PLAYERS: list[Callable[[Any], Q]] = []


def register_hidden_players(hidden: Callable[[Any], Q]) -> None:
    if hidden not in HIDDEN_PLAYERS:
        HIDDEN_PLAYERS.append(hidden)


# -- corrections ---------------------------------------------------------------------------------------------------

#: Callables (match, override) run before a correction changes the result of a closed match; each may refuse by
#: raising ApplicationError. They run inside the correction's transaction, match row locked.
CORRECTION_GUARDS: list[Callable[[Match, bool], None]] = []

#: Callables (match, side) run before a player takes back his last entry or asks for a correction
#: (games.services.take_back, request_correction; the entry page offers neither where one refuses); each may refuse
#: by raising ApplicationError (tournaments/: once the result is confirmed). Inside the service's transaction, match
#: row locked.
TAKE_BACK_GUARDS: list[Callable[[Match, int], None]] = []


def register_take_back_guard(guard: Callable[[Match, int], None]) -> None:
    if guard not in TAKE_BACK_GUARDS:
        TAKE_BACK_GUARDS.append(guard)


def register_correction_guard(guard: Callable[[Match, bool], None]) -> None:
    if guard not in CORRECTION_GUARDS:
        CORRECTION_GUARDS.append(guard)


# -- the players' entry pages --------------------------------------------------------------------------------------


def _unversioned(match: Match) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Panel:
    """A block shown on the entry page, below the forms.

    ``render(request, match, sides)`` returns its HTML (escaped by its own template) or None to show nothing;
    ``sides`` are the sides the visitor holds. ``version(match)`` says what the block shows depends on beyond the
    match (it goes into the live part's ETag), or None when the block will not change any more: the page keeps
    polling a closed match while some panel's version is not None (a result waiting for a confirmation).
    """

    render: Callable[[HttpRequest, Match, frozenset[int]], str | None]
    version: Callable[[Match], str | None] = _unversioned


#: The panels shown on every entry page, in order.
PANELS: list[Panel] = []


def register_panel(panel: Panel) -> None:
    if panel not in PANELS:
        PANELS.append(panel)


# -- the player's page ---------------------------------------------------------------------------------------------

#: Callables (request, player) -> HTML or None: blocks shown on a player's page above his PR, in order (each escaped
#: by its own template). tournaments/: his events and places, season points, rating history.
PLAYER_SECTIONS: list[Callable[[HttpRequest, Any], str | None]] = []


def register_player_section(section: Callable[[HttpRequest, Any], str | None]) -> None:
    if section not in PLAYER_SECTIONS:
        PLAYER_SECTIONS.append(section)


# -- analysis ------------------------------------------------------------------------------------------------------

#: Callables match -> bool: whether each game of the match is analysed as it ends (not only the finished match).
#: tournaments/: the division's "analyse each game" setting.
GAME_ANALYSIS_CHECKS: list[Callable[[Match], bool]] = []


def register_game_analysis_check(check: Callable[[Match], bool]) -> None:
    if check not in GAME_ANALYSIS_CHECKS:
        GAME_ANALYSIS_CHECKS.append(check)


#: Callables match -> bool: whether a match imported from a match log is analysed as it is imported.
#: tournaments/: the "analyse imported matches" setting of the event it was imported into.
IMPORT_ANALYSIS_CHECKS: list[Callable[[Match], bool]] = []


def register_import_analysis_check(check: Callable[[Match], bool]) -> None:
    if check not in IMPORT_ANALYSIS_CHECKS:
        IMPORT_ANALYSIS_CHECKS.append(check)


# -- the events matches belong to ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventLink:
    """Where a match was played: the event's name and page, and the division's name ("" for an imported match),
    with the division's page, and the match's round as the division names it and its page (for the match page's
    breadcrumb), what the event says of its result beyond the match's own status ("waiting for the opponent's
    confirmation", "disputed: a director decides"), and where in the room it is played ("At Table 4", "Played at
    Table 4"; "" where the venue has no tables)."""

    name: str
    url: str
    division: str = ""
    division_url: str = ""
    round: str = ""
    round_url: str = ""
    note: str = ""
    table: str = ""


#: Callables (user, match ids) -> {match id: EventLink}: the event of each match ``user`` may see (a match of none
#: is left out).
MATCH_EVENTS: list[Callable[[Any, Collection[int]], dict[int, EventLink]]] = []


def register_match_events(events: Callable[[Any, Collection[int]], dict[int, EventLink]]) -> None:
    if events not in MATCH_EVENTS:
        MATCH_EVENTS.append(events)


def events_of_matches(user: Any, match_ids: Collection[int]) -> dict[int, EventLink]:
    """The event of each of ``match_ids`` that has one ``user`` may see, by match id."""
    found: dict[int, EventLink] = {}
    for events in MATCH_EVENTS:
        found.update(events(user, match_ids))
    return found


# -- imports into an event -----------------------------------------------------------------------------------------

#: Callables (slug, actor) -> (match -> None) or None: what attaches an imported match to the event named ``slug``
#: (called inside the import's transaction, before the match's signals), None when there is no such event the
#: actor may see; each raises ApplicationError when the actor may not import into the event.
IMPORT_TARGETS: list[Callable[[str, Any], Callable[[Match], None] | None]] = []


def register_import_target(target: Callable[[str, Any], Callable[[Match], None] | None]) -> None:
    if target not in IMPORT_TARGETS:
        IMPORT_TARGETS.append(target)


def import_target(slug: str, actor: Any) -> Callable[[Match], None] | None:
    """What attaches a match ``actor`` imports (common.actor.Actor; SYSTEM for the command line) to the event
    ``slug``, or None when no app knows such an event.

    :raises ApplicationError: the actor may not import into the event (an app's refusal, with its reason).
    """
    for target in IMPORT_TARGETS:
        attach = target(slug, actor)
        if attach is not None:
            return attach
    return None


# -- the result, in the same transaction ---------------------------------------------------------------------------

#: Callables match -> None run inside the transaction that changed the match's result, its row locked and written
#: (before the signals below, which follow its commit).
RESULT_WRITERS: list[Callable[[Match], None]] = []


def register_result_writer(writer: Callable[[Match], None]) -> None:
    if writer not in RESULT_WRITERS:
        RESULT_WRITERS.append(writer)


# -- signals -------------------------------------------------------------------------------------------------------

#: A match ended (won, forfeited or voided); sent after the commit with ``match_id``.
match_finished = django.dispatch.Signal()
#: A director's correction changed a result that was already final; sent after the commit with ``match_id``.
match_result_changed = django.dispatch.Signal()
#: A game of a match recorded move by move ended and the match goes on; sent after the commit with ``match_id``.
game_finished = django.dispatch.Signal()
