"""One truth for a result: the pairing shows its match's result in the transaction that records it.

A broker is set and no worker runs (the broker refuses connections: nothing takes the follow-up, and the request
must not wait for one). A match ended through the API by a forfeit or by its last play, or from a phone's
scoresheet, shows on its pairing at once (finished, its winner, its score, or waiting for the opponent's
confirmation); what depends on the result (the next slot, the standings) follows in the follow-up, which the
pairing marks due and ``reconcile`` finds. A sync's own calls (a withdrawn player's forfeit) queue no follow-up.
"""

from __future__ import annotations

import random
import socket
from typing import Any

import pytest
from rest_framework.test import APIClient

import games.services
from common.actor import SYSTEM, Actor
from engine.actions import Move
from engine.game import Phase
from games.access import new_entry_token, token_text
from games.engine_bridge import load_state
from games.models import Match
from tests.faults.conftest import use_broker
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.core import (
    FINISHED_AS_MATCH,
    OPEN_AS_MATCH,
    PairingState,
    held_outcome,
    outcome_of,
    pairing_state,
)
from tournaments.models import Division, Entry, Pairing
from tournaments.services.sync import divisions_behind_their_matches

Followup = Pairing.Followup


def refused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker is set (tasks are not run eagerly) and nothing consumes it: it refuses every connection."""
    use_broker(monkeypatch, f"redis://127.0.0.1:{refused_port()}/0")


@pytest.fixture
def director(django_user_model: Any) -> Actor:
    return Actor(user=django_user_model.objects.create_user(username="dora", password=None))


def knockout(director: Actor, entry_mode: str, length: int = 1) -> Division:
    event = services.create_event(actor=director, name="One truth cup")
    settings = services.DivisionSettings(name="Open", format="single", entry_mode=entry_mode, match_length=length)
    division = services.create_division(event, actor=director, settings=settings)
    for i in range(1, 5):
        services.register_player(division, actor=director, name=f"P{i}", rating=2000 - 10 * i)
    return services.start_division(division, actor=director)


def first_semi(division: Division) -> Pairing:
    return Pairing.objects.select_related("match").filter(division=division, match__isnull=False).order_by("key")[0]


def final(division: Division) -> Pairing:
    return Pairing.objects.get(division=division, key="main-2-0")


def director_api(director: Actor) -> APIClient:
    client = APIClient()
    client.force_login(director.user)
    return client


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_through_the_api_shows_on_its_pairing_at_once_with_no_worker(
    director: Actor, no_worker: None
) -> None:
    division = knockout(director, "scoresheet", length=3)
    semi = first_semi(division)
    response = director_api(director).post(
        f"/api/matches/{semi.match_id}/forfeit/",
        {"loser_side": 1, "reason": "no-show", "expected_seq": 0},
        format="json",
    )
    assert response.status_code == 201, response.json()

    semi = Pairing.objects.select_related("match").get(pk=semi.pk)
    assert (semi.status, semi.winner_id, semi.score_a, semi.score_b) == (Pairing.Status.FINISHED, semi.entry_a_id, 3, 0)
    assert semi.confirmation == Pairing.Confirmation.NOT_NEEDED
    assert pairing_state(semi) == PairingState.FINISHED
    assert semi.followup == Followup.RESULT, "what depends on it is still to follow: the pairing says so"
    assert final(division).status == Pairing.Status.WAITING, "the next slot waits for the follow-up"
    assert divisions_behind_their_matches() == [division.pk], "reconcile finds the follow-up that never ran"

    url = f"/api/events/{division.event.slug}/divisions/{division.slug}/pairings/"
    api = APIClient().get(url)
    assert api.status_code == 200, api.content
    rows = api.json()["results"] if isinstance(api.json(), dict) else api.json()
    row = next(row for row in rows if row["id"] == semi.pk)
    assert (row["status"], row["winner"], row["score"]) == ("finished", semi.entry_a_id, [3, 0])

    services.sync_division(division.pk)  # the follow-up, when a worker runs it
    semi.refresh_from_db()
    assert semi.followup == Followup.NONE
    assert final(division).entry_a_id == semi.entry_a_id
    assert divisions_behind_their_matches() == []


def play_to_the_last_play(match: Match, actors: dict[int, Actor], rng: random.Random) -> tuple[int, str, int]:
    """Play the 1-point match through the services up to the play that ends it: (side, play, seq) of that play."""
    for _ in range(2000):
        match = Match.objects.select_related("player1", "player2").get(pk=match.pk)
        state = load_state(match)
        game = state.game
        if game.phase is Phase.OPENING:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            while dice[0] == dice[1]:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            games.services.record_opening_roll(match.pk, actor=SYSTEM, dice=dice, expected_seq=match.seq)
        elif game.phase is Phase.ROLL:
            side = game.on_roll
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            games.services.record_roll(match.pk, actor=actors[side], side=side, dice=dice, expected_seq=match.seq)
        elif game.phase is Phase.MOVE:
            side = game.on_roll
            plays = sorted(game.legal_plays(), key=str)
            play = rng.choice(plays) if plays else None
            text = str(play) if play is not None else ""
            if play is not None and state.apply(Move(side, play)).is_over:
                return side, text, match.seq
            games.services.record_play(match.pk, actor=actors[side], side=side, play=text, expected_seq=match.seq)
        else:
            raise AssertionError(f"unexpected phase {game.phase}")
    raise AssertionError("the match did not end")


def at_the_last_play(director: Actor) -> tuple[Division, Pairing, str, dict[str, Any]]:
    """A moves knockout whose first semi-final is played through the services up to its last play: the division,
    that pairing, the entry link of the side to play and the API's body of the play that ends the match."""
    division = knockout(director, "moves")
    semi = first_semi(division)
    assert semi.match is not None
    tokens = {side: new_entry_token(semi.match, side) for side in (0, 1)}
    actors = {side: Actor(token=token) for side, token in tokens.items()}
    side, play, seq = play_to_the_last_play(semi.match, actors, random.Random(7))
    return division, semi, token_text(tokens[side]), {"kind": "play", "side": side, "play": play, "expected_seq": seq}


@pytest.mark.django_db(transaction=True)
def test_a_last_play_through_the_api_shows_on_its_pairing_at_once_with_no_worker(
    director: Actor, no_worker: None
) -> None:
    _division, semi, token, body = at_the_last_play(director)
    side = body["side"]
    phone = APIClient(HTTP_X_ENTRY_TOKEN=token)
    response = phone.post(f"/api/matches/{semi.match_id}/actions/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["state"]["status"] == "finished"

    semi = Pairing.objects.select_related("match").get(pk=semi.pk)
    winner = semi.entry_a_id if side == 0 else semi.entry_b_id
    assert (semi.status, semi.winner_id) == (Pairing.Status.FINISHED, winner)
    assert (semi.score_a, semi.score_b) == (semi.match.score1, semi.match.score2)
    assert pairing_state(semi) == PairingState.FINISHED
    assert semi.followup == Followup.RESULT


@pytest.mark.django_db(transaction=True)
def test_a_phone_ending_a_scoresheet_match_is_told_it_waits_for_the_opponents_confirmation_at_once(
    director: Actor, no_worker: None
) -> None:
    division = knockout(director, "scoresheet")
    semi = first_semi(division)
    assert semi.match is not None
    phone = Phone(semi.match, 0)
    response = phone.post("game-result", winner=0, result=1, cube=1)
    assert response.status_code == 303, response.content

    html = phone.page()
    opponent = semi.match.player2.display_name
    assert f"The result waits for {opponent}&#x27;s confirmation." in html or (
        f"The result waits for {opponent}'s confirmation." in html
    )
    semi.refresh_from_db()
    assert (semi.status, semi.confirmation, semi.confirmation_side) == (
        Pairing.Status.FINISHED,
        Pairing.Confirmation.AWAITING,
        1,
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The follow-ups enqueued (the division of each), instead of sending them."""
    from tournaments.services import followup

    enqueued: list[int] = []
    monkeypatch.setattr(followup, "_send", enqueued.append)
    return enqueued


def semis(division: Division) -> list[Pairing]:
    return list(Pairing.objects.select_related("match").filter(division=division, match__isnull=False).order_by("key"))


@pytest.mark.django_db(transaction=True)
def test_a_sync_queues_no_followup_from_its_own_calls(director: Actor, sent: list[int]) -> None:
    """The final is made for a player who withdrew after winning his semi-final: the sync forfeits it (a games
    service, whose result the sync takes itself), and that forfeit enqueues no follow-up of its own."""
    division = knockout(director, "scoresheet")
    first, second = semis(division)
    assert second.entry_a_id is not None and second.match_id is not None and first.match_id is not None
    games.services.forfeit_match(second.match_id, actor=director, loser_side=1, reason="no-show")
    services.sync_division(division.pk)
    services.withdraw_entry(Entry.objects.get(pk=second.entry_a_id), actor=director, reason="went home")
    games.services.forfeit_match(first.match_id, actor=director, loser_side=1, reason="no-show")
    assert final(division).status == Pairing.Status.WAITING
    sent.clear()

    services.sync_division(division.pk)  # the follow-up: makes the final and forfeits it to the player still in

    the_final = final(division)
    assert (the_final.status, the_final.winner_id) == (Pairing.Status.FINISHED, first.entry_a_id)
    assert the_final.decision == Pairing.Decision.FORFEIT_WITHDRAWAL
    assert sent == [], "the forfeit the sync made queued no follow-up of its own"


@pytest.mark.django_db
def test_outcome_of_and_its_query_twins_agree(director: Actor) -> None:
    """Each pairing holds what :func:`outcome_of` says exactly when its query twins say so."""
    division = knockout(director, "scoresheet", length=3)
    semis = list(Pairing.objects.select_related("match").filter(division=division, match__isnull=False))
    games.services.record_game_result(
        semis[0].match_id, actor=director, winner=0, kind=1, cube_value=4, expected_seq=0
    )  # 4-0
    games.services.record_game_result(
        semis[1].match_id, actor=director, winner=1, kind=1, cube_value=1, expected_seq=0
    )  # 0-1
    for pairing in Pairing.objects.select_related("match").filter(division=division, match__isnull=False):
        holds = outcome_of(pairing, pairing.match) == held_outcome(pairing)
        twin = Pairing.objects.filter(pk=pairing.pk).filter(FINISHED_AS_MATCH | OPEN_AS_MATCH).exists()
        assert holds == twin, (pairing.key, outcome_of(pairing, pairing.match), pairing.status)


@pytest.fixture
def after_commit(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SQL statements run by the callbacks the request leaves for after its commit."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    statements: list[str] = []
    on_commit = transaction.on_commit

    def captured(func: Any, using: Any = None, robust: bool = False) -> None:
        def run() -> None:
            with CaptureQueriesContext(connection) as queries:
                func()
            statements.extend(query["sql"] for query in queries.captured_queries)

        on_commit(run, using=using, robust=robust)

    monkeypatch.setattr(transaction, "on_commit", captured)
    return statements


@pytest.mark.django_db(transaction=True)
def test_the_request_that_ends_a_match_writes_everything_before_its_commit(
    director: Actor, sent: list[int], after_commit: list[str], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last play's request: its pairing flagged (the division's standings read pending from it) and the
    analysis asked for in the play's own transaction; after the commit only the follow-up is handed to the broker,
    and no statement runs."""
    from games.analysis import service as analysis
    from games.models import MatchAnalysis

    asked: list[tuple[int, int]] = []
    settings.ANALYSIS_AUTO = True
    queue = type("Queue", (), {"delay": staticmethod(lambda match_id, plies: asked.append((match_id, plies)))})
    monkeypatch.setattr(analysis, "_plugged", [queue()])
    division, semi, token, body = at_the_last_play(director)
    sent.clear()
    after_commit.clear()

    phone = APIClient(HTTP_X_ENTRY_TOKEN=token)
    response = phone.post(f"/api/matches/{semi.match_id}/actions/", body, format="json")
    assert response.status_code == 201, response.json()

    assert after_commit == [], "nothing the player waits for runs after the commit"
    assert sent == [division.pk] and asked == [(semi.match_id, settings.ANALYSIS_PLIES)]
    assert MatchAnalysis.objects.get(match_id=semi.match_id).status == MatchAnalysis.Status.PENDING
    assert Division.objects.get(pk=division.pk).standings_state == Division.Work.PENDING
    standings = APIClient().get(f"/api/events/{division.event.slug}/divisions/{division.slug}/standings/").json()
    assert standings["standings_status"] == "pending"
    assert divisions_behind_their_matches() == [division.pk], "reconcile finds it if the follow-up is lost"


def api_statements(client: APIClient, url: str, body: dict[str, Any]) -> list[str]:
    """The SQL statements of one request (``BEGIN``, ``COMMIT`` and savepoints included: each is a round trip)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, body, format="json")
    assert response.status_code == 201, response.json()
    return [query["sql"] for query in captured.captured_queries]


@pytest.mark.django_db(transaction=True)
def test_the_action_that_ends_a_match_costs_six_statements_more_than_another(
    director: Actor, sent: list[int], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last play's request against an opening play's, each through the API (ANALYSIS_AUTO on): the ending one
    also writes the game's result, asks for the analysis (one upsert in a savepoint, on the match the play has
    locked) and shows the result on the pairing (its row locked, found by the match alone, and written). It was 22
    statements against 7: the analysis request re-locked the match, counted its plays and ran a get-or-create and an
    update, in three nested savepoints; the pairing's reason was read apart. The pairing's lock joined its round,
    division and event (Pairing's ordering, for a row found by a unique key)."""
    from games.analysis import service as analysis

    asked: list[tuple[int, int]] = []
    settings.ANALYSIS_AUTO = True
    queue = type("Queue", (), {"delay": staticmethod(lambda match_id, plies: asked.append((match_id, plies)))})
    monkeypatch.setattr(analysis, "_plugged", [queue()])
    division = knockout(director, "moves")
    ending, other = semis(division)
    assert ending.match is not None and other.match is not None
    tokens = {(m.pk, side): new_entry_token(m, side) for m in (ending.match, other.match) for side in (0, 1)}

    recorded = games.services.record_opening_roll(other.match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    opening = load_state(Match.objects.get(pk=other.match.pk)).game
    side = opening.on_roll
    play = str(sorted(opening.legal_plays(), key=str)[0])
    phone = APIClient(HTTP_X_ENTRY_TOKEN=token_text(tokens[other.match.pk, side]))
    body = {"kind": "play", "side": side, "play": play, "expected_seq": recorded.action.seq}
    another = api_statements(phone, f"/api/matches/{other.match_id}/actions/", body)

    actors = {side: Actor(token=tokens[ending.match.pk, side]) for side in (0, 1)}
    side, play, seq = play_to_the_last_play(ending.match, actors, random.Random(7))
    phone = APIClient(HTTP_X_ENTRY_TOKEN=token_text(tokens[ending.match.pk, side]))
    body = {"kind": "play", "side": side, "play": play, "expected_seq": seq}
    last = api_statements(phone, f"/api/matches/{ending.match_id}/actions/", body)

    assert len(another) == 7, "\n".join(another)
    assert len(last) == len(another) + 6, "\n".join(last)
    assert sum("games_matchanalysis" in sql for sql in last) == 1, "the analysis asked for in one statement"
    assert sum('FROM "games_match"' in sql for sql in last) == 1, "the match is read (and locked) once"
    locks = [sql for sql in last if 'FROM "tournaments_pairing"' in sql]
    assert len(locks) == 1 and "FOR UPDATE" in locks[0] and "JOIN" not in locks[0], locks
    assert asked == [(ending.match_id, settings.ANALYSIS_PLIES)] and sent == [division.pk]
    assert Pairing.objects.get(pk=ending.pk).status == Pairing.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_a_stand_alone_match_s_ending_looks_for_its_pairing_and_no_playoff(director: Actor, sent: list[int]) -> None:
    """A match of no event (a casual game at the club) ends: its pairing is looked for (none), its playoff not, as
    its source says it is no playoff's (tournaments.core.PLAYOFF_SOURCE, which the entry page reads too)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = (games.services.create_player(display_name=name) for name in ("Ann", "Bob"))
    match = games.services.start_match(
        player1=ann, player2=bob, length=1, entry_mode="scoresheet", created_by=director.user
    )
    with CaptureQueriesContext(connection) as captured:
        games.services.record_game_result(match.pk, actor=director, winner=0, kind=1, expected_seq=0)
    statements = [query["sql"] for query in captured.captured_queries]
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert sum('FROM "tournaments_pairing"' in sql for sql in statements) == 2, "locked (none), then looked up"
    assert not [sql for sql in statements if "tournaments_playoff" in sql], statements
    assert sent == [], "nothing follows a stand-alone match"
