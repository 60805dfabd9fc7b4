"""Fixtures of the security tests: one event with every kind of match a permission can depend on, the people of
the access matrix, and a snapshot of everything a request could write.

Set-up goes through the services (STYLE.md 4.7); the director ``dora`` and ``division_of`` come from
tests/conftest.py, and eager Celery is the tournaments tests' own (tests/tournaments/conftest.py), re-exported here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import Q

import games.services
from common.actor import SYSTEM, Actor
from games.access import new_entry_token, revoke_entry_token, token_text
from games.models import EntryToken, Match, Player
from tests.tournaments.api.support import enter_result
from tests.tournaments.conftest import eager_tasks  # noqa: F401 (an autouse fixture)
from tests.tournaments.services.support import play_out
from tournaments import services
from tournaments.models import Club, Division, Event, Pairing, PlayerMerge
from tournaments.selectors.playoffs import division_playoffs
from tournaments.services.payouts import set_payouts

#: The apps whose rows a request may write (plus the users and their API tokens).
WRITABLE_APPS = ("games", "tournaments", "auth", "authtoken")


def _models() -> list[Any]:
    return [
        model for label in WRITABLE_APPS for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]


def snapshot() -> dict[str, Any]:
    """Every row of every table a request could write (counts, ``updated_at``, each match's ``seq``, revocations
    and the many-to-many links are all in it): on PostgreSQL a digest per table in one query, elsewhere the rows."""
    models = _models()
    if connection.vendor != "postgresql":
        return {model._meta.label: list(model.objects.order_by("pk").values_list()) for model in models}
    quote = connection.ops.quote_name
    digests = " UNION ALL ".join(
        f"SELECT %s, count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t.{quote(model._meta.pk.column)}), ''))"
        f" FROM {quote(model._meta.db_table)} t"
        for model in models
    )
    with connection.cursor() as cursor:
        cursor.execute(digests, [model._meta.label for model in models])
        return {label: (count, digest) for label, count, digest in cursor.fetchall()}


def changed_tables(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return sorted(name for name in before if before[name] != after[name])


@dataclass
class World:
    """A public event "Club night" directed by dora (and cora), with:

    - ``moves``: a running 6-player Swiss, moves entered one by one. Its round 1 has three matches: ``live`` (the
      opening roll and a play are in: side 1 is to roll), ``fresh`` (not started) and ``other`` (whose entry link is
      the "link for another match").
    - ``sheet``: a running 2-player Swiss from scoresheets whose one match side 0 won and entered: it awaits the
      confirmation of side 1.
    - ``reg``: a 4-player Swiss still registering.
    - ``money``: a money session started by dora outside the event.
    - ``playoffs``: a finished 4-player Swiss whose tie over places paid differently has a playoff, whose match
      (``playoff``) side 0 won and entered from his link: it awaits the confirmation of side 1.
    - ``club``: a club directed by dora (the event is not one of its events), whose roster holds ``roster``
      ("Pia Ruud", "P. Ruud") and a record merged into another (``merge``: "O. Nes" into "Ola Nes").

    ``links[(match, side)]`` are live entry links, ``revoked[(match, side)]`` revoked ones.
    """

    event: Event
    moves: Division
    sheet: Division
    reg: Division
    pairings: dict[str, Pairing]
    matches: dict[str, Match]
    users: dict[str, Any]
    links: dict[tuple[str, int], EntryToken] = field(default_factory=dict)
    revoked: dict[tuple[str, int], EntryToken] = field(default_factory=dict)
    spare_link: EntryToken | None = None
    club: Club | None = None
    roster: list[Player] = field(default_factory=list)
    merge: PlayerMerge | None = None
    playoffs: Division | None = None

    def match(self, key: str) -> Match:
        return Match.objects.get(pk=self.matches[key].pk)

    def seq(self, key: str) -> int:
        return self.match(key).seq

    def link_text(self, key: str, side: int) -> str:
        return token_text(self.links[(key, side)])

    def revoked_text(self, key: str, side: int) -> str:
        return token_text(self.revoked[(key, side)])


def director_result(pairing: Pairing, director: Actor) -> None:
    """The director enters side 0's win of a 1-point scoresheet match, and the division is synced."""
    match = Match.objects.get(pk=pairing.match_id)
    games.services.record_game_result(match.pk, actor=director, winner=0, kind=1, expected_seq=match.seq)
    services.sync_division(pairing.division_id)


@pytest.fixture
def world(request: pytest.FixtureRequest, django_user_model: Any) -> World:
    dora: Any = request.getfixturevalue("director")
    as_dora: Actor = request.getfixturevalue("as_director")
    new_division: Callable[..., Division] = request.getfixturevalue("division_of")
    users = {
        "spectator": django_user_model.objects.create_user("stan", password=None),
        "other_director": django_user_model.objects.create_user("otto", password=None),
        "director": dora,
        "staff": django_user_model.objects.create_user("sam", password=None, is_staff=True),
        "co_director": django_user_model.objects.create_user("cora", password=None),
    }
    services.create_event(actor=Actor(user=users["other_director"]), name="Other club night")
    event = services.create_event(actor=as_dora, name="Club night")
    services.add_director(event, actor=as_dora, user=users["co_director"])

    moves = new_division("swiss", 6, event=event, entry_mode="moves", match_length=3, rounds_planned=2)
    moves = services.start_division(moves, actor=as_dora)
    by_table = {p.board: p for p in Pairing.objects.filter(division=moves, round__number=1).select_related("match")}
    live, fresh, other = by_table[1], by_table[2], by_table[3]
    seq = games.services.record_opening_roll(
        live.match_id, actor=SYSTEM, dice=(3, 1), expected_seq=live.match.seq
    ).match.seq
    games.services.record_play(live.match_id, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=seq)

    sheet = new_division("swiss", 2, event=event, entry_mode="scoresheet", match_length=1, rounds_planned=1)
    sheet = services.start_division(sheet, actor=as_dora)
    awaiting = enter_result(Pairing.objects.get(division=sheet), winner=0)
    assert awaiting.confirmation == Pairing.Confirmation.AWAITING and awaiting.confirmation_side == 1

    reg = new_division("swiss", 4, event=event)

    # A 4-player Swiss whose round 1 is over and round 2 paired: "earlier" is a round-1 match, "next" the round-2
    # pairing of its side-0 player (his next match, entered from "Your next match" by the phone holding his link).
    later = services.start_division(
        new_division("swiss", 4, event=event, entry_mode="scoresheet", match_length=1, rounds_planned=2), actor=as_dora
    )
    round_1 = list(Pairing.objects.filter(division=later).order_by("board"))
    for board in round_1:
        director_result(board, as_dora)
    services.pair_next_round(later, actor=as_dora)
    earlier = round_1[0]
    following = Pairing.objects.get(
        Q(entry_a=earlier.entry_a_id) | Q(entry_b=earlier.entry_a_id), division=later, round__number=2
    )
    money = games.services.start_match(
        player1=games.services.create_player(display_name="Mona"),
        player2=games.services.create_player(display_name="Nils"),
        length=0,
        created_by=dora,
    )
    pairings = {"live": live, "fresh": fresh, "other": other, "sheet": awaiting, "earlier": earlier, "next": following}
    matches = {key: Match.objects.get(pk=p.match_id) for key, p in pairings.items()}
    matches["money"] = money
    tied = services.start_division(
        new_division("swiss", 4, event=event, tiebreaks=[], entry_mode="scoresheet", match_length=1, rounds_planned=2),
        actor=as_dora,
    )
    set_payouts(tied, actor=as_dora, mode="amount", pool=None, ties="split", published=True,
                flights={"main": "60, 30, 10"})  # fmt: skip
    play_out(tied, as_dora)
    services.recompute_standings(tied.pk)
    tie = division_playoffs(Division.objects.get(pk=tied.pk)).ties[0].tie
    playoff = services.order_playoff(tied, actor=as_dora, entries=[int(p) for p in tie.players])
    played = Match.objects.get(pk=playoff.final_match_id)
    games.services.record_game_result(
        played.pk, actor=Actor(token=new_entry_token(played, 0)), winner=0, kind=1, expected_seq=played.seq
    )
    matches["playoff"] = Match.objects.get(pk=played.pk)
    # A round match of the division whose side 0 plays in the playoff and side 1 does not: "Enter this match" of
    # the playoff match is taken from its link.
    in_playoff = {played.player1_id, played.player2_id}
    matches["before-playoff"] = next(
        m
        for m in Match.objects.filter(pairing__division=tied).order_by("pk")
        if m.player1_id in in_playoff and m.player2_id not in in_playoff
    )
    found = World(event, moves, sheet, reg, pairings, matches, users)
    found.playoffs = Division.objects.get(pk=tied.pk)
    found.club = services.create_club(actor=as_dora, name="Oslo BK")
    services.create_season(
        found.club, actor=as_dora, name="Spring", starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 6, 30)
    )
    members = [
        services.add_to_roster(found.club, actor=as_dora, name=name, new_player=True)
        for name in ("Pia Ruud", "P. Ruud", "Ola Nes", "O. Nes")
    ]
    found.roster = members[:2]
    found.merge = services.merge_players(found.club, actor=as_dora, keep=members[2], fold=members[3])
    for key, match in matches.items():
        for side in (0, 1):
            found.links[(key, side)] = new_entry_token(match, side)
            revoked = new_entry_token(match, side)
            revoke_entry_token(revoked)
            found.revoked[(key, side)] = revoked
    found.spare_link = new_entry_token(matches["live"], 0)
    return found
