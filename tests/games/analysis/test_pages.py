"""Where people see the analysis: the match page (PR and luck by the score, marks in the move list, the best play
by the board, the reason when there is no analysis) and the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Decision, Match, MatchAnalysis
from tests.games.analysis.test_analyse_match import CUBE_MATCH, HUMAN_MATCH, import_mat

pytestmark = pytest.mark.django_db


@pytest.mark.gnubg
def test_the_match_page_shows_pr_luck_and_the_marked_decisions(client: Any) -> None:
    if not HUMAN_MATCH.exists():
        pytest.skip(f"the shared match-log corpus is missing: {HUMAN_MATCH}")
    match = import_mat(HUMAN_MATCH)
    call_command("analyse_match", str(match.pk))
    rows = list(MatchAnalysis.objects.get(match=match).players.order_by("side"))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    for row in rows:
        assert f"<strong>{row.pr:.2f}</strong>" in page
    very_bad = Decision.objects.filter(analysis__match=match, mark="very bad").count()
    # the move list shows a game at a time: every game's page together marks every very bad decision
    games = [client.get(f"/matches/{match.pk}/?game={g.number}").content.decode() for g in match.games.all()]
    assert very_bad and sum(text.count('<span class="mark mark-very-bad">very bad') for text in games) == very_bad
    found = (
        re.search(r'<li id="move-(\d+)"><a [^>]*>[^<]*(?:<span class="who">[^<]*</span> )?[^<]*'
                  r'<span class="mark mark-very-bad">', text)
        for text in games
    )  # fmt: skip
    seq = next((m for m in found if m is not None), None)
    assert seq is not None
    board = client.get(f"/matches/{match.pk}/?at={seq.group(1)}").content.decode()
    decision = Decision.objects.filter(analysis__match=match, kind="move", mark="very bad").first()
    assert decision is not None
    assert f"best play: {decision.best}" in board.replace("&#x27;", "'")
    api = client.get(f"/api/matches/{match.pk}/analysis/").json()
    assert api["status"] == "done"
    assert [p["pr"] for p in api["players"]] == [row.pr for row in rows]
    assert len(api["decisions"]) == Decision.objects.filter(analysis__match=match).count()


@pytest.mark.gnubg
def test_a_marked_cube_decision_shows_the_right_cube_action(client: Any) -> None:
    if not HUMAN_MATCH.exists():
        pytest.skip(f"the shared match-log corpus is missing: {HUMAN_MATCH}")
    match = import_mat(HUMAN_MATCH)
    call_command("analyse_match", str(match.pk))
    game = client.get(f"/matches/{match.pk}/?game=1").content.decode()
    marked = re.findall(r'<li id="move-(\d+)">(?:(?!</li>).)*<span class="mark ', game)
    notes = " ".join(
        note
        for seq in marked
        for note in re.findall(
            r'<p class="analysis-note">(.*?)</p>', client.get(f"/matches/{match.pk}/?at={seq}").content.decode(), re.S
        )
    )
    notes = re.sub(r"\s+", " ", notes)
    cube = Decision.objects.filter(analysis__match=match, game_number=1).exclude(kind="move").exclude(mark="")
    assert cube.exists()
    for decision in cube:
        assert f"GNU Backgammon: {decision.best} (this cube action gave away {decision.equity_lost:.3f})" in notes
    missed = Decision.objects.filter(analysis__match=match, game_number=1, kind="move").exclude(cube_mark="").first()
    assert missed is not None and missed.cube_best == "double, take"
    assert (
        f"cube decision before it: {missed.cube_mark} (GNU Backgammon: double, take; "
        f"not doubling gave away {missed.cube_equity_lost:.3f})" in notes
    )


@pytest.mark.gnubg
def test_luck_is_signed_and_explained_on_the_match_and_player_pages(client: Any) -> None:
    match = import_mat(CUBE_MATCH)
    call_command("analyse_match", str(match.pk))
    rows = list(MatchAnalysis.objects.get(match=match).players.order_by("side"))
    note = "Luck: the equity gained from the dice, in points per game"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert note in page
    for row in rows:
        assert f"luck {row.luck:+.2f}</span>" in page
        player = client.get(f"/players/{row.player_id}/").content.decode()
        assert note in player and f'<td data-label="Luck">{row.luck:+.2f}</td>' in player
    assert any(row.luck < 0 for row in rows)  # the sign shows, not only a plus


def test_the_match_page_says_why_there_is_no_analysis(client: Any, settings: Any) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    match = import_mat(CUBE_MATCH)
    with pytest.raises(CommandError):
        call_command("analyse_match", str(match.pk))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "analysis unavailable: GNU Backgammon is not installed at /nonexistent/gnubg" in page
    api = client.get(f"/api/matches/{match.pk}/analysis/").json()
    assert api["status"] == "unavailable" and "/nonexistent/gnubg" in api["error"]


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"entry_mode": Match.EntryMode.SCORESHEET}, "only the game results of this match were recorded"),
        ({"variant": "acey-deucey"}, "not available for the acey-deucey variant"),
    ],
    ids=["scoresheet", "acey-deucey"],
)
def test_a_match_gnubg_cannot_analyse_says_why_unasked(
    client: Any, new_match: Any, options: dict[str, Any], reason: str
) -> None:
    match = new_match(length=3, **options)
    assert not MatchAnalysis.objects.filter(match=match).exists()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    note = re.search(r'<p class="analysis-status">([^<]*)</p>', page)
    assert note is not None and note.group(1).startswith("Analysis is not available") and reason in note.group(1)


@pytest.mark.gnubg
def test_a_private_match_stays_off_a_players_pr_for_spectators(client: Any, django_user_model: Any) -> None:
    match = import_mat(CUBE_MATCH)
    call_command("analyse_match", str(match.pk))
    page = f"/players/{match.player1_id}/"
    api = f"/api/players/{match.player1_id}/analysis/"
    assert "over 1 analysed match" in client.get(page).content.decode()
    assert len(client.get(api).json()["results"]) == 1
    Match.objects.filter(pk=match.pk).update(private=True)
    assert "No match of this player has been analysed yet." in client.get(page).content.decode()
    assert client.get(api).json()["results"] == []
    client.force_login(django_user_model.objects.create_user(username="staff", is_staff=True))
    assert "over 1 analysed match" in client.get(page).content.decode()
