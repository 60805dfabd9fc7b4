"""The match page's live polling and its move list (games/views.py, games/spectator.py): the list is outside the
live part, and a ``200`` poll carries it whole (the shown game's list, as an htmx out-of-band swap), so that the
live part's address names nothing of what the client shows: every spectator of a match polls the same address,
which stays the same while moves are entered (what a shared cache in front needs, deploy/nginx/). A poll reads a
game at a time: neither its query count nor its size grows with the match.

The list shows one game (the latest, unless the page was asked for another, which is then named: ``?game=<n>``), and
a client following the latest game is sent the next game's list when it begins. A small client model applies what
a poll sends to the list the page showed, the way htmx does, and must end with the list a reload shows.
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import SYSTEM
from games import services
from games.models import Match

pytestmark = pytest.mark.django_db

LIVE_URL = re.compile(r'<section id="live"[^>]*? hx-get="([^"]+)"')
GAME_LIST = re.compile(r'<ol class="moves" id="moves-game-(\d+)-list"[^>]*>(.*?)</ol>', re.S)
ITEM = re.compile(r'<li id="move-(\d+)">')
WHOLE_LIST = re.compile(r'<nav id="move-list"[^>]*hx-swap-oob="true">.*?</nav>', re.S)


@dataclass
class Shown:
    """What a client shows: the move list (game -> item seqs, in order), the live part's poll URL and ETag."""

    games: dict[int, list[int]]
    poll: str
    etag: str

    @property
    def seqs(self) -> list[int]:
        return [seq for items in self.games.values() for seq in items]


def parse_list(text: str) -> dict[int, list[int]]:
    return {int(game): [int(s) for s in ITEM.findall(items)] for game, items in GAME_LIST.findall(text)}


def live_of(text: str) -> tuple[str, str]:
    found = LIVE_URL.search(text)
    assert found, "the live part polls no URL"
    etag = re.search(r'<section id="live"[^>]*? data-etag="([^"]+)"', text)
    assert etag
    return htmllib.unescape(found.group(1)), htmllib.unescape(etag.group(1))


def open_page(client: Client, match: Match, query: str = "") -> Shown:
    text = client.get(reverse("games:match", args=[match.pk]) + query).content.decode()
    return Shown(parse_list(text), *live_of(text))


def poll(client: Client, shown: Shown) -> tuple[int, str]:
    """Poll as the page does; apply a 200 to ``shown`` as htmx would. Returns the status and the body."""
    response = client.get(shown.poll, HTTP_IF_NONE_MATCH=shown.etag)
    if response.status_code != 200:
        return response.status_code, ""
    text = response.content.decode()
    live_end = text.index("</section>") + len("</section>")
    live, rest = text[:live_end], text[live_end:]
    assert "hx-swap-oob" not in live and 'id="move-' not in live  # the live part itself carries no list items
    shown.poll, shown.etag = live_of(live)
    whole = WHOLE_LIST.search(rest)
    assert whole, "a poll that changed something carries the move list whole"
    shown.games = parse_list(whole.group(0))
    return 200, text


def agrees_with_a_reload(client: Client, match: Match, shown: Shown) -> None:
    reloaded = open_page(client, match)
    assert shown.games == reloaded.games
    assert shown.poll == reloaded.poll


def live_address(match: Match) -> str:
    return reverse("games:match-live", args=[match.pk])


# -- the list follows the match ---------------------------------------------------------------------------------------


def test_every_spectator_polls_one_address_that_stays_the_same_while_moves_are_entered(
    client: Client, new_match: Any, drive: Any
) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=11)
    driver.turns(6)
    early = open_page(client, match)
    assert early.poll == live_address(match)  # nothing of the client's list in the address
    assert len(early.seqs) >= 6 and poll(client, early)[0] == 304
    driver.turns(2)
    late = open_page(client, match)
    assert late.poll == early.poll and late.seqs != early.seqs  # another list shown, the same address
    status, text = poll(client, early)
    assert status == 200 and early.poll == live_address(match)
    assert set(early.seqs) == {int(s) for s in ITEM.findall(text)}  # the whole list of the game, once
    agrees_with_a_reload(client, match, early)
    assert poll(client, early)[0] == poll(client, late)[0] == 304


def test_a_roll_shown_alone_is_replaced_by_its_play(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=12)
    driver.turns(3)
    driver.roll()
    shown = open_page(client, match)
    rolled = shown.seqs[-1]
    assert driver.match.seq == rolled  # the roll is the list's last item until its play comes
    driver.play()
    status, text = poll(client, shown)
    assert status == 200
    assert f'id="move-{rolled}"' not in text  # the roll's item is gone, its play in its place
    assert rolled not in shown.seqs and shown.seqs[-1] == driver.match.seq
    agrees_with_a_reload(client, match, shown)


def test_the_first_moves_and_new_games_reach_a_client_that_had_none(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=13)
    shown = open_page(client, match)
    assert shown.games == {}
    driver.turns(2)
    status, text = poll(client, shown)
    assert status == 200 and '<p id="no-moves">' not in text
    agrees_with_a_reload(client, match, shown)
    while driver.turns(10):  # to the end of game 1 (a bear-off), then into game 2
        pass
    driver.turns(2)
    status, text = poll(client, shown)
    assert status == 200  # the client follows the game being played ...
    assert list(shown.games) == [2] and "?game=1#replay" in text  # ... with a link back to game 1
    assert shown.poll == live_address(match)
    agrees_with_a_reload(client, match, shown)


def test_a_client_showing_an_earlier_game_polls_that_game_s_address_and_keeps_its_list(
    client: Client, new_match: Any, drive: Any
) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=13)
    while driver.turns(10):  # to the end of game 1, then into game 2
        pass
    driver.turns(2)
    shown = open_page(client, match, "?game=1")
    game_one = shown.games[1]
    assert list(shown.games) == [1] and shown.poll == live_address(match) + "?game=1"
    assert open_page(client, match, "?game=2").poll == live_address(match)  # the latest game is followed
    driver.turns(2)
    status, _text = poll(client, shown)
    assert status == 200 and shown.games == {1: game_one} and shown.poll == live_address(match) + "?game=1"


def test_a_correction_or_a_renamed_player_sends_the_whole_list_again(
    client: Client, new_match: Any, drive: Any, cast: Any
) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=14)
    driver.turns(4)
    shown = open_page(client, match)
    services.undo_last_action(match.pk, actor=SYSTEM, reason="wrong play entered")
    status, text = poll(client, shown)
    assert status == 200 and '<nav id="move-list" class="move-list"' in text and 'hx-swap-oob="true"' in text
    agrees_with_a_reload(client, match, shown)
    drive(Match.objects.get(pk=match.pk), seed=15).play()  # the undone play's dice, played again
    assert poll(client, shown)[0] == 200 and shown.games == open_page(client, match).games
    bob = match.player2
    bob.display_name = "Robert"
    bob.save()
    status, text = poll(client, shown)
    assert status == 200 and 'hx-swap-oob="true"' in text and '<span class="who">Robert</span>' in text
    agrees_with_a_reload(client, match, shown)


def test_a_malformed_game_is_refused_with_a_message(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=3)
    drive(match, seed=15).turns(1)
    live = live_address(match)
    for game in ("x", "0", "", "-1", "1" * 13):
        response = client.get(live, {"game": game})
        assert response.status_code == 400, game
        assert "reload the match page" in response.content.decode()
    whole = client.get(live).content.decode()
    assert WHOLE_LIST.search(whole) and parse_list(whole) == open_page(client, match).games


def test_a_scoresheet_match_polls_without_a_list(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    drive(match).result(0, 1)
    text = client.get(reverse("games:match", args=[match.pk])).content.decode()
    url, _ = live_of(text)
    assert url == reverse("games:match-live", args=[match.pk])
    assert "hx-swap-oob" not in client.get(url).content.decode()


# -- size --------------------------------------------------------------------------------------------------------------


def test_a_poll_costs_the_same_queries_for_20_and_2000_actions_and_sends_one_game(
    client: Client, long_moves_match: Callable[..., Match], drive: Any, django_assert_num_queries: Any
) -> None:
    for actions in (20, 2000):
        match = long_moves_match(actions)
        page = client.get(reverse("games:match", args=[match.pk])).content.decode()
        shown = Shown(parse_list(page), *live_of(page))
        assert len(shown.seqs) >= 5  # the latest game's entries
        drive(match, seed=actions).turns(2)
        with django_assert_num_queries(4):  # the match, the log in force, the games, the cube history
            status, text = poll(client, shown)
        assert status == 200
        latest = Match.objects.get(pk=match.pk).games.count()
        assert list(shown.games) == [latest]  # the game being played, whole, and no other
        assert {int(s) for s in ITEM.findall(text)} == set(shown.seqs)
        with django_assert_num_queries(1):
            assert poll(client, shown)[0] == 304
        agrees_with_a_reload(client, match, shown)


# -- long matches ------------------------------------------------------------------------------------------------------


def test_a_renamed_player_or_a_correction_in_a_long_match_sends_the_whole_list(
    client: Client, long_moves_match: Callable[..., Match], drive: Any
) -> None:
    match = long_moves_match(400, seed=8)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    shown = Shown(parse_list(page), *live_of(page))
    assert list(shown.games) == [Match.objects.get(pk=match.pk).games.count()]  # the latest game's list
    alice = match.player1
    alice.display_name = "Alicia"
    alice.save()
    status, text = poll(client, shown)
    assert status == 200 and 'hx-swap-oob="true"' in text and text.count("Alicia") > 5  # the game's list again
    agrees_with_a_reload(client, match, shown)

    driver = drive(Match.objects.get(pk=match.pk), seed=4)
    driver.turns(2)
    assert poll(client, shown)[0] == 200  # the client shows the play the director then undoes
    services.undo_last_action(match.pk, actor=SYSTEM, reason="wrong play entered")
    status, text = poll(client, shown)
    assert status == 200 and 'hx-swap-oob="true"' in text
    agrees_with_a_reload(client, match, shown)
