"""The limits of a match: at most MATCH_MAX_GAMES games and MATCH_MAX_ACTIONS actions, refused with
``match_too_long`` (400, the limit named) wherever a match grows: a .mat import (the command and the API), an
action through the API and through the players' entry page. Every real match of the corpus fits with room.

The refusals of recorded actions run with the limits lowered (the services read them from games.services), so
that a test need not play 200 games; the import of a 10,000-game money log runs against the real limits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from common.actor import SYSTEM
from common.errors import ApplicationError, ErrorCode
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from games import services
from games.access import new_entry_token, token_text
from games.models import MATCH_MAX_ACTIONS, MATCH_MAX_GAMES, Action, Game, Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import actions_url, token_client
from tests.games.api.test_files import upload
from tests.games.test_commands import CORPUS_FILES, NO_CORPUS, run

pytestmark = pytest.mark.django_db


def money_log(games: int) -> str:
    """A 0-point (money) .mat log of ``games`` result-only games, one point each, won in turn."""
    lines = ["", " 0 point match", ""]
    score = [0, 0]
    for number in range(1, games + 1):
        winner = (number - 1) % 2
        lines += [f" Game {number}", f" Ann : {score[0]:<26}Ben : {score[1]}"]
        lines.append(" " * (6 if winner == 0 else 34) + "Wins 1 point")
        lines.append("")
        score[winner] += 1
    return "\n".join(lines) + "\n"


def stored() -> tuple[int, int, int, int]:
    return Match.objects.count(), Game.objects.count(), Action.objects.count(), Player.objects.count()


# -- imports, against the real limits ----------------------------------------------------------------------------


def test_a_ten_thousand_game_money_log_is_refused_by_the_command(tmp_path: Path) -> None:
    path = tmp_path / "session.mat"
    path.write_text(money_log(10_000), encoding="utf-8")
    out, _err, error = run("import_matches", str(path))
    assert error is not None and stored() == (0, 0, 0, 0)
    assert f"invalid {path}: a match holds at most {MATCH_MAX_GAMES} games and this log has 10,000" in out


def test_a_ten_thousand_game_money_log_is_refused_by_the_api(django_user_model: Any) -> None:
    client = logged_in(django_user_model.objects.create_user("dora", password="x"))
    response = upload(client, "session.mat", money_log(10_000).encode())
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "match_too_long" and body["limit"] == "games_per_match"
    assert (body["max"], body["found"]) == (MATCH_MAX_GAMES, 10_000)
    assert f"at most {MATCH_MAX_GAMES} games" in body["message"]
    assert stored() == (0, 0, 0, 0)


def test_a_money_log_at_the_limit_is_imported(tmp_path: Path) -> None:
    path = tmp_path / "session.mat"
    path.write_text(money_log(MATCH_MAX_GAMES), encoding="utf-8")
    out, _err, error = run("import_matches", str(path))
    assert error is None, out
    match = Match.objects.get()
    assert (match.length, match.score, match.games.count()) == (0, (100, 100), MATCH_MAX_GAMES)


@pytest.mark.skipif(not CORPUS_FILES, reason=NO_CORPUS)
def test_every_real_match_of_the_corpus_fits_with_room() -> None:
    games = actions = 0
    for path in CORPUS_FILES:
        replay = replay_record(read_mat(path.read_bytes()))
        games = max(games, len(replay.games))
        actions = max(actions, sum(len(g.actions) for g in replay.games))
    assert (games, actions) == (18, 1364)  # the corpus' largest: well inside both limits
    assert games * 5 < MATCH_MAX_GAMES and actions * 10 < MATCH_MAX_ACTIONS


def test_the_import_service_refuses_a_log_with_too_many_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.write, "MATCH_MAX_ACTIONS", 3)
    replay = replay_record(read_mat(money_log(4).encode()))
    with pytest.raises(ApplicationError) as refused:
        services.import_match(
            players=("Ann", "Ben"), length=0, variant="standard", crawford=False,
            games=[g.actions for g in replay.games],
        )  # fmt: skip
    assert refused.value.code is ErrorCode.MATCH_TOO_LONG and refused.value.extra["limit"] == "actions_per_match"
    assert "at most 3 actions and this one has 4" in refused.value.message
    assert stored() == (0, 0, 0, 0)


# -- recording, with the limits lowered ---------------------------------------------------------------------------


@pytest.fixture
def money(django_user_model: Any) -> Match:
    """A money session kept on a scoresheet, directed by dora."""
    director = django_user_model.objects.create_user("dora", password="x")
    ann, ben = services.create_player(display_name="Ann"), services.create_player(display_name="Ben")
    return services.start_match(player1=ann, player2=ben, length=0, entry_mode="scoresheet", created_by=director)


def result(client: Any, match: Match, seq: int) -> Any:
    body = {"kind": "game-result", "expected_seq": seq, "winner": seq % 2, "result": "single"}
    return client.post(actions_url(match.pk), body, format="json")


def test_a_game_past_the_limit_is_refused_through_the_api(money: Match, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.write, "MATCH_MAX_GAMES", 2)
    client = token_client(money, 0)
    assert [result(client, money, seq).status_code for seq in (0, 1)] == [201, 201]
    refused = result(client, money, 2)
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert body["code"] == "match_too_long" and (body["limit"], body["max"]) == ("games_per_match", 2)
    assert "at most 2 games and game 3 cannot start" in body["message"]
    money.refresh_from_db()
    assert (money.seq, money.games.count(), money.status) == (2, 2, Match.Status.IN_PROGRESS)
    # the director still ends the session
    services.finish_match(money.pk, actor=SYSTEM, reason="the session is over", expected_seq=2)


def test_an_action_past_the_limit_is_refused_on_the_entry_page_and_a_forfeit_still_ends_the_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services.write, "MATCH_MAX_ACTIONS", 2)
    ann, ben = services.create_player(display_name="Ann"), services.create_player(display_name="Ben")
    match = services.start_match(player1=ann, player2=ben, length=5)
    phone = Client()
    assert phone.get(f"/play/{token_text(new_entry_token(match, 1))}/").status_code == 302
    services.record_opening_roll(match.pk, dice=(3, 1), actor=SYSTEM, expected_seq=0)
    services.record_play(match.pk, side=0, play="8/5 6/5", actor=SYSTEM, expected_seq=1)
    roll = {"kind": "roll", "side": 1, "die1": 6, "die2": 4, "expected_seq": 2}
    response = phone.post(f"/play/match/{match.pk}/", roll)
    assert response.status_code == 400
    assert "a match holds at most 2 actions" in response.content.decode()
    match.refresh_from_db()
    assert match.seq == 2
    recorded = services.forfeit_match(match.pk, actor=SYSTEM, loser_side=1, reason="no-show", expected_seq=2)
    assert recorded.match.status == Match.Status.FORFEITED and recorded.match.seq == 3
