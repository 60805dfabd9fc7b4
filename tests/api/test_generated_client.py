"""The schema tested by the kind of client that uses it: openapi-python-client generates a client from the served
``/api/schema/``, every generated module imports, and a short day runs through it against a live server: players,
a match with an opening roll and a play (through entry links), an event with a Swiss division started, a result
entered from the scoresheet and confirmed, and the standings that count it."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from rest_framework.authtoken.models import Token

PACKAGE = "bgmatch_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture
def generated(live_server: Any, tmp_path: Path) -> Iterator[ModuleType]:
    """The client package generated from the live server's schema, importable for the test."""
    schema = httpx.get(f"{live_server.url}/api/schema/?format=json", timeout=60)
    assert schema.status_code == 200
    (tmp_path / "schema.json").write_text(schema.text)
    (tmp_path / "config.json").write_text(json.dumps({"post_hooks": [], "package_name_override": PACKAGE}))
    command = [str(GENERATOR), "generate", "--path", "schema.json", "--config", "config.json", "--meta", "none"]
    result = subprocess.run(
        [*command, "--output-path", PACKAGE, "--fail-on-warning"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def ok(answer: Any, status: int) -> Any:
    """The parsed body of an answer with the expected status."""
    assert answer.status_code == status, answer.content[:500]
    assert answer.parsed is not None
    return answer.parsed


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_runs_a_short_day(
    generated: ModuleType, live_server: Any, django_user_model: Any, eager_tasks: None
) -> None:
    for found in pkgutil.walk_packages(generated.__path__, PACKAGE + "."):
        importlib.import_module(found.name)  # every generated module imports (they did not: `Unset` undefined)

    m = importlib.import_module(f"{PACKAGE}.models")
    director = django_user_model.objects.create_user("dora", password=None, is_staff=True)
    timeout = httpx.Timeout(60)
    staff = generated.AuthenticatedClient(
        base_url=live_server.url,
        token=Token.objects.create(user=director).key,
        prefix="Token",
        timeout=timeout,
        raise_on_unexpected_status=True,
    )

    def phone(token: str) -> Any:
        return generated.Client(
            base_url=live_server.url,
            headers={"X-Entry-Token": token},
            timeout=timeout,
            raise_on_unexpected_status=True,
        )

    def entry_link(match_id: int, side: int) -> str:
        create = module("api.matches.matches_entry_links_create")
        link = ok(create.sync_detailed(match_id, client=staff, body=m.EntryLinkInputRequest(side=side)), 201)
        return link.token

    # Players and a match, played move by move through both sides' entry links.
    players = module("api.players.players_create")
    alice = ok(players.sync_detailed(client=staff, body=m.PlayerInputRequest(display_name="Alice Ames")), 201)
    bob = ok(players.sync_detailed(client=staff, body=m.PlayerInputRequest(display_name="Bob Berg")), 201)
    assert alice.contact == "" and bob.user is None  # staff fields, documented
    listed = ok(module("api.players.players_list").sync_detailed(client=staff, q="Ames"), 200)
    assert [p.display_name for p in listed.results] == ["Alice Ames"] and listed.results[0].contact == ""

    start = module("api.matches.matches_create")
    match = ok(
        start.sync_detailed(client=staff, body=m.MatchInputRequest(player1=alice.id, player2=bob.id, length=3)), 201
    )
    assert match.status == m.MatchStatusEnum.SCHEDULED
    act = module("api.matches.matches_actions_create")
    side0 = phone(entry_link(match.id, 0))
    opening = m.OpeningRollInputRequest(kind=m.RecordableKindEnum.OPENING_ROLL, dice=[3, 1], expected_seq=0)
    rolled = ok(act.sync_detailed(match.id, client=side0, body=opening), 201)
    assert rolled.state.on_roll == 0 and m.RecordableKindEnum.PLAY in rolled.state.legal_actions
    assert "8/5 6/5" in rolled.state.legal_plays
    play = m.PlayInputRequest(kind=m.RecordableKindEnum.PLAY, side=0, play="8/5 6/5", expected_seq=rolled.state.seq)
    played = ok(act.sync_detailed(match.id, client=side0, body=play), 201)
    assert played.action.kind == m.ActionKindEnum.PLAY and played.state.on_roll == 1
    stale = act.sync_detailed(match.id, client=side0, body=play)
    assert stale.status_code == 409 and stale.parsed.code == m.ErrorCodeEnum.STALE_SEQUENCE
    log = ok(module("api.matches.matches_log_list").sync_detailed(match.id, client=staff), 200)
    assert [row.kind for row in log.results] == [m.ActionKindEnum.OPENING_ROLL, m.ActionKindEnum.PLAY]

    # An event (its slug left to the default) with a Swiss division of four, started.
    event = ok(
        module("api.events.events_create").sync_detailed(client=staff, body=m.EventInputRequest(name="Club night")), 201
    )
    assert event.slug == "club-night" and event.status == m.EventStatusEnum.REGISTRATION
    settings = m.DivisionInputRequest(
        name="Open",
        format_=m.FormatEnum.SWISS,
        rounds_planned=1,
        match_length=1,
        entry_mode=m.EntryModeEnum.SCORESHEET,
        tiebreaks=[m.TiebreaksEnum.BUCHHOLZ],
    )
    division = ok(
        module("api.events.events_divisions_create").sync_detailed(event.slug, client=staff, body=settings), 201
    )
    assert division.tiebreaks == [m.TiebreaksEnum.BUCHHOLZ]
    enter = module("api.events.events_divisions_entries_create")
    for name in ("P1", "P2", "P3"):
        ok(enter.sync_detailed(event.slug, division.slug, client=staff, body=m.EntryInputRequest(name=name)), 201)
    ok(enter.sync_detailed(event.slug, division.slug, client=staff, body=m.EntryInputRequest(player=alice.id)), 201)
    begin = module("api.events.events_divisions_start_create")
    started = ok(begin.sync_detailed(event.slug, division.slug, client=staff, body=m.StartInputRequest()), 200)
    assert started.status == m.DivisionStatusEnum.RUNNING

    # A result from the scoresheet by the winner's entry link, confirmed by the loser's; then the standings.
    pairings = module("api.events.events_divisions_pairings_list")
    board = ok(pairings.sync_detailed(event.slug, division.slug, client=staff, round_=1), 200).results[0]
    assert board.status == m.PairingStatusEnum.READY and board.match is not None
    result = m.GameResultInputRequest(
        kind=m.RecordableKindEnum.GAME_RESULT,
        winner=0,
        result=m.GameResultInputRequestResultType0.SINGLE,
        expected_seq=0,
    )
    ok(act.sync_detailed(board.match, client=phone(entry_link(board.match, 0)), body=result), 201)
    confirm = module("api.pairings.pairings_confirm_create")
    confirmed = ok(confirm.sync_detailed(board.id, client=phone(entry_link(board.match, 1))), 200)
    assert confirmed.status == m.PairingStatusEnum.FINISHED and confirmed.winner == board.a.entry

    standings = module("api.events.events_divisions_standings_retrieve")
    deadline = time.monotonic() + 120  # generous on a loaded machine; a pass goes on as soon as they are current
    table = ok(standings.sync_detailed(event.slug, division.slug, client=staff), 200)
    while table.standings_status != m.StandingsStatusEnum.CURRENT and time.monotonic() < deadline:
        time.sleep(0.2)
        table = ok(standings.sync_detailed(event.slug, division.slug, client=staff), 200)
    assert table.standings_status == m.StandingsStatusEnum.CURRENT
    winner = next(row for row in table.rows if row.entry == board.a.entry)
    assert winner.wins == 1 and winner.rank == 1
