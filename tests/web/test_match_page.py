"""The spectator match page (games/views.py): the page for move-by-move and scoresheet matches, the board after
any entry (``?at=``), the live part with its ETag and 304, privacy, the .mat download, escaping, no entry token on
a public page, and query counts that do not grow with the match.

Matches are built through the services: played action by action by the games app's driver, or imported from a
real match log of the shared corpus (skipped, naming the folder, when the corpus is not beside the project).
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine.formats.check import check_text
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.position import Position
from games import access, services
from games.models import Action, Match
from tests.engine.corpus import CORPUS

pytestmark = pytest.mark.django_db

LONG_LOG = CORPUS / "lassehjorthmadsen__backgammon" / "lasse" / "raw" / "match8170603.txt"  # 17 points, 1012 actions
SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script>"


# -- matches ---------------------------------------------------------------------------------------------------------


def _refresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def moves_match(new_match: Any, drive: Any) -> Match:
    """A 7-point match: game 1 played out with a double taken, game 2 two turns in."""
    match = new_match(length=7)
    driver = drive(match, seed=3)
    driver.play_out(double_when=lambda d: d.game.cube.value == 1 and d.game.moves_played >= 4)
    driver.turns(2)
    return _refresh(match)


@pytest.fixture
def scoresheet_match(new_match: Any, drive: Any) -> Match:
    """A 5-point scoresheet match at 4-4 after the Crawford game: Alice 1, Bob a 2-cube gammon, Alice the Crawford
    game, Alice a 2-cube single."""
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    driver = drive(match)
    driver.result(0, 1)
    driver.result(1, 2, 2)
    driver.result(0, 1)
    driver.result(0, 1, 2)
    return _refresh(match)


@pytest.fixture
def long_match() -> Match:
    """A real 17-point match of 18 games and 1012 actions, imported through ``services.import_match``."""
    if not LONG_LOG.exists():
        pytest.skip(f"the shared match-log corpus is missing: {CORPUS}")
    replay = replay_record(read_mat(LONG_LOG.read_bytes()))
    assert replay.ok
    return services.import_match(
        players=replay.record.players,
        length=replay.record.match_length,
        variant=replay.variant.name,
        crawford=replay.crawford_rule,
        games=[game.actions for game in replay.games],
        source="corpus",
    )


def url(name: str, match: Match) -> str:
    return reverse(f"games:{name}", args=[match.pk])


def first_play(match: Match) -> Action:
    return Action.objects.filter(match=match, kind=Action.Kind.PLAY).exclude(play="").order_by("seq").first()


def svg_of(html: str, uid: str) -> ElementTree.Element:
    found = re.search(rf'<svg[^>]*aria-labelledby="{uid}-title.*?</svg>', html, re.S)
    assert found, f"no board {uid!r} in the page"
    return ElementTree.fromstring(found.group(0))


def checker_counts(root: ElementTree.Element) -> dict[tuple[str, str, str | None], int]:
    return {
        (g.get("data-side", ""), g.get("data-where", ""), g.get("data-point")): int(g.get("data-count", "0"))
        for g in root.iter(f"{SVG}g")
        if g.get("data-where") and int(g.get("data-count", "0"))
    }


def position_counts(position: Position) -> dict[tuple[str, str, str | None], int]:
    out: dict[tuple[str, str, str | None], int] = {}
    for side, slots in (("bottom", position.me), ("top", position.opp)):
        for own in range(1, 25):
            if slots[own]:
                out[(side, "point", str(own if side == "bottom" else 25 - own))] = slots[own]
        for slot, where in ((25, "bar"), (0, "off"), (26, "waiting")):
            if slots[slot]:
                out[(side, where, None)] = slots[slot]
    return out


# -- the page --------------------------------------------------------------------------------------------------------


def test_the_page_of_a_move_by_move_match(client: Client, moves_match: Match) -> None:
    response = client.get(url("match", moves_match))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1>Alice <span class="vs">vs</span> Bob</h1>' in html
    assert "7-point match" in html and "Backgammon" in html and "in progress" in html
    assert f"{moves_match.score1}</strong>" in html
    # game 1's result with its cube, the cube history, the chance figure and chart
    assert "Cube history" in html and "taken" in html
    assert re.search(r"(Alice|Bob) \d+% to win the match", html)
    assert 'id="chart-title"' in html
    # the live board and the latest game's move list, one link per entry, each working without JavaScript
    live = svg_of(html, "live")
    assert sum(checker_counts(live).values()) == 30
    links = re.findall(r'<a href="/matches/\d+/\?at=(\d+)#replay" data-seq="\1"', html)
    plays = Action.objects.filter(match=moves_match, kind=Action.Kind.PLAY, game_number=2).count()
    assert len(links) >= plays and 'id="moves-game-2-list"' in html and 'id="moves-game-1-list"' not in html
    assert f'href="/matches/{moves_match.pk}/?game=1#replay"' in html  # game 1's moves are a link away
    game_1 = client.get(url("match", moves_match), {"game": 1}).content.decode()
    assert 'id="moves-game-1-list"' in game_1 and 'id="moves-game-2-list"' not in game_1
    assert 'id="replay-board"' in html and 'aria-labelledby="replay-title' not in html  # no ?at=: no replay board yet
    assert reverse("games:match-mat", args=[moves_match.pk]) in html


def test_the_page_has_no_inline_script_and_nothing_from_another_site(client: Client, moves_match: Match) -> None:
    html = client.get(url("match", moves_match)).content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == [
        '<script src="/static/vendor/htmx/htmx.min.js" defer>',
        '<script src="/static/js/match-viewer.js" defer>',
        '<script src="/static/js/connection.js" defer>',
        '<script src="/static/js/tables.js" defer>',
    ]
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html)
    assert ' hx-get="/matches/' in html and 'hx-trigger="every 3s"' in html


def test_the_page_of_a_scoresheet_match(client: Client, scoresheet_match: Match) -> None:
    html = client.get(url("match", scoresheet_match)).content.decode()
    assert "game results only" in html
    assert "4</strong>" in html
    rows = re.findall(r'<th scope="row"[^>]*>(\d+)', html)
    assert rows == ["1", "2", "3", "4"]
    assert "gammon" in html and "Crawford" in html
    assert "post-Crawford" in html
    assert "Alice 50% to win the match" in html  # 1-away against 1-away
    assert 'id="move-list"' not in html and "<svg" in html  # the chart, but no board and no move list
    assert 'aria-labelledby="live-title' not in html
    # nobody rolls in a scoresheet match: the page says the game is being played, not that it waits for a roll
    assert "Game 5 is being played: its result is entered when it ends" in html
    assert "opening roll" not in html


def test_a_scoresheet_match_not_started_says_so_not_that_game_1_is_being_played(client: Client, new_match: Any) -> None:
    """Its badge said "not started" beside "Game 1 is being played: ..." (a match called to its table)."""
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    html = client.get(url("match", match)).content.decode()
    assert "Not started yet: each game&#x27;s result is entered when the game ends" in html
    assert "is being played" not in html


def test_the_page_of_a_casual_match_shows_no_cube(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=3, casual=True)
    driver = drive(match, seed=3)
    driver.play_out()
    driver.turns(2)
    html = client.get(url("match", match)).content.decode()
    assert "3-point match" in html and "casual: no cube, every game one point" in html
    assert ">Cube<" not in html and "Cube history" not in html and "Crawford" not in html  # the board's text too
    assert '<g class="cube"' not in html and "A casual game: no doubling cube." in html
    assert re.search(r'<td data-label="Result">single</td><td data-label="Points">1</td>', html)


def _won_lost_won_won(new_match: Any, drive: Any, **options: Any) -> tuple[Match, list[str]]:
    """A 3-point scoresheet match in which Alice wins games 1, 3 and 4 and Bob game 2, and the page's
    "Alice's match chance after" figures after game 3 (the live figure) and at the end (the games table)."""
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET, **options)
    driver = drive(match)
    for winner in (0, 1, 0):
        driver.result(winner, 1)
    client = Client()
    live = re.search(r"(Alice|Bob) (\d+)% to win the match", client.get(url("match", match)).content.decode())
    assert live is not None
    driver.result(0, 1)
    html = client.get(url("match", match)).content.decode()
    after = re.findall(r"""<td data-label="Alice's match chance after">(\d+%)</td>""", html)
    return match, [f"{live[1]} {live[2]}%", *after]


def test_a_casual_match_shows_the_race_to_n_chances(new_match: Any, drive: Any) -> None:
    """No cube, every game a point: each game a coin toss, 1-0 in a 3-point match is 68.75% (shown 69%), 1-1 50%,
    2-1 75%; not the Kazaross-XG2 table's figures (60%, 50%, 68%)."""
    _, figures = _won_lost_won_won(new_match, drive, casual=True)
    assert figures == ["Alice 75%", "69%", "50%", "75%", "100%"]


def test_a_match_with_a_cube_still_shows_the_tables_chances(new_match: Any, drive: Any) -> None:
    _, figures = _won_lost_won_won(new_match, drive)
    assert figures == ["Alice 68%", "60%", "50%", "68%", "100%"]  # Kazaross-XG2: 2 v 3-away, 1 v 1, the Crawford game


def test_at_shows_the_board_after_that_entry(client: Client, moves_match: Match) -> None:
    row = first_play(moves_match)
    html = client.get(url("match", moves_match), {"at": row.seq}).content.decode()
    assert f'id="replay-board" class="replay-board" data-seq="{row.seq}"' in html
    assert f'href="/matches/{moves_match.pk}/?at={row.seq}#replay" data-seq="{row.seq}" aria-current="step"' in html
    board = svg_of(html, "replay")
    last = next(g for g in board.iter(f"{SVG}g") if g.get("class") == "last-play")
    assert last.get("data-play") == row.play
    assert next(g for g in board.iter(f"{SVG}g") if g.get("class") == "dice") is not None
    # the board is the position the services stored after that row (seen by Alice, side 0, at the bottom)
    stored = Position.from_gnubg_id(row.position_id)  # the player on roll after the play is its mover
    seen_by_alice = stored if row.side == 1 else stored.swapped()
    assert checker_counts(board) == position_counts(seen_by_alice)
    assert 'data-step="next"' in html and 'rel="next"' in html


def test_the_board_fragment_and_unknown_entries(client: Client, moves_match: Match) -> None:
    row = first_play(moves_match)
    response = client.get(url("match-board", moves_match), {"at": row.seq})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="replay-board"') and "<html" not in html
    assert svg_of(html, "replay") is not None
    assert client.get(url("match-board", moves_match), {"at": 99999}).status_code == 404
    assert client.get(url("match-board", moves_match)).status_code == 404
    page = client.get(url("match", moves_match), {"at": "nonsense"})
    assert page.status_code == 200 and 'aria-labelledby="replay-title' not in page.content.decode()


# -- live ------------------------------------------------------------------------------------------------------------


def test_live_answers_200_then_304_with_its_etag_and_200_again_after_a_write(
    client: Client, new_match: Any, drive: Any, django_assert_num_queries: Any
) -> None:
    match = new_match(length=5)
    driver = drive(match, seed=1)
    driver.turns(3)
    first = client.get(url("match-live", match))
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and first["Cache-Control"] == "public, max-age=0, s-maxage=1"
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    with django_assert_num_queries(1):
        again = client.get(url("match-live", match), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert client.get(url("match-live", match), HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    assert client.get(url("match-live", match), HTTP_IF_NONE_MATCH='"other"').status_code == 200
    driver.roll()
    changed = client.get(url("match-live", match), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_finished_match_stops_polling(client: Client, scoresheet_match: Match, drive: Any) -> None:
    drive(scoresheet_match).result(1, 1)
    html = client.get(url("match-live", scoresheet_match)).content.decode()
    assert "Bob won the match" in html and "hx-trigger" not in html


# -- access, download, escaping ---------------------------------------------------------------------------------------


def test_a_private_match_is_404_to_those_who_may_not_read_it(client: Client, new_match: Any, cast: Any) -> None:
    match = new_match(length=3, private=True)
    names = ("match", "match-live", "match-mat", "match-sgf")
    for name in names:
        assert client.get(url(name, match)).status_code == 404, name
    assert client.get(url("match-board", match), {"at": 1}).status_code == 404
    client.force_login(cast.stranger)
    assert all(client.get(url(name, match)).status_code == 404 for name in names)
    for reader in (cast.director, cast.alice_user, cast.staff):
        client.force_login(reader)
        assert all(client.get(url(name, match)).status_code == 200 for name in names)
    assert client.get(url("match-live", match))["Cache-Control"] == "private, no-cache"


def test_an_unknown_match_is_404(client: Client) -> None:
    assert client.get("/matches/987654/").status_code == 404


def test_the_mat_download_passes_the_engines_check(client: Client, moves_match: Match) -> None:
    response = client.get(url("match-mat", moves_match))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="match-{moves_match.pk}.mat"'
    report, _, unreadable = check_text(response.content, shown_as="download.mat")
    assert not unreadable and report["ok"], report
    assert report["players"] == ["Alice", "Bob"] and report["match_length"] == 7


def test_the_mat_download_of_a_casual_match_says_so_and_passes_the_check(
    client: Client, new_match: Any, drive: Any
) -> None:
    """A casual game borne off against a gammon counted one point: the file says the match is casual (gnubg's
    CubeLimit 1 for the cube, the Casual tag for the points), so the check and the import read it as played (the
    download was refused before: the writer scored that game as a gammon and the match ended too soon)."""
    match = new_match(length=3, casual=True)
    driver = drive(match, seed=0)  # game 1 is borne off against a gammon
    while _refresh(match).status != Match.Status.FINISHED:
        driver.play_out()
    match = _refresh(match)
    response = client.get(url("match-mat", match))
    assert response.status_code == 200, response.content
    text = response.content.decode()
    assert '; [CubeLimit "1"]' in text and '; [Casual "On"]' in text and "Doubles" not in text
    report, _, unreadable = check_text(response.content, shown_as="casual.mat")
    assert not unreadable and report["ok"], report
    assert report["score"] == [match.score1, match.score2] == [1, 3]
    again = services.import_log(replay_record(read_mat(response.content)), source="test")
    assert again.casual and (again.score1, again.score2) == (match.score1, match.score2)


def test_the_sgf_download_is_beside_the_mat_one_with_the_same_headers(client: Client, moves_match: Match) -> None:
    page = client.get(url("match", moves_match)).content.decode()
    assert f'href="{url("match-mat", moves_match)}"' in page and f'href="{url("match-sgf", moves_match)}"' in page
    response = client.get(url("match-sgf", moves_match))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="match-{moves_match.pk}.sgf"'
    text = response.content.decode()
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]AP[bgmatch]MI[length:7][game:0][ws:0][bs:0]PW[Alice]PB[Bob]")
    assert text.count("(;FF[4]GM[6]") == 2  # game 1 played out, game 2 under way
    assert re.search(r"\n;[WB]\[double\]\n;[WB]\[take\]", text)
    api = APIClient().get(f"/api/matches/{moves_match.pk}/export.sgf")
    assert api.status_code == 200 and api.content == response.content
    assert api["Content-Disposition"] == response["Content-Disposition"]


def test_the_sgf_download_refuses_what_sgf_cannot_hold(client: Client, new_match: Any) -> None:
    acey = new_match(length=3, variant="acey-deucey")
    response = client.get(url("match-sgf", acey))
    assert response.status_code == 409 and "Acey-Deucey" in response.content.decode()
    api = APIClient().get(f"/api/matches/{acey.pk}/export.sgf")
    assert api.status_code == 409 and api.json()["code"] == "conflict" and "Acey-Deucey" in api.json()["message"]


def test_the_mat_download_of_an_imported_match_gives_back_its_score(client: Client, long_match: Match) -> None:
    report, _, _ = check_text(client.get(url("match-mat", long_match)).content, shown_as="long.mat")
    assert report["ok"] and report["score"] == [long_match.score1, long_match.score2]
    assert report["winner"] == long_match.winner.display_name


def test_player_names_are_always_escaped(client: Client, drive: Any, cast: Any) -> None:
    evil = services.create_player(display_name=EVIL)
    match = services.start_match(player1=evil, player2=cast.bob, length=3)
    driver = drive(match, seed=2)
    driver.play_out(double_when=lambda d: d.game.cube.value == 1 and d.game.moves_played >= 2)
    row = first_play(match)
    pages = [
        client.get(url("match", match), {"at": row.seq}),
        client.get(url("match-live", match)),
        client.get(url("match-board", match), {"at": row.seq}),
    ]
    for response in pages:
        html = response.content.decode()
        assert EVIL not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    svg_of(pages[0].content.decode(), "replay")  # still well-formed


def test_no_entry_token_on_a_public_page(client: Client, moves_match: Match) -> None:
    token = access.new_entry_token(moves_match, 0)
    secret = access.token_text(token)
    row = first_play(moves_match)
    for response in (
        client.get(url("match", moves_match), {"at": row.seq}),
        client.get(url("match-live", moves_match)),
        client.get(url("match-board", moves_match), {"at": row.seq}),
        client.get(url("match-mat", moves_match)),
    ):
        body = response.content.decode()
        assert secret not in body and token.nonce not in body


# -- query counts ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["moves_match", "long_match", "scoresheet_match"])
def test_query_counts_do_not_grow_with_the_match(
    client: Client, which: str, request: pytest.FixtureRequest, django_assert_num_queries: Any
) -> None:
    match = request.getfixturevalue(which)
    row = Action.objects.filter(match=match).order_by("-seq").first()
    # the match with its last action, the log in force, the games, the cube; where it was played (its pairing, a
    # playoff, or the event it was imported into) for the breadcrumb
    with django_assert_num_queries(7):
        assert client.get(url("match", match), {"at": row.seq}).status_code == 200
    with django_assert_num_queries(4):
        response = client.get(url("match-live", match))
    with django_assert_num_queries(1):
        assert client.get(url("match-live", match), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    if match.entry_mode == Match.EntryMode.MOVES:
        play = first_play(match)
        with django_assert_num_queries(3):  # no cube history
            assert client.get(url("match-board", match), {"at": play.seq}).status_code == 200
    with django_assert_num_queries(2):
        assert client.get(url("match-mat", match)).status_code == 200


def test_a_money_session_has_no_match_chances(client: Client, new_match: Any, drive: Any) -> None:
    match = new_match(length=0)
    drive(match, seed=4).turns(2)
    html = client.get(url("match", match)).content.decode()
    assert "Money session" in html
    assert "to win the match" not in html and 'id="chart-title"' not in html


def test_an_acey_deucey_match_shows_its_waiting_checkers_and_offers_no_mat(
    client: Client, new_match: Any, drive: Any
) -> None:
    match = new_match(length=3, variant="acey-deucey")
    html = client.get(url("match", match)).content.decode()
    assert "Acey-Deucey" in html and "Download the match log" not in html
    assert "<svg" not in html  # nothing has happened yet: no board
    drive(match, seed=5).turn()
    html = client.get(url("match", match)).content.decode()
    live = svg_of(html, "live")
    waiting = {
        g.get("data-side"): int(g.get("data-count")) for g in live.iter(f"{SVG}g") if g.get("data-where") == "waiting"
    }
    assert max(waiting.values()) == 15 and min(waiting.values()) < 15  # the opening winner entered some
    assert client.get(url("match-mat", match)).status_code == 409


def test_a_result_waiting_for_its_confirmation_or_disputed_says_so_on_the_match_page(
    division_of: Any, as_director: Any
) -> None:
    """A tester saw "finished · Anna Holm won the match" while David had not confirmed, and after he disputed."""
    from tests.tournaments.api.support import enter_result
    from tournaments import services
    from tournaments.models import Pairing

    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    pairing = enter_result(Pairing.objects.filter(division=division).order_by("board").first(), winner=0)
    assert pairing.confirmation == Pairing.Confirmation.AWAITING
    html = Client().get(f"/matches/{pairing.match_id}/").content.decode()
    assert "waiting for the opponent&#x27;s confirmation" in html or "waiting for the opponent's confirmation" in html
    Pairing.objects.filter(pk=pairing.pk).update(confirmation=Pairing.Confirmation.DISPUTED)
    assert "disputed: a director decides" in Client().get(f"/matches/{pairing.match_id}/").content.decode()
