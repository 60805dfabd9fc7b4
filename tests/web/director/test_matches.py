"""A match's page (tournaments/director/views/matches.py) and the decisions taken from the division's page:
corrections (refused once a later match started unless overridden, or when stale), reopen and undo, forfeits,
penalty points, a disputed result, a round robin's match made early, a casual match."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.access import new_entry_token
from games.models import EntryToken, Match
from tests.web.director.support import (
    ESCAPED,
    EVIL,
    check_html,
    client_for,
    league,
    pairing_at,
    refused,
    text_of,
    urls,
    win,
)
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_a_correction_is_refused_once_a_later_match_started_unless_overridden(
    dora: Any, round_two: Division, django_capture_on_commit_callbacks: Any
) -> None:
    earlier = pairing_at(round_two, 1, 1)
    winner = earlier.entry_a_id
    later = Pairing.objects.filter(division=round_two, round__number=2).filter(entry_a=winner).first() or (
        Pairing.objects.get(division=round_two, round__number=2, entry_b=winner)
    )
    win(later.match, side=0, actor=Actor(token=new_entry_token(later.match, 0)), games_won=(1,))  # under way
    client, url = client_for(dora), urls(round_two, earlier)["match"]
    page = text_of(client.get(url))
    assert "unless you tick Override" in page and 'name="replace-result-game_number"' in page
    check_html(page)
    seq = Match.objects.get(pk=earlier.match_id).seq
    data = {
        "action": "replace-result",
        "replace-result-game_number": "1",
        "replace-result-winner": "1",
        "replace-result-kind": "1",
        "replace-result-cube_value": "1",
        "replace-result-reason": "wrong winner on the scoresheet",
        "replace-result-expected_seq": str(seq),
    }
    page = refused(
        client, url, data, "this result cannot be corrected: a later match that depends on it has started", status=409
    )
    assert 'value="wrong winner on the scoresheet"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**data, "replace-result-override": "on"})
    assert response.status_code == 302
    match = Match.objects.get(pk=earlier.match_id)
    assert (match.score1, match.score2, match.status) == (2, 1, "in_progress")
    said = "The result of game 1 is replaced: the match is open again at 2-1, its next game to be entered"
    assert said in text_of(client.get(url)), "not only the game: the match it reopened"


def test_a_stale_correction_is_refused(dora: Any, round_two: Division) -> None:
    earlier = pairing_at(round_two, 1, 2)
    refused(
        client_for(dora),
        urls(round_two, earlier)["match"],
        {"action": "undo", "undo-reason": "typo", "undo-expected_seq": "1"},
        "the match has moved on",
        status=409,
    )


def test_reopen_and_undo(dora: Any, round_two: Division, django_capture_on_commit_callbacks: Any) -> None:
    earlier = pairing_at(round_two, 1, 3)  # nobody of it has started round 2
    client, url = client_for(dora), urls(round_two, earlier)["match"]
    seq = Match.objects.get(pk=earlier.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "reopen", "reopen-reason": "scored wrong", "reopen-expected_seq": seq})
    assert response.status_code == 302
    assert Match.objects.get(pk=earlier.match_id).status == "in_progress"
    seq = Match.objects.get(pk=earlier.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "undo", "undo-reason": "game 1 too", "undo-expected_seq": seq})
    assert response.status_code == 302
    assert Match.objects.get(pk=earlier.match_id).score == (0, 0)


@pytest.mark.parametrize("where", ["division", "match"])
def test_a_forfeit(where: str, dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 2)
    client = client_for(dora)
    loser = pairing.entry_b
    value = f"{pairing.key}:{loser.pk}" if where == "division" else str(loser.pk)
    url = urls(swiss, pairing)[where]
    data = {"action": "forfeit", "forfeit-loser": value, "forfeit-kind": "no-show", "forfeit-reason": ""}
    refused(client, url, data, "This field is required.")
    response = client.post(url, {**data, "forfeit-reason": "not at the table after 15 minutes"})
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 2)
    assert (pairing.decision, pairing.winner_id, pairing.match.status) == (
        "forfeit-no-show",
        pairing.entry_a_id,
        "forfeited",
    )


def test_penalty_points(dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 1)
    client, url = client_for(dora), urls(swiss, pairing)["match"]
    data = {"action": "penalty", "penalty-against": pairing.entry_b_id, "penalty-points": "1", "penalty-reason": "late"}
    assert client.post(url, data).status_code == 302
    pairing = pairing_at(swiss, 1, 1)
    assert (pairing.penalty_b, pairing.match.score1) == (1, 1)
    assert "1 penalty points against P05." in text_of(client.get(url))
    response = client.post(url, {**data, "penalty-points": "1", "penalty-reason": "late again"})
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 1)
    assert (pairing.penalty_b, pairing.decision, pairing.match.status) == (2, "forfeit-penalty", "forfeited")


def test_a_disputed_result_is_decided_by_a_director(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = pairing_at(swiss, 1, 3)
    with django_capture_on_commit_callbacks(execute=True):
        win(pairing.match, side=0, actor=Actor(token=new_entry_token(pairing.match, 0)))
    services.dispute_result(pairing, actor=Actor(token=new_entry_token(pairing.match, 1)), reason=f"I won {EVIL}")
    client = client_for(dora)
    dashboard = text_of(client.get(urls(swiss)["event"]))
    assert "disputed" in dashboard and f"I won {ESCAPED}" in dashboard and EVIL not in dashboard
    match_page = text_of(client.get(urls(swiss, pairing)["match"]))
    assert "Dispute:" in match_page and "Confirm as director" in match_page
    check_html(match_page)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(urls(swiss, pairing)["match"], {"action": "confirm"}).status_code == 302
    assert pairing_at(swiss, 1, 3).confirmation == "confirmed"
    refused(
        client,
        urls(swiss, pairing)["match"],
        {"action": "confirm"},
        "This result is not waiting for a confirmation",
        status=409,
    )


def test_a_round_robin_match_not_made_yet_is_made_by_the_director(dora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import core

    monkeypatch.setattr(core, "ROUND_ROBIN_AHEAD", 2)  # each player's next two matches, so that round 3 has none
    monkeypatch.setattr(core, "ROUND_ROBIN_DRAWN_MATCHES", 1)
    division = league(dora, 6)
    later = pairing_at(division, 4, 1)
    assert later.match is None and later.status == Pairing.Status.READY
    client = client_for(dora)
    url = f"/manage/league/a/match/{later.key}/"
    assert f'<a href="{url}">manage' in text_of(client.get("/manage/league/a/")), "its round's table links to it"
    page = text_of(client.get(url))
    assert "Its match is not made yet: a round robin makes each player's next 2 matches ahead of play" in page
    assert "its players are not known" not in page and 'value="make-match"' in page
    answer = client.post(url, {"action": "make-match"}, follow=True)
    assert "The match is made: its players can enter it from their entry links." in text_of(answer)
    later = pairing_at(division, 4, 1)
    assert later.match is not None and later.match.status == Match.Status.SCHEDULED
    assert (later.match.player1_id, later.match.player2_id) == (later.entry_a.player_id, later.entry_b.player_id)
    assert later.match.source.endswith(f"/{later.key}") and later.match.length == 3
    page = text_of(client.get(url))
    assert "Its match is not made yet" not in page and f'href="/play/match/{later.match.pk}/"' in page
    assert Match.objects.filter(pk=later.match.pk).count() == 1
    again = client.post(url, {"action": "make-match"})  # twice (a double tap): refused, still one match
    assert again.status_code == 409 and "This pairing&#x27;s match is already made." in text_of(again)
    assert pairing_at(division, 4, 1).match_id == later.match.pk


def test_a_casual_match_page_asks_only_who_won_a_game(dora: Any, casual: Division) -> None:
    """Correcting a game asks only who won it; a gammon or a cube sent anyway is refused with the reason."""
    first = pairing_at(casual, 1, 1)
    client, url = client_for(dora), f"/manage/beginners/casual/match/{first.key}/"
    page = text_of(client.get(url))
    assert ">Cube<" not in page and "<td>single</td>" in page  # the words of the match page
    for name in ("kind", "cube_value"):
        assert re.search(rf'<input type="hidden" name="replace-result-{name}" value="1"', page), name
        assert f'<select name="replace-result-{name}"' not in page, name
    check_html(page)
    data = {
        "action": "replace-result",
        "replace-result-game_number": "1",
        "replace-result-winner": "1",
        "replace-result-reason": "wrong on the scoresheet",
        "replace-result-expected_seq": str(Match.objects.get(pk=first.match_id).seq),
    }
    for kind, cube, words in (("2", "1", "no gammons"), ("1", "2", "no doubling cube")):
        refused(client, url, {**data, "replace-result-kind": kind, "replace-result-cube_value": cube}, words)


def _no_show_forfeited(dora: Any, swiss: Division, capture: Any) -> tuple[Pairing, Client, str]:
    """Board 2 of round 1 forfeited by its second player (a no-show), from the director's match page."""
    pairing = pairing_at(swiss, 1, 2)
    client, url = client_for(dora), urls(swiss, pairing)["match"]
    data = {"action": "forfeit", "forfeit-loser": pairing.entry_b_id, "forfeit-kind": "no-show"}
    with capture(execute=True):
        client.post(url, {**data, "forfeit-reason": "not at the table after 15 minutes"})
    return pairing, client, url


def test_an_undone_forfeit_leaves_no_decision_on_any_page(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing, client, url = _no_show_forfeited(dora, swiss, django_capture_on_commit_callbacks)
    pages = [url, urls(swiss)["division"], f"/events/{swiss.event.slug}/{swiss.slug}/rounds/swiss/1/?big=1"]
    shown = {page: text_of(client.get(page)) for page in pages}
    assert [p for p, html in shown.items() if "not at the table" not in html and "forfeit (no-show)" not in html] == []
    seq = Match.objects.get(pk=pairing.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"action": "reopen", "reopen-reason": "he was in the bar", "reopen-expected_seq": seq}
        )
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 2)
    assert (pairing.status, pairing.decision, pairing.decision_reason) == ("ready", "", "")
    for page in pages:
        html = text_of(client.get(page))
        assert "not at the table" not in html and "forfeit (no-show)" not in html, page
    assert "not at the table" not in text_of(Client().get(pages[2]))


def test_forfeit_and_penalty_choices_name_players_without_ids(dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 2)
    client = client_for(dora)
    for url in (urls(swiss, pairing)["match"], urls(swiss)["division"]):
        page = text_of(client.get(url))
        options = re.findall(r"<option value=\"[^\"]+\">([^<]*)</option>", page)
        assert options, url
        assert not [o for o in options if re.search(r"#\d", o)], url
    page = text_of(client.get(urls(swiss, pairing)["match"]))
    assert f">{pairing.entry_b.player.display_name} (seed {pairing.entry_b.seed})</option>" in page


def test_a_forfeit_reads_as_a_decision_not_as_a_game(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing, client, url = _no_show_forfeited(dora, swiss, django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=pairing.match_id)
    loser_side = 0 if match.player1_id == pairing.entry_b.player_id else 1
    names = (match.player1.display_name, match.player2.display_name)
    winner, loser = names[1 - loser_side], names[loser_side]
    score = f"{match.score1}\N{EN DASH}{match.score2}"
    assert match.games.count() == 1  # the stored game row stays (scores and the .mat export read it)
    pages = {
        "director": url,
        "public": reverse("games:match", args=[match.pk]),
        "entry": reverse("entry:match", args=[match.pk]),
    }
    for name, page in pages.items():
        html = text_of(client.get(page))
        line = re.search(r'<p class="forfeit-line"[^>]*>(.*?)</p>', html, re.S)
        assert line is not None, name
        text = re.sub(r"<[^>]+>", "", line.group(1))
        reason = "no-show: not at the table after 15 minutes"
        assert text == f"Forfeit: {winner} wins {score} ({loser} did not play) · Reason: {reason}", (name, text)
        assert "Single" not in html and "<td>1</td>" not in html, name  # no made-up game with a cube


def chosen(page: str, name: str) -> str:
    """The value a select of the page shows: its option marked selected, else its first."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, name
    values = re.findall(r'<option value="([^"]*)"( selected)?', select.group(1))
    return next((v for v, mark in values if mark), values[0][0])


def test_the_replace_result_form_starts_at_the_games_recorded_result(dora: Any, swiss: Division) -> None:
    """Its winner, kind and cube start at what the first game recorded (so changing only "Won as" keeps the
    winner), and the game select carries each game's for the page's script to follow another game chosen."""
    pairing = pairing_at(swiss, 1, 1)
    assert pairing.match is not None
    win(pairing.match, side=1, actor=Actor(user=dora), games_won=(2, 1))  # side 1: a gammon, then a single
    page = text_of(client_for(dora).get(urls(swiss, pairing)["match"]))
    found = [chosen(page, f"replace-result-{n}") for n in ("game_number", "winner", "kind", "cube_value")]
    assert found == ["1", "1", "2", "1"]
    assert 'data-recorded="{&quot;1&quot;: [1, 2, 1], &quot;2&quot;: [1, 1, 1]}"' in page
    assert "js/director.js" in page
    check_html(page)


def new_link_opens_the_answer(client: Client, page_url: str, side: int, name: str) -> str:
    """The director gives ``side`` a new link from the match's page; a new phone opens it: its entry page."""
    done = client.post(page_url, {"action": "new-link", "new-link-side": str(side)})
    assert done.status_code == 302
    shown = client.get(page_url).content.decode()
    found = re.search(rf"A new entry link for {re.escape(name)}: \S*(/play/[^/\s<\"]+/)", shown)
    assert found is not None, shown
    phone = Client()
    opened = phone.get(found.group(1))
    assert opened.status_code == 302
    return phone.get(opened["Location"]).content.decode()


def test_a_player_whose_result_waits_for_him_gets_a_new_link_to_answer_it(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = pairing_at(swiss, 1, 3)
    assert pairing.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        win(pairing.match, side=0, actor=Actor(token=new_entry_token(pairing.match, 0)))
    pairing = pairing_at(swiss, 1, 3)
    assert pairing.confirmation == "awaiting" and pairing.confirmation_side == 1
    client = client_for(dora)
    url = urls(swiss, pairing)["match"]
    assert "Give a new link" in text_of(client.get(url)), "the result waits for a player: his phone may have died"
    asked = Match.objects.select_related("player2").get(pk=pairing.match_id).player2.display_name
    entry_page = new_link_opens_the_answer(client, url, 1, asked)
    assert "Is it right?" in entry_page and "Confirm the result" in entry_page and "Dispute the result" in entry_page

    services.dispute_result(pairing, actor=Actor(token=new_entry_token(pairing.match, 1)), reason="I won")
    assert "Give a new link" in text_of(client.get(url)), "a disputed result is not settled either"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "confirm"}).status_code == 302
    assert "Give a new link" not in text_of(client.get(url)), "a confirmed result needs no link"
    assert_new_link_refused(client, url, pairing.match_id)


def assert_new_link_refused(client: Client, page_url: str, match_id: int | None) -> None:
    """A new link asked for anyway (a form left open in another tab) is refused with the reason, and no link is
    revoked or made."""
    live = set(EntryToken.objects.filter(match_id=match_id, revoked_at__isnull=True).values_list("pk", flat=True))
    refused = client.post(page_url, {"action": "new-link", "new-link-side": "1"})
    assert refused.status_code == 409, refused.status_code
    assert "result is settled, so no player needs an entry link" in text_of(refused)
    still = set(EntryToken.objects.filter(match_id=match_id, revoked_at__isnull=True).values_list("pk", flat=True))
    assert still == live
