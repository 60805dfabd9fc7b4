"""Playoffs for ties on the pages: the director's division page shows the ties that matter with "Order a playoff",
the playoff's matches with their entry links and "Cancel the playoff"; the public standings say how the tie was
settled. A playoff match's result entered by one player is confirmed or disputed from the opponent's entry page, or
confirmed by the director; a playoff match's own director's page gives new entry links and awards a forfeit. The
director's page reads them in a fixed number of queries whatever the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import games.services
from common.actor import Actor
from games.models import EntryToken, Match
from tests.games.conftest import footprint
from tests.tournaments.services.support import play_out
from tests.tournaments.services.test_playoffs import swiss_with_a_paid_tie, win
from tests.web.director.test_matches import assert_new_link_refused, chosen, new_link_opens_the_answer
from tests.web.test_entry_pages import Phone, error_of, ok
from tournaments import services
from tournaments.models import Division, Entry, Playoff
from tournaments.selectors.playoffs import division_playoffs
from tournaments.services.payouts import set_payouts

pytestmark = pytest.mark.django_db


def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def page(division: Division) -> str:
    return f"/manage/{division.event.slug}/{division.slug}/"


def public(division: Division) -> str:
    return f"/events/{division.event.slug}/{division.slug}/"


def names_of(*entries: int) -> list[str]:
    found = dict(Entry.objects.filter(pk__in=entries).values_list("pk", "player__display_name"))
    return [found[pk] for pk in entries]


def test_the_director_orders_a_playoff_from_the_page_and_the_pages_say_how_the_tie_was_settled(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    name_a, name_b = names_of(int(a), int(b))
    client = director_client(director)
    html = client.get(page(division)).content.decode()
    assert "Playoffs for ties" in html and "A three-player playoff is a stepladder" in html
    assert f"Tied at 2nd-3rd (places that pay differently): {name_a}, {name_b}" in html
    assert "Order a playoff" in html and "gets no table from the queue" in html

    target = f"{a}-{b}"
    refused = client.post(
        page(division), {"action": "order-playoff", "target": target, f"order-playoff-{target}-length": "0"}
    )
    assert refused.status_code == 400 and "greater than or equal to 1" in refused.content.decode()
    assert not Playoff.objects.exists()

    done = client.post(
        page(division), {"action": "order-playoff", "target": target, f"order-playoff-{target}-length": "1"}
    )
    assert done.status_code == 302
    html = client.get(page(division)).content.decode()
    assert "The playoff for the tie at 2nd place is ordered: its match is made" in html  # one match: no "first"
    assert f"Tie at 2nd: a playoff is ordered ({name_a} v {name_b}, 1 point)." in html
    assert f"{name_a}'s entry link" in html and "/play/" in html and "Cancel the playoff" in html
    assert "Order a playoff" not in html
    assert (
        f"Tie at 2nd: a playoff is ordered ({name_a} v {name_b}, 1 point)."
        in Client().get(public(division)).content.decode()
    )

    playoff = Playoff.objects.get()
    win(playoff.final_match, int(b), as_director)
    kept = '<span class="kept-score">1-0</span>'  # a score is never broken across lines
    said = f"Tie at 2nd settled by a playoff: {name_b} beat {name_a} {kept}."
    assert said in Client().get(public(division)).content.decode()
    html = client.get(page(division)).content.decode()
    assert said in html and "Cancel the playoff" not in html and "Order a playoff" not in html


def test_the_director_cancels_an_unplayed_playoff_from_the_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    playoff = services.order_playoff(division, actor=as_director, entries=[int(a), int(b)])
    client = director_client(director)
    done = client.post(page(division), {"action": "cancel-playoff", "target": str(playoff.pk)})
    assert done.status_code == 302 and not Playoff.objects.exists()
    html = client.get(page(division)).content.decode()
    assert "The playoff is cancelled" in html and "Order a playoff" in html
    gone = client.post(page(division), {"action": "cancel-playoff", "target": str(playoff.pk)})
    assert gone.status_code == 404  # a form about a playoff that is no more: its refusal, no 500
    assert f"There is no playoff {playoff.pk}" in gone.content.decode()


def finished_swiss(division_of: Callable[..., Division], director: Actor, players: int, rounds: int) -> Division:
    """A finished Swiss, no tie-breaks, the better seed wins: two players on the most wins share first place (a
    playoff is ordered for them), others share places paid differently."""
    division = division_of("swiss", players, rounds_planned=rounds, tiebreaks=[], entry_mode="scoresheet",
                           match_length=1)  # fmt: skip
    set_payouts(division, actor=director, mode="amount", pool=None, ties="split", published=True,
                flights={"main": "60, 30, 10"})  # fmt: skip
    services.start_division(division, actor=director)
    play_out(division, director)
    services.recompute_standings(division.pk)
    division = Division.objects.select_related("event").get(pk=division.pk)
    tie = next(t for t in division_playoffs(division).ties if t.tie.orderable)
    services.order_playoff(division, actor=director, entries=[int(p) for p in tie.tie.players])
    return division


def test_the_playoffs_cost_the_same_queries_for_8_and_32_players(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    small, large = finished_swiss(division_of, as_director, 8, 2), finished_swiss(division_of, as_director, 32, 4)
    client = director_client(director)
    counts = []
    for division in (small, large):
        for url in (page(division), public(division)):
            client.get(url)
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured.captured_queries))
    assert counts[:2] == counts[2:], counts


def test_a_playoff_matchs_public_page_names_its_event_division_and_the_tie(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    playoff = services.order_playoff(division, actor=as_director, entries=[int(a), int(b)])
    html = Client().get(f"/matches/{playoff.final_match_id}/").content.decode()
    assert f'<a href="/events/{division.event.slug}/{division.slug}/">{division.name}</a>' in html
    assert "<li>Playoff for the tie at 2nd</li>" in html


# -- a playoff match's confirmation and its director's page ---------------------------------------------------------


def _ordered(division_of: Callable[..., Division], director: Actor) -> tuple[Division, Playoff, int, int]:
    division = swiss_with_a_paid_tie(division_of, director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    return division, services.order_playoff(division, actor=director, entries=[a, b]), a, b


def _entered_by_side_0(
    division_of: Callable[..., Division], director: Actor
) -> tuple[Division, Playoff, Match, tuple[Phone, Phone]]:
    """A playoff ordered, the phones of its match's two players, and its 1-point result entered by side 0's."""
    division, playoff, _a, _b = _ordered(division_of, director)
    match = Match.objects.select_related("player1", "player2").get(pk=playoff.final_match_id)
    phones = Phone(match, 0), Phone(match, 1)
    ok(phones[0].post("game-result", winner=0, result=1, cube=1), match)
    return division, playoff, match, phones


def test_the_opponent_confirms_a_playoff_result_from_his_entry_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division, playoff, match, (entering, other) = _entered_by_side_0(division_of, as_director)
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side, playoff.status) == ("awaiting", 1, "ordered")

    html = other.page()
    assert f"entered the result: {match.player1.display_name} won the match 1-0. Is it right?" in html
    assert f'action="/play/pairings/playoff/{match.pk}/confirm/"' in html
    assert f'action="/play/pairings/playoff/{match.pk}/dispute/"' in html
    assert f"The result waits for {match.player2.display_name}'s confirmation." in entering.page()
    refused = entering.client.post(f"/play/pairings/playoff/{match.pk}/confirm/")
    assert refused.status_code == 403
    assert f"Only {match.player2.display_name} or a director can answer" in refused.content.decode()
    html = director_client(director).get(page(division)).content.decode()
    assert f"waiting for {match.player2.display_name}&#x27;s confirmation" in html
    assert 'name="action" value="confirm-playoff"' in html
    assert f'href="/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"' in html

    done = other.client.post(f"/play/pairings/playoff/{match.pk}/confirm/")
    assert done.status_code == 303 and done["Location"] == f"/play/match/{match.pk}/"
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.status) == ("confirmed", "finished")
    assert "The result is confirmed." in other.page()


def test_a_player_whose_playoff_result_waits_for_him_gets_a_new_link_to_answer_it(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division, _playoff, match, _phones = _entered_by_side_0(division_of, as_director)
    services.sync_division(division.pk)
    client = director_client(director)
    url = f"/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"
    assert "Give a new link" in client.get(url).content.decode(), "the result waits for a player"
    entry_page = new_link_opens_the_answer(client, url, 1, match.player2.display_name)
    assert "Is it right?" in entry_page and f'action="/play/pairings/playoff/{match.pk}/confirm/"' in entry_page

    services.confirm_playoff_result(match.pk, actor=as_director)
    assert "Give a new link" not in client.get(url).content.decode(), "a confirmed result needs no link"
    assert_new_link_refused(client, url, match.pk)


def test_a_disputed_playoff_result_is_confirmed_by_the_director_on_the_division_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division, playoff, match, (_entering, other) = _entered_by_side_0(division_of, as_director)
    empty = other.client.post(f"/play/pairings/playoff/{match.pk}/dispute/", {"reason": " "})
    assert empty.status_code == 400 and "Say what is wrong" in empty.content.decode()
    assert f'action="/play/pairings/playoff/{match.pk}/dispute/"' in empty.content.decode()
    other.client.post(f"/play/pairings/playoff/{match.pk}/dispute/", {"reason": "I won the last game"})
    client = director_client(director)
    html = client.get(page(division)).content.decode()
    assert "Disputed:" in html and "I won the last game" in html
    elsewhere = client.post(page(division), {"action": "confirm-playoff", "target": str(match.pk + 1000)})
    assert elsewhere.status_code == 404 and "no longer exists" in elsewhere.content.decode()
    done = client.post(page(division), {"action": "confirm-playoff", "target": str(match.pk)})
    assert done.status_code == 302
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.status) == ("confirmed", "finished")
    assert "The playoff match&#x27;s result is confirmed" in client.get(page(division)).content.decode()


def test_the_director_awards_a_playoff_match_by_forfeit_and_gives_a_new_link_from_its_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division, playoff, a, b = _ordered(division_of, as_director)
    match = Match.objects.select_related("player1", "player2").get(pk=playoff.final_match_id)
    url = f"/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"
    client = director_client(director)
    html = client.get(url).content.decode()
    assert "Playoff for the tie at 2nd place" in html and "Forfeit (no-show, withdrawal)" in html
    assert f"{match.player1.display_name}'s entry link" in html and "Give a new link" in html
    assert Client().get(url).status_code == 302  # to the login page
    assert client.get(f"/manage/{division.event.slug}/{division.slug}/playoff/999999/").status_code == 404

    old = set(EntryToken.objects.filter(match=match, side=0, revoked_at__isnull=True).values_list("pk", flat=True))
    done = client.post(url, {"action": "new-link", "new-link-side": "0"})
    assert done.status_code == 302
    assert not EntryToken.objects.filter(pk__in=old, revoked_at__isnull=True).exists(), "the old link no longer opens"
    assert f"A new entry link for {match.player1.display_name}" in client.get(url).content.decode()

    refused = client.post(url, {"action": "forfeit", "forfeit-loser": "0", "forfeit-kind": "no-show",
                                "forfeit-reason": ""})  # fmt: skip
    assert refused.status_code == 400 and match.__class__.objects.get(pk=match.pk).status == Match.Status.SCHEDULED
    done = client.post(url, {"action": "forfeit", "forfeit-loser": "0", "forfeit-kind": "no-show",
                             "forfeit-reason": "did not come"})  # fmt: skip
    assert done.status_code == 302
    playoff.refresh_from_db()
    winner = b if Entry.objects.get(pk=b).player_id == match.player2_id else a
    assert playoff.status == "finished" and playoff.order[0] == winner
    html = client.get(url).content.decode()
    assert "forfeits the match (no-show)" in html and "Reopen the match" in html
    assert "Forfeit (no-show, withdrawal)" not in html, "over: no forfeit to award"


def test_a_confirmed_playoff_result_is_not_taken_back_by_the_player_who_entered_it(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """As a round's pairing's: once the opponent confirmed it, the entering player's page offers no take-back nor a
    correction, and a take-back sent all the same is refused with what to do; nothing changes."""
    division, playoff, match, (entering, other) = _entered_by_side_0(division_of, as_director)
    assert 'id="take-back"' in entering.page(), "waiting for the opponent: still his to take back"
    assert other.client.post(f"/play/pairings/playoff/{match.pk}/confirm/").status_code == 303
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.status) == ("confirmed", "finished")
    html = entering.page()
    assert 'id="take-back"' not in html and 'id="ask-correction"' not in html
    before = footprint(match.pk)
    refused = entering.post("take-back")
    assert refused.status_code == 409
    assert f"{match.player2.display_name} has confirmed this result: ask the director to correct it" in error_of(
        entering.seen[-1]
    )
    assert footprint(match.pk) == before and Match.objects.get(pk=match.pk).score == (1, 0)
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert (playoff.status, playoff.final_confirmation) == ("finished", "confirmed")


def test_a_disputed_playoff_result_may_be_taken_back_by_the_player_who_entered_it(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """As a round's pairing's: a dispute is no confirmation, so the entering player may still take his result back
    (the dispute goes with it), and the match is played on."""
    division, playoff, match, (entering, other) = _entered_by_side_0(division_of, as_director)
    other.client.post(f"/play/pairings/playoff/{match.pk}/dispute/", {"reason": "I won it"})
    assert 'id="take-back"' in entering.page()
    ok(entering.post("take-back"), match)
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert Match.objects.get(pk=match.pk).score == (0, 0)
    assert (playoff.final_confirmation, playoff.dispute_text, playoff.status) == ("", "", "ordered")


def test_a_playoff_matchs_replace_result_form_starts_at_the_games_recorded_result(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    match = Match.objects.get(pk=playoff.final_match_id)
    assert Entry.objects.get(pk=b).player_id == match.player2_id
    games.services.record_game_result(match.pk, actor=as_director, winner=1, kind=2, cube_value=1,
                                      expected_seq=match.seq)  # fmt: skip
    url = f"/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"
    html = director_client(director).get(url).content.decode()
    found = [chosen(html, f"replace-result-{n}") for n in ("game_number", "winner", "kind", "cube_value")]
    assert found == ["1", "1", "2", "1"], "the winner the game recorded, not the first player"
    assert "js/director.js" in html


def test_a_playoff_result_the_director_corrected_is_marked_on_the_division_page_and_the_phones(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    """As a round's corrected result: listed under "Corrected results" with his reason, the tie's words say it
    stands by his decision, and the players' entry pages say he corrected it (not only "confirmed")."""
    division, playoff, match, (entering, other) = _entered_by_side_0(division_of, as_director)
    other.client.post(f"/play/pairings/playoff/{match.pk}/dispute/", {"reason": "I won the game"})
    assert "Corrected results" not in Client().get(public(division)).content.decode()
    url = f"/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"
    client = director_client(director)
    done = client.post(url, {
        "action": "replace-result", "replace-result-game_number": "1", "replace-result-winner": "1",
        "replace-result-kind": "1", "replace-result-cube_value": "1", "replace-result-reason": "the scoresheet says so",
        "replace-result-expected_seq": str(Match.objects.get(pk=match.pk).seq),
    })  # fmt: skip
    assert done.status_code == 302
    said = client.get(url).content.decode()
    b_name = match.player2.display_name
    assert f"The result of game 1 is replaced: {b_name} wins the match, 0-1; what follows from it" in said
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    playoff.refresh_from_db()
    assert (playoff.final_correction, playoff.final_confirmation, playoff.status) == (
        "the scoresheet says so",
        "confirmed",
        "finished",
    )
    a, b = match.player1.display_name, match.player2.display_name
    html = Client().get(public(division)).content.decode()
    assert "Corrected results" in html
    assert f"Playoff for the tie at 2nd: {a} v {b}: the director corrected the result (the scoresheet says so)." in html
    kept = '<span class="kept-score">1-0</span>'
    assert f"settled by a playoff: {b} beat {a} {kept} (decided by the director: the scoresheet says so)." in html
    for phone in (entering, other):
        page_ = phone.page()
        assert "The director corrected the result (the scoresheet says so): it stands by his decision." in page_
        assert "The result is confirmed." not in page_


def test_the_public_playoff_note_shows_the_running_score_and_drops_the_length_once_a_result_is_in(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """While the playoff's match is played its note says the score and the length it is played to ("A v B, 1-1, to
    3 points"); once a result waits for a confirmation the score says it all: no trailing ", 3 points"."""
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    match = Match.objects.select_related("player1", "player2").get(pk=playoff.final_match_id)
    one, two = match.player1.display_name, match.player2.display_name
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PROGRESS, score1=1, score2=1)
    kept = '<span class="kept-score">1-1</span>'
    html = Client().get(public(division)).content.decode()
    assert f"Tie at 2nd: a playoff is ordered ({one} v {two}, {kept}, to 3 points)." in html

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, score1=3, score2=1, winner=match.player1)
    Playoff.objects.filter(pk=playoff.pk).update(final_confirmation="awaiting", final_confirmation_side=1)
    html = Client().get(public(division)).content.decode()
    said = f'{one} beat {two} <span class="kept-score">3-1</span>, waiting for {two}&#x27;s confirmation).'
    assert f"Tie at 2nd: a playoff is ordered ({said}" in html


def test_the_directors_event_page_says_a_playoff_is_to_be_played_not_that_the_event_is_closed(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    """The rounds are over (the division and the event are stored as finished) but a playoff is ordered: the
    dashboard's badges say "playoff to play" and neither "closed" line shows until the playoff is settled."""
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b])
    client = director_client(director)
    url = f"/manage/{division.event.slug}/"
    html = client.get(url).content.decode()
    assert '<span class="badge">playoff to play</span>' in html and '<span class="badge">finished</span>' not in html
    assert "The event is closed" not in html
    assert "a playoff for a tie is to be played" in html
    division_html = client.get(page(division)).content.decode()
    assert '<span class="badge">playoff to play</span>' in division_html

    win(playoff.final_match, b, as_director)
    html = client.get(url).content.decode()
    assert "playoff to play" not in html and '<span class="badge">finished</span>' in html
    assert "The event is closed: it takes no new division." in html
    assert "The event is closed: every division has finished." in html
    assert '<span class="badge">finished</span>' in client.get(page(division)).content.decode()
