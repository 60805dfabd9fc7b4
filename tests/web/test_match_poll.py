"""The match page's live polling and its move list (games/views.py, games/spectator.py): the list is outside the
live part, a poll sends only the entries added since the list the client shows (as htmx out-of-band swaps), and
neither the query count nor the size of a poll grows with the match.

The list shows one game (the latest, unless the page was asked for another), and a client following the latest
game is sent the next game's list when it begins. A small client model applies what a poll sends to the list the
page showed, the way htmx does (delete an item, add items at the end of the game's list, or take a whole list),
and must end with the list a reload shows.
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

from games import services
from games.access import SYSTEM
from games.models import Match

pytestmark = pytest.mark.django_db

LIVE_URL = re.compile(r'<section id="live"[^>]*? hx-get="([^"]+)"')
GAME_LIST = re.compile(r'<ol class="moves" id="moves-game-(\d+)-list"[^>]*>(.*?)</ol>', re.S)
ITEM = re.compile(r'<li id="move-(\d+)">')


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


def open_page(client: Client, match: Match) -> Shown:
    text = client.get(reverse("games:match", args=[match.pk])).content.decode()
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
    whole = re.search(r'<nav id="move-list"[^>]*hx-swap-oob="true">.*?</nav>', rest, re.S)
    if whole:
        shown.games = parse_list(whole.group(0))
        return 200, text
    for seq in re.findall(r'<li id="move-(\d+)" hx-swap-oob="delete"></li>', rest):
        for items in shown.games.values():
            if int(seq) in items:
                items.remove(int(seq))
    for game, items in re.findall(r'<div hx-swap-oob="beforeend:#moves-game-(\d+)-list">(.*?)</div>', rest, re.S):
        assert int(game) in shown.games, f"no list of game {game} to add to"
        shown.games[int(game)].extend(int(s) for s in ITEM.findall(items))
    added = re.search(r'<div hx-swap-oob="beforeend:#move-list">(.*?)</div>', rest, re.S)
    if added:
        for game, items in parse_list(added.group(1)).items():
            assert game not in shown.games, f"game {game} listed twice"
            shown.games[game] = items
    return 200, text


def agrees_with_a_reload(client: Client, match: Match, shown: Shown) -> None:
    reloaded = open_page(client, match)
    assert shown.games == reloaded.games
    assert shown.poll == reloaded.poll


# -- the list follows the match ---------------------------------------------------------------------------------------


def test_a_poll_sends_only_the_entries_added_since_the_clients_list(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=11)
    driver.turns(6)
    shown = open_page(client, match)
    before = set(shown.seqs)
    assert len(before) >= 6
    assert poll(client, shown)[0] == 304
    driver.turns(2)
    status, text = poll(client, shown)
    assert status == 200
    sent = {int(s) for s in re.findall(r'id="move-(\d+)"', text)}
    assert sent and not sent & before  # nothing the client already shows is sent again
    assert set(shown.seqs) - before == sent
    agrees_with_a_reload(client, match, shown)
    assert poll(client, shown)[0] == 304


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
    assert f'<li id="move-{rolled}" hx-swap-oob="delete"></li>' in text
    assert rolled not in shown.seqs and shown.seqs[-1] == driver.match.seq
    agrees_with_a_reload(client, match, shown)


def test_the_first_moves_and_new_games_reach_a_client_that_had_none(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=7)
    driver = drive(match, seed=13)
    shown = open_page(client, match)
    assert shown.games == {}
    driver.turns(2)
    status, text = poll(client, shown)
    assert status == 200 and '<p id="no-moves" hx-swap-oob="delete"></p>' in text
    agrees_with_a_reload(client, match, shown)
    while driver.turns(10):  # to the end of game 1 (a bear-off), then into game 2
        pass
    driver.turns(2)
    status, text = poll(client, shown)
    assert status == 200 and 'hx-swap-oob="true"' in text  # the client follows the game being played ...
    assert list(shown.games) == [2] and "?game=1#replay" in text  # ... with a link back to game 1
    agrees_with_a_reload(client, match, shown)


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


def test_a_malformed_list_key_is_refused_with_a_message(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=3)
    drive(match, seed=15).turns(1)
    live = reverse("games:match-live", args=[match.pk])
    for query in (
        {"game": "1", "after": "x", "list": "0" * 16},
        {"game": "1", "after": "3"},
        {"game": "1", "list": "0" * 16},
        {"game": "1", "after": "3", "list": "a"},
        {"after": "3", "list": "0" * 16},
        {"game": "one", "after": "3", "list": "0" * 16},
    ):
        response = client.get(live, query)
        assert response.status_code == 400, query
        assert "reload the match page" in response.content.decode()
    assert client.get(live).status_code == 200  # without a key: the live part alone
    assert "hx-swap-oob" not in client.get(live).content.decode()


def test_a_scoresheet_match_polls_without_a_list(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    drive(match).result(0, 1)
    text = client.get(reverse("games:match", args=[match.pk])).content.decode()
    url, _ = live_of(text)
    assert url == reverse("games:match-live", args=[match.pk])
    assert "hx-swap-oob" not in client.get(url).content.decode()


# -- size --------------------------------------------------------------------------------------------------------------


def test_a_poll_costs_the_same_queries_and_size_for_20_and_2000_actions(
    client: Client, long_moves_match: Callable[..., Match], drive: Any, django_assert_num_queries: Any
) -> None:
    sizes = {}
    for actions in (20, 2000):
        match = long_moves_match(actions)
        page = client.get(reverse("games:match", args=[match.pk])).content.decode()
        shown = Shown(parse_list(page), *live_of(page))
        assert len(shown.seqs) >= 5  # the latest game's entries
        before = set(shown.seqs)
        drive(match, seed=actions).turns(2)
        with django_assert_num_queries(4):  # the match, the log in force, the games, the cube history
            status, text = poll(client, shown)
        assert status == 200
        sent = {int(s) for s in re.findall(r'<li id="move-(\d+)">', text)}
        assert sent and not sent & before  # only the new entries
        assert f"?at={min(before)}#replay" not in text  # no link to an early move at all
        with django_assert_num_queries(1):
            assert poll(client, shown)[0] == 304
        agrees_with_a_reload(client, match, shown)
        sizes[actions] = (len(text), len(page))
    small, big = sizes[20], sizes[2000]
    assert big[0] < 1.5 * small[0]  # a poll sends the new entries only (and the live part: score, board, games)


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
