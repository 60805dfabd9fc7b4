"""The players' entry pages (games/entry.py, tournaments/entry_views.py): the entry link exchanged for a session
and a redirect, refusals of bad and revoked links and of visitors who hold no side, a match played through the
forms (opening roll, plays typed in notation, rolls, the cube, resignations), refusals that show the engine's
message and store nothing, stale sequence numbers, double submits, the scoresheet, the tournaments panel
(confirm or dispute by the other side, the next match), the live part's ETag and 304, and the HTML conventions
(no token in any page, no inline script or style, labels, escaping, constant query counts).

Matches are built and advanced through the services (tests/games/conftest.py); the pages are driven with Django's
test client, one client per player, each holding its own entry link as a phone would.
"""

from __future__ import annotations

import json
import re
import uuid
from html import escape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from common.actor import SYSTEM, Actor
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.game import Phase
from engine.movegen import legal_plays
from engine.position import Position
from games import access, services
from games.engine_bridge import load_state
from games.entry import tap_tree
from games.models import Action, EntryToken, Match
from games.selectors import live_state
from tests.engine.corpus import CORPUS
from tests.games.conftest import footprint
from tests.tournaments.services.support import director_win
from tournaments import services as tournaments
from tournaments.models import Division, Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
STALE = "Your opponent moved first: check the board and enter again."
LONG_LOG = CORPUS / "lassehjorthmadsen__backgammon" / "lasse" / "raw" / "match8170603.txt"


# -- helpers ---------------------------------------------------------------------------------------------------------


class Phone:
    """A player's phone: a test client that opened one side's entry link, and every page it was shown."""

    def __init__(self, match: Match, side: int, *, client: Client | None = None) -> None:
        self.match_id = match.pk
        self.client = client or Client()
        self.token = access.new_entry_token(match, side)
        self.secret = access.token_text(self.token)
        self.side = side
        self.seen: list[str] = []
        response = self.client.get(f"/play/{self.secret}/")
        assert response.status_code == 302, response.status_code
        assert response["Location"] == f"/play/match/{match.pk}/"

    @property
    def url(self) -> str:
        return f"/play/match/{self.match_id}/"

    def page(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.status_code
        return self.keep(response)

    def keep(self, response: Any) -> str:
        body = response.content.decode()
        self.seen.append(body)
        return body

    def post(self, kind: str, *, seq: int | None = None, key: str | None = None, **fields: Any) -> Any:
        """POST a form of the page as the browser would (the current sequence number unless ``seq`` is given)."""
        data = {
            "kind": kind,
            "side": self.side,
            "expected_seq": current(self.match_id).seq if seq is None else seq,
            "idempotency_key": key or uuid.uuid4().hex,
            **fields,
        }
        response = self.client.post(self.url, data)
        self.keep(response)
        return response


def current(match: Match | int) -> Match:
    return Match.objects.select_related("player1", "player2").get(pk=match if isinstance(match, int) else match.pk)


def kinds(match: Match) -> list[str]:
    return list(Action.objects.filter(match=match).order_by("seq").values_list("kind", flat=True))


BESIDE = ("take-back", "ask-correction", "answer-correction")


def forms_of(html: str) -> list[str]:
    """The ``kind`` of every entry form on a page, in order (the take-back, offered beside them, left out)."""
    return [k for k in re.findall(r'<input type="hidden" name="kind" value="([^"]+)">', html) if k not in BESIDE]


def ok(response: Any, match: Match) -> None:
    assert response.status_code == 303, (response.status_code, error_of(response.content.decode()))
    assert response["Location"] == f"/play/match/{match.pk}/"


def error_of(html: str) -> str:
    found = re.search(r'<div class="entry-error" role="alert"><p>(.*?)</p></div>', html, re.S)
    return found.group(1) if found else ""


def taps_of(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="entry-taps" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no tap data on the page"
    return json.loads(found.group(1))


# -- the entry link --------------------------------------------------------------------------------------------------


def test_the_entry_link_is_kept_in_the_session_and_left_behind_by_a_redirect(new_match: Any) -> None:
    match = new_match(length=5)
    phone = Phone(match, 1)
    assert phone.client.session["entry_tokens"] == [phone.token.pk]
    html = phone.page()
    assert "You enter for Bob." in html
    assert phone.secret not in html and phone.token.nonce not in html
    # The same link again: kept once; a second link (the other side, a shared board) is added.
    assert phone.client.get(f"/play/{phone.secret}/").status_code == 302
    other = Phone(match, 0, client=phone.client)
    assert phone.client.session["entry_tokens"] == [phone.token.pk, other.token.pk]
    assert "This phone enters for both players" in phone.page()


@pytest.mark.parametrize("text", ["nonsense", "1.0.abc:forged", "next"])
def test_a_bad_link_gets_a_clear_403(client: Client, text: str) -> None:
    response = client.get(f"/play/{text}/", follow=True)
    assert response.redirect_chain == [("/play/refused/", 303)], "the refused link leaves the address bar"
    assert response.status_code == 403
    html = response.content.decode()
    assert "This entry link is not valid: typed from a slip, check every character" in html
    assert "Ask the director for a new link." in html
    assert "entry_tokens" not in client.session


def test_a_revoked_link_is_refused_at_the_door_and_on_the_page(new_match: Any) -> None:
    match = new_match(length=5)
    phone = Phone(match, 0)
    access.revoke_entry_token(phone.token)
    response = phone.client.get(f"/play/{phone.secret}/", follow=True)
    assert response.redirect_chain == [("/play/refused/", 303)] and response.status_code == 403
    assert "Ask the director for a new link." in response.content.decode()
    assert phone.client.get(phone.url).status_code == 403
    told = phone.client.get(f"{phone.url}live/")  # the page's poll is told, and its forms go away
    assert told.status_code == 200 and "The director gave a new entry link" in told.content.decode()
    assert "<form" not in told.content.decode()
    before = footprint(match.pk)
    response = phone.client.post(phone.url, {"kind": "opening-roll", "die1": 3, "die2": 1, "expected_seq": 0})
    assert response.status_code == 403
    assert footprint(match.pk) == before


def test_a_players_account_works_without_a_link_and_nobody_else_gets_in(
    client: Client, new_match: Any, cast: Any
) -> None:
    match = new_match(length=5)
    url = f"/play/match/{match.pk}/"
    assert client.get(url).status_code == 403
    client.force_login(cast.stranger)
    assert client.get(url).status_code == 403
    assert client.get(f"{url}live/").status_code == 403
    client.force_login(cast.bob_user)
    html = client.get(url).content.decode()
    assert "You enter for Bob." in html
    response = client.post(url, {"kind": "opening-roll", "die1": 2, "die2": 5, "expected_seq": 0})
    ok(response, match)
    assert current(match).state and kinds(match) == ["opening-roll"]
    assert Action.objects.get(match=match).entered_by_user == cast.bob_user


def test_an_unknown_match_is_404(client: Client) -> None:
    assert client.get("/play/match/999999/").status_code == 404


# -- playing through the forms ---------------------------------------------------------------------------------------


def test_a_few_turns_through_the_forms(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    html = alice.page()
    assert forms_of(html) == ["opening-roll"]
    assert "<legend>Alice's die</legend>" in html and "<legend>Bob's die</legend>" in html
    assert "Roll for" not in html  # digital dice are off unless the director's settings allow them

    ok(alice.post("opening-roll", die1=3, die2=1), match)
    html = alice.page()
    assert "Alice, your turn: play 3-1." in html
    assert forms_of(html) == ["play", "resign"]
    assert forms_of(bob.page()) == ["resign"] and "Waiting for Alice." in bob.seen[-1]

    ok(alice.post("play", play="8/5 6/5"), match)
    html = bob.page()
    assert forms_of(html) == ["double", "roll", "resign"]
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(bob.post("play", play="24/13"), match)
    ok(alice.post("roll", die1=2, die2=2), match)
    ok(alice.post("play", play="13/11(2) 6/4(2)"), match)

    rows = list(Action.objects.filter(match=match).order_by("seq"))
    assert [(r.kind, r.side, r.play) for r in rows] == [
        ("opening-roll", 0, ""),
        ("play", 0, "8/5 6/5"),
        ("roll", 1, ""),
        ("play", 1, "24/13"),
        ("roll", 0, ""),
        ("play", 0, "13/11(2) 6/4(2)"),
    ]
    assert [r.entered_by_token_id for r in rows] == [alice.token.pk, alice.token.pk] + [bob.token.pk] * 2 + [
        alice.token.pk
    ] * 2
    html = bob.page()
    assert "Bob, your turn: double or enter your roll." in html
    assert 'data-play="13/11(2) 6/4(2)"' in html  # the opponent's last play is drawn on the board


def test_the_page_offers_the_legal_plays_to_tap(new_match: Any) -> None:
    match = new_match(length=5)
    alice = Phone(match, 0)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    taps = taps_of(alice.page())
    plays = {node[0] for node in taps["nodes"] if node[0]}
    assert plays == set(live_state(current(match))["legal_plays"])
    assert taps["dice"] == [3, 1] and taps["counts"] == list(Position.initial().me)
    # Each path of single-die steps ends in a legal play: 8/5 then 6/5 is the point-making 31.
    nodes, node = taps["nodes"], taps["nodes"][taps["root"]]
    for src, dst in ((8, 5), (6, 5)):
        flat = node[1]
        child = next(flat[i + 3] for i in range(0, len(flat), 4) if (flat[i], flat[i + 1]) == (src, dst))
        node = nodes[child]
    assert node[0] == "8/5 6/5"
    assert 'data-tap="5"' in alice.seen[-1] and 'data-tap="0"' in alice.seen[-1]


@pytest.mark.parametrize(
    ("position_id", "dice"),
    [("4HPwATDgc/ABMA", (1, 1)), ("4HPwATDgc/ABMA", (6, 4)), ("4HPwATDgc/ABMA", (4, 4))],
)
def test_every_legal_play_is_reachable_by_taps_and_nothing_else(position_id: str, dice: tuple[int, int]) -> None:
    position = Position.from_gnubg_id(position_id)
    legal = legal_plays(position, dice)
    tree = tap_tree(position, dice, legal)
    ends = {node[0] for node in tree["nodes"] if node[0]}
    assert ends == {str(play) for play in legal}
    leaves = [node for node in tree["nodes"] if not node[1]]
    assert all(node[0] for node in leaves), "a path of the tree leads nowhere"


@pytest.mark.parametrize(
    ("position_id", "dice"),
    [("4HPwATDgc/ABMA", (6, 4)), ("4HPwATDgc/ABMA", (3, 1)), ("4HPwATDgc/ABMA", (2, 2)), ("jGfkASjg8wcBMA", (5, 2))],
)
def test_the_checkers_to_tap_come_in_board_order_highest_point_first(position_id: str, dice: tuple[int, int]) -> None:
    """The page's "from" buttons are the node's sources in the order its steps list them (static/js/entry-board.js
    keeps the first seen): the bar first, then the player's 24-point down to his 1-point."""
    position = Position.from_gnubg_id(position_id)
    tree = tap_tree(position, dice, legal_plays(position, dice))
    for _play, steps in tree["nodes"]:
        sources = list(dict.fromkeys(steps[0::4]))
        assert sources == sorted(sources, reverse=True), sources
        for src in sources:
            dice_of = [steps[i + 2] for i in range(0, len(steps), 4) if steps[i] == src]
            assert dice_of == sorted(dice_of), "each source's smallest die first"
    root = tree["nodes"][tree["root"]][1]
    assert len(dict.fromkeys(root[0::4])) > 2, "a roll with several checkers to move"


def test_an_illegal_play_is_refused_with_the_engines_message_and_nothing_is_stored(new_match: Any) -> None:
    match = new_match(length=5)
    alice = Phone(match, 0)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    before = footprint(match.pk)
    response = alice.post("play", play="9/6 6/5")
    assert response.status_code == 400
    html = response.content.decode()
    assert error_of(html) == "9/6 6/5: there is no checker on your 9-point"
    assert html.index("entry-error") < html.index('id="entry-board"')  # above the board
    assert 'value="9/6 6/5"' in html  # what was typed is still there
    assert footprint(match.pk) == before


def test_a_play_for_the_wrong_side_or_at_the_wrong_time_is_refused(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    before = footprint(match.pk)
    response = bob.post("play", play="24/21 8/7")
    assert response.status_code == 400 and "turn to play" in error_of(response.content.decode())
    response = bob.client.post(bob.url, {"kind": "roll", "side": 0, "die1": 1, "die2": 2, "expected_seq": 1})
    assert response.status_code == 403 and error_of(response.content.decode()) == "You can act only for Bob."
    response = alice.post("roll", die1=7, die2=1)
    assert response.status_code == 400 and error_of(response.content.decode()) == "Choose both dice."
    assert footprint(match.pk) == before


def test_a_stale_sequence_number_reloads_the_state_with_a_word_of_explanation(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    html = bob.page()  # Bob sees the opening roll to enter, at seq 0
    ok(alice.post("opening-roll", die1=3, die2=1), match)  # Alice is quicker
    before = footprint(match.pk)
    response = bob.post("opening-roll", seq=0, die1=4, die2=2)
    assert response.status_code == 409
    html = response.content.decode()
    assert error_of(html) == STALE
    assert '<input type="hidden" name="expected_seq" value="1">' in html  # the board as it is now
    assert "Waiting for Alice." in html
    assert footprint(match.pk) == before


def test_a_double_submit_records_once(new_match: Any) -> None:
    match = new_match(length=5)
    alice = Phone(match, 0)
    for _ in range(2):
        ok(alice.post("opening-roll", seq=0, key="tap-tap", die1=5, die2=2), match)
    ok(alice.post("play", seq=1, key="play-once", play="13/8 13/11"), match)
    ok(alice.post("play", seq=1, key="play-once", play="13/8 13/11"), match)
    assert kinds(match) == ["opening-roll", "play"]


@override_settings(BGMATCH_DIGITAL_DICE=True)
def test_roll_for_me_when_the_director_allows_digital_dice(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    assert "Roll for us" in alice.page()
    ok(alice.post("opening-roll", digital="1"), match)
    first = Action.objects.get(match=match)
    assert first.die1 != first.die2
    state = load_state(current(match))
    mover = alice if state.game.on_roll == 0 else bob
    ok(mover.post("play", play=str(state.game.legal_plays()[0])), match)
    waiting = bob if mover is alice else alice
    assert "Roll for me" in waiting.page()
    ok(waiting.post("roll", digital="1"), match)
    assert kinds(match)[-1] == "roll"


def test_digital_dice_are_refused_when_not_allowed(new_match: Any) -> None:
    match = new_match(length=5)
    alice = Phone(match, 0)
    response = alice.post("opening-roll", digital="1")
    assert response.status_code == 400
    assert error_of(response.content.decode()) == "Digital dice are not used here: enter the dice you rolled."
    assert kinds(match) == []


# -- the cube and resignations ---------------------------------------------------------------------------------------


def test_cube_buttons_appear_only_when_the_cube_may_be_turned(new_match: Any, drive: Any) -> None:
    match = new_match(length=3)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    assert "double" not in forms_of(alice.page())  # dice rolled: too late to double
    ok(alice.post("play", play="8/5 6/5"), match)
    assert forms_of(bob.page())[:2] == ["double", "roll"] and "Double (to 2)" in bob.seen[-1]
    assert "double" not in forms_of(alice.page())  # not Alice's turn

    ok(bob.post("double"), match)
    html = alice.page()
    assert forms_of(html) == ["take", "drop"] and "Alice, you are doubled to 2: take or drop?" in html
    assert forms_of(bob.page()) == []
    ok(alice.post("take"), match)
    assert "cube 2, owned by Alice" in bob.page()
    assert "double" not in forms_of(bob.seen[-1])  # Alice owns the cube now
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(bob.post("play", play="24/13"), match)
    assert "double" in forms_of(alice.page())

    # The Crawford game: Alice's double dropped makes it 2-0 in a 3-point match; no cube buttons at all.
    ok(alice.post("double"), match)
    ok(bob.post("drop"), match)
    state = load_state(current(match))
    assert state.crawford_game
    html = alice.page()
    assert "Crawford game: no doubling" in html
    ok(alice.post("opening-roll", die1=6, die2=1), match)
    ok(alice.post("play", play="13/7 8/7"), match)
    assert forms_of(bob.page()) == ["roll", "resign"]
    response = bob.post("double")
    assert response.status_code == 400
    assert "No double may be offered in the Crawford game" in error_of(response.content.decode())


def test_a_resignation_offered_and_accepted_through_the_forms(new_match: Any) -> None:
    match = new_match(length=1)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("resign", result=2), match)
    assert "You offered to resign a gammon (2 points); waiting for Alice to accept or refuse." in bob.page()
    html = alice.page()
    assert forms_of(html) == ["accept-resignation", "reject-resignation"]
    assert "Your opponent offers to resign a gammon, worth 2 points: accept or reject?" in html
    ok(alice.post("accept-resignation"), match)
    match = current(match)
    assert match.status == Match.Status.FINISHED and match.score == (2, 0)
    html = bob.page()
    assert "Alice won the match 2-0." in html and forms_of(html) == []
    assert "hx-get" not in html  # a finished match outside any event: nothing will change, no polling


# -- scoresheet ------------------------------------------------------------------------------------------------------


def test_a_scoresheet_match_entered_through_the_form_until_it_ends(new_match: Any) -> None:
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    alice = Phone(match, 0)
    html = alice.page()
    assert forms_of(html) == ["game-result"] and 'id="entry-board"' not in html
    for value in ("1", "2", "4", "8", "16", "32", "64"):
        assert f'<option value="{value}"' in html
    assert '<label for="result-cube">' in html
    ok(alice.post("game-result", winner=1, result=1, cube=2), match)  # Bob 2-0: Crawford next
    html = alice.page()
    assert "Crawford game: no doubling" in html
    cells = r"<td[^>]*>0\u20130</td><td[^>]*>Bob</td><td[^>]*>single</td><td[^>]*>2</td><td[^>]*>2</td>"
    assert re.search(cells, html)

    before = footprint(match.pk)
    response = alice.post("game-result", winner=0, result=1, cube=2)
    assert response.status_code == 400
    assert error_of(response.content.decode()) == (
        "The cube cannot have been turned in the Crawford game: the cube value must be 1, not 2"
    )
    assert footprint(match.pk) == before
    ok(alice.post("game-result", winner=0, result=2, cube=1), match)  # Alice a gammon in the Crawford game: 2-2
    ok(alice.post("game-result", winner=0, result=1, cube=1), match)
    match = current(match)
    assert match.status == Match.Status.FINISHED and match.score == (3, 2)
    html = alice.page()
    assert "Alice won the match 3-2." in html and forms_of(html) == []
    assert html.count('<span class="badge badge-crawford">Crawford</span>') == 1
    response = alice.post("game-result", winner=0, result=1, cube=1)
    assert response.status_code == 409 and "The match is finished" in error_of(response.content.decode())


CASUAL = "casual: no cube, every game one point"


def test_a_casual_scoresheet_asks_only_who_won_and_refuses_a_gammon_or_a_cube_sent_anyway(new_match: Any) -> None:
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET, casual=True)
    alice = Phone(match, 0)
    html = alice.page()
    assert forms_of(html) == ["game-result"] and CASUAL in html
    assert 'id="result-cube"' not in html and "<option" not in html and "gammon" not in html
    assert html.count('type="radio" name="winner"') == 2 and 'type="radio" name="result"' not in html
    ok(alice.post("game-result", winner=1, result=1, cube=1), match)  # what the form sends
    html = alice.page()
    assert ">Cube<" not in html and ">Won as<" not in html
    assert re.search(r"<td[^>]*>0\u20130</td><td[^>]*>Bob</td><td[^>]*>1</td>", html)

    before = footprint(match.pk)
    for fields, words in (({"result": 2, "cube": 1}, "no gammons"), ({"result": 1, "cube": 2}, "no doubling cube")):
        response = alice.post("game-result", winner=0, **fields)
        assert response.status_code == 400 and words in error_of(response.content.decode())
    assert footprint(match.pk) == before


def test_a_casual_match_move_by_move_offers_no_double_and_no_gammon_to_resign(new_match: Any) -> None:
    match = new_match(length=3, casual=True)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    html = bob.page()
    assert forms_of(html) == ["roll", "resign"] and "Double" not in html
    assert CASUAL in html and "cube 1, centred" not in html and '<g class="cube"' not in html  # none on the board
    resign = html[html.index('<details class="resign">') :]
    assert re.findall(r'name="result" value="(\d)"', resign) == ["1"] and "gammon" not in resign
    before = footprint(match.pk)
    response = bob.post("double")
    assert response.status_code == 400 and "no doubling cube in a casual game" in error_of(response.content.decode())
    response = bob.post("resign", result=2)
    assert response.status_code == 400 and "no gammons" in error_of(response.content.decode())
    assert footprint(match.pk) == before


@pytest.mark.parametrize("mode", [Match.EntryMode.MOVES, Match.EntryMode.SCORESHEET])
def test_player_names_are_escaped(cast: Any, mode: str) -> None:
    evil = services.create_player(display_name=EVIL)
    match = services.start_match(player1=evil, player2=cast.bob, length=3, entry_mode=mode)
    phone = Phone(match, 0)
    html = phone.page()
    assert EVIL not in html and ESCAPED in html
    if mode == Match.EntryMode.MOVES:
        ok(phone.post("opening-roll", die1=4, die2=2), match)
    else:
        ok(phone.post("game-result", winner=0, result=1, cube=1), match)
    html = phone.page()
    assert EVIL not in html and ESCAPED in html


# -- the tournaments panel -------------------------------------------------------------------------------------------


@pytest.fixture
def division(django_user_model: Any) -> Division:
    """A running 4-player single-elimination division with scoresheet entry (P1-P4 seeded by rating)."""
    actor = Actor(user=django_user_model.objects.create_user("tina", password=None))
    event = tournaments.create_event(actor=actor, name="Club night")
    settings = tournaments.DivisionSettings(name="Main", format="single", match_length=3, entry_mode="scoresheet")
    division = tournaments.create_division(event, actor=actor, settings=settings)
    for i in range(1, 5):
        tournaments.register_player(division, actor=actor, name=f"P{i}", rating=2010 - 10 * i)
    tournaments.start_division(division, actor=actor)
    return division


def semi_finals(division: Division) -> list[Pairing]:
    return list(
        Pairing.objects.filter(division=division, match__isnull=False)
        .select_related("match__player1", "match__player2")
        .order_by("board")
    )


def finish_by_scoresheet(phone: Phone, match: Match, winner: int, capture: Any) -> None:
    """Enter a 4-cube single game for ``winner`` (4-0 in a 3-point match) from ``phone``; the commit's follow-up
    (the division's sync) runs."""
    with capture(execute=True):
        ok(phone.post("game-result", winner=winner, result=1, cube=4), match)
    assert current(match).status == Match.Status.FINISHED


def test_the_confirmation_asked_says_the_score_as_the_result_line_does(
    division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    """Won by the second player: "Hans entered the result: 2-3. Is it right?" over "Hans won the match 3-2." read as
    two results; both now say the winner's score first."""
    pairing = semi_finals(division)[0]
    match = pairing.match
    finish_by_scoresheet(Phone(match, 0), match, 1, django_capture_on_commit_callbacks)
    html = Phone(match, 1).page()
    winner = match.player2.display_name
    assert f"entered the result: {winner} won the match 4-0. Is it right?" in html
    assert "0-4" not in html


def test_the_other_side_confirms_through_the_panel(division: Division, django_capture_on_commit_callbacks: Any) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    entering, other = Phone(match, 0), Phone(match, 1)
    assert "pairing-panel" not in entering.page()  # nothing while the match is played
    finish_by_scoresheet(entering, match, 0, django_capture_on_commit_callbacks)
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING and pairing.confirmation_side == 1

    html = other.page()
    winner = match.player1.display_name
    assert "pairing-panel" in html and f"entered the result: {winner} won the match 4-0. Is it right?" in html
    assert f'action="/play/pairings/{pairing.pk}/confirm/"' in html
    assert '<label for="dispute-reason-' in html
    assert 'hx-get="/play/match/' in html  # still polling: the confirmation may change the panel
    html = entering.page()
    assert f"The result waits for {match.player2.display_name}'s confirmation." in html
    assert "/confirm/" not in html and 'href="/play/pairings/next/"' in html

    # The side that entered the result cannot confirm it.
    response = entering.client.post(f"/play/pairings/{pairing.pk}/confirm/")
    assert response.status_code == 403
    assert f"Only {match.player2.display_name} or a director can answer" in response.content.decode()
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING
    assert Client().post(f"/play/pairings/{pairing.pk}/confirm/").status_code == 403

    with django_capture_on_commit_callbacks(execute=True):
        response = other.client.post(f"/play/pairings/{pairing.pk}/confirm/")
    assert response.status_code == 303 and response["Location"] == f"/play/match/{match.pk}/"
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.CONFIRMED
    html = other.page()
    # Still polling: the winner has the final to come, whose call this page shows once it is made.
    assert "The result is confirmed." in html and 'hx-get="/play/match/' in html


def test_a_dispute_needs_a_reason_and_goes_to_the_director(
    division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = semi_finals(division)[1]
    match = pairing.match
    entering, other = Phone(match, 1), Phone(match, 0)
    finish_by_scoresheet(entering, match, 1, django_capture_on_commit_callbacks)
    response = other.client.post(f"/play/pairings/{pairing.pk}/dispute/", {"reason": "  "})
    assert response.status_code == 400
    assert "Say what is wrong with the result" in response.content.decode()
    response = entering.client.post(f"/play/pairings/{pairing.pk}/dispute/", {"reason": "I won, really"})
    assert response.status_code == 403
    assert "I won, really</textarea>" in response.content.decode()  # what was typed is kept
    response = other.client.post(f"/play/pairings/{pairing.pk}/dispute/", {"reason": "it was 3-1 to me"})
    assert response.status_code == 303
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.DISPUTED and pairing.dispute == "it was 3-1 to me"
    assert "The result is disputed: a director decides." in other.page()


def test_your_next_match_from_the_entry_link_and_from_the_account(
    division: Division, django_capture_on_commit_callbacks: Any, django_user_model: Any
) -> None:
    first, second = semi_finals(division)
    winner_phone = Phone(first.match, 0)
    finish_by_scoresheet(winner_phone, first.match, 0, django_capture_on_commit_callbacks)
    winner = first.match.player1
    html = winner_phone.keep(winner_phone.client.get("/play/pairings/next/"))
    assert "No next match yet" in html  # the final waits for the other semi-final
    assert f'<a href="/play/match/{first.match_id}/">Back to your last match</a>' in html
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.confirm_result(first, actor=Actor(token=access.new_entry_token(first.match, 1)))
    other_phone = Phone(second.match, 0)
    finish_by_scoresheet(other_phone, second.match, 1, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.confirm_result(second, actor=Actor(token=access.new_entry_token(second.match, 1)))
    final = Pairing.objects.get(division=division, status=Pairing.Status.READY)

    response = winner_phone.client.get("/play/pairings/next/")
    assert response.status_code == 200
    html = winner_phone.keep(response)
    assert winner.display_name in html and second.match.player2.display_name in html
    assert final.table.label in html and "Club night · Main" in html
    # The phone holding his semi-final's link enters the final in one tap; the slip stays the way in elsewhere.
    assert f'action="/play/pairings/{final.pk}/enter/"' in html and "Your entry slip from the director" in html
    assert f'<a href="/play/match/{first.match_id}/">Back to your last match</a>' in html
    assert f'<a href="/events/{division.event.slug}/">The event\'s pairings and standings</a>' in html

    user = django_user_model.objects.create_user("p1", password=None)
    type(winner).objects.filter(pk=winner.pk).update(user=user)
    client = Client()
    client.force_login(user)
    html = client.get("/play/pairings/next/").content.decode()
    assert f'href="/play/match/{final.match_id}/"' in html
    assert Client().get("/play/pairings/next/").status_code == 403


# -- the live part ---------------------------------------------------------------------------------------------------


def test_the_live_part_answers_200_then_304_then_200_after_the_opponent_acts(
    new_match: Any, django_assert_max_num_queries: Any
) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    live = f"{alice.url}live/"
    response = alice.client.get(live)
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-cache"
    etag = response["ETag"]
    body = alice.keep(response)
    assert body.startswith('<section id="entry-live"') and f'data-etag="{etag.replace(chr(34), "&quot;")}"' in body
    with django_assert_max_num_queries(5):  # the session, the match, the links held, the panels' versions
        response = alice.client.get(live, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response["ETag"] == etag
    ok(bob.post("opening-roll", die1=2, die2=6), match)
    response = alice.client.get(live, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert "Waiting for Bob." in alice.keep(response)


# -- HTML conventions ------------------------------------------------------------------------------------------------


class Controls(HTMLParser):
    """The form controls of a page, the labels' targets, and the tags with inline script or style."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()
        self.in_label = 0
        self.bad: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if "style" in a or any(name.startswith("on") for name in a):
            self.bad.append(tag)
        if tag == "script":
            self.scripts.append(a)
        if tag == "label":
            self.in_label += 1
            if a.get("for"):
                self.label_for.add(a["for"] or "")
        if tag in ("input", "select", "textarea") and a.get("type") != "hidden":
            self.controls.append({**a, "labelled": "yes" if self.in_label else None})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label -= 1


def check_html(html: str) -> None:
    parser = Controls()
    parser.feed(html)
    assert not parser.bad, f"inline style or handler on {parser.bad}"
    assert "{#" not in html and "{%" not in html and "{{" not in html, "template syntax leaked into the page"
    for script in parser.scripts:
        assert script.get("src") or (script.get("type") == "application/json" and script.get("id") == "entry-taps")
    for control in parser.controls:
        assert control["labelled"] or control.get("id") in parser.label_for, f"unlabelled control {control}"
    for form in re.findall(r'<form method="post".*?</form>', html, re.S):
        assert 'name="csrfmiddlewaretoken"' in form


def test_no_token_no_inline_script_or_style_and_every_control_labelled(
    new_match: Any, division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    match = new_match(length=1)
    alice, bob = Phone(match, 0), Phone(match, 1)
    alice.page()
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    alice.page()
    alice.post("play", play="9/6 6/5")  # refused: the page with its error
    ok(alice.post("play", play="8/5 6/5"), match)
    bob.page()
    ok(bob.post("double"), match)
    alice.page()
    bob.post("opening-roll", seq=0, die1=1, die2=2)  # stale
    alice.keep(alice.client.get(f"{alice.url}live/"))
    pairing = semi_finals(division)[0]
    entering, other = Phone(pairing.match, 0), Phone(pairing.match, 1)
    entering.page()
    finish_by_scoresheet(entering, pairing.match, 0, django_capture_on_commit_callbacks)
    other.page()
    entering.keep(entering.client.post(f"/play/pairings/{pairing.pk}/confirm/"))
    other.keep(other.client.post(f"/play/pairings/{pairing.pk}/dispute/", {"reason": ""}))
    other.keep(other.client.get("/play/pairings/next/"))
    bad = Client()
    bad_pages = [bad.get("/play/whatever/", follow=True).content.decode(), bad.get(alice.url).content.decode()]

    phones = (alice, bob, entering, other)
    secrets = [p.secret for p in phones] + [p.token.nonce for p in phones]
    secrets += [access.token_text(t) for t in EntryToken.objects.all()]
    pages = [html for phone in phones for html in phone.seen] + bad_pages
    assert len(pages) >= 15
    for html in pages:
        assert not any(secret in html for secret in secrets)
        check_html(html)


# -- query counts ----------------------------------------------------------------------------------------------------


@pytest.fixture
def long_match() -> Match:
    return import_long_log()


def import_long_log() -> Match:
    """A real 17-point match of 18 games and 1012 actions, imported through ``services.import_match``."""
    if not LONG_LOG.exists():
        pytest.skip(f"the shared match-log corpus is missing: {CORPUS}")
    replay = replay_record(read_mat(LONG_LOG.read_bytes()))
    return services.import_match(
        players=replay.record.players,
        length=replay.record.match_length,
        variant=replay.variant.name,
        crawford=replay.crawford_rule,
        games=[game.actions for game in replay.games],
    )


def queries(client: Client, url: str, **headers: Any) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    return response.status_code, len(captured)


def test_query_counts_do_not_grow_with_the_match(new_match: Any, drive: Any, long_match: Match) -> None:
    short = new_match(length=1)
    drive(short, seed=1).play_out()
    counts = {}
    for name, match in (("short", current(short)), ("long", long_match)):
        assert match.status == Match.Status.FINISHED
        phone = Phone(match, 0)
        phone.page()
        etag = phone.client.get(f"{phone.url}live/")["ETag"]
        counts[name] = (
            queries(phone.client, phone.url),
            queries(phone.client, f"{phone.url}live/"),
            queries(phone.client, f"{phone.url}live/", HTTP_IF_NONE_MATCH=etag),
        )
    assert counts["short"] == counts["long"]
    # The session, the match, the links held, a correction asked for, the last actions (the board), the game that
    # ended last (how it ended), the panel and its version (a match over: no take-back nor correction for the
    # players to read); a 304 needs neither the last actions, the game nor the panel.
    assert counts["long"] == ((200, 8), (200, 8), (304, 5))


def test_query_count_of_an_open_match_stays_flat_while_it_is_played(new_match: Any, drive: Any) -> None:
    match = new_match(length=7)
    phone = Phone(match, 0)
    driver = drive(match, seed=5)
    driver.to_roll_phase(0)
    early = queries(phone.client, phone.url)
    driver.play_out()
    driver.to_roll_phase(0)
    assert load_state(current(match)).game.phase is Phase.ROLL
    assert queries(phone.client, phone.url) == early


def test_an_acey_deucey_match_taps_from_the_waiting_checkers_and_chooses_its_double(new_match: Any) -> None:
    match = new_match(length=3, variant="acey-deucey")
    alice = Phone(match, 0)
    ok(alice.post("opening-roll", die1=2, die2=1), match)  # the acey-deucey: play the 1 and the 2, then a double
    taps = taps_of(alice.page())
    root = taps["nodes"][taps["root"]][1]
    assert {root[i] for i in range(0, len(root), 4)} == {26}  # every checker waits to enter
    assert 'data-tap="25"' in alice.seen[-1]  # tapped at the bar
    play = next(node[0] for node in taps["nodes"] if node[0])
    ok(alice.post("play", play=play), match)
    html = alice.page()
    assert forms_of(html) == ["choose-double"] and "Alice, choose the double to play." in html
    ok(alice.post("choose-double", die=6), match)
    assert "Alice, your turn: play 6-6." in alice.page()
    assert taps_of(alice.seen[-1])["dice"] == [6, 6]


# -- taking back, and the director at the table ------------------------------------------------------------------------


def test_a_player_takes_back_a_wrong_play_from_his_phone_until_the_opponent_enters(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    assert 'id="take-back"' not in alice.page()
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="24/21 6/5"), match)  # she meant 8/5 6/5
    assert "Take back my last entry" in alice.page()
    assert 'id="take-back"' not in bob.page(), "only the player who entered it may take it back"
    ok(alice.post("take-back"), match)
    html = alice.page()
    assert "Alice, your turn: play 3-1." in html
    assert '<p class="entry-last">You took back the play 24/21 6/5.</p>' in html
    assert '<p class="entry-last">Alice took back the play 24/21 6/5.</p>' in bob.page(), "the opponent is told"
    row = Action.objects.filter(match=match).order_by("-seq").first()
    assert row is not None and (row.kind, row.reason, row.entered_by_token_id) == (
        "correction",
        "taken back by Alice",
        alice.token.pk,
    )
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    assert 'id="take-back"' not in alice.page()
    response = alice.post("take-back", side=0)
    assert response.status_code == 409 and "opponent has entered something since" in error_of(alice.seen[-1])
    assert kinds(match)[-1] == "roll"


def test_both_phones_are_told_when_the_director_takes_back_an_entry(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    services.undo_last_action(match.pk, actor=SYSTEM, reason="entered on the wrong phone")
    for phone in (alice, bob):
        assert '<p class="entry-last">The director took back Alice&#x27;s play 8/5 6/5.</p>' in phone.page()
    ok(alice.post("play", play="8/5 6/5"), match)
    assert "took back" not in bob.page() and "Alice played 8/5 6/5." in bob.seen[-1], "the next entry replaces it"


def test_a_director_enters_a_scoresheet_game_on_the_entry_page_without_a_link(
    division: Division, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    client = Client()
    client.force_login(django_user_model.objects.get(username="tina"))
    url = f"/play/match/{match.pk}/"
    html = client.get(url).content.decode()
    assert "You are entering as the director, for either player." in html
    data = {"kind": "game-result", "winner": 1, "result": 2, "cube": 1, "expected_seq": 0, "idempotency_key": "k1"}
    response = client.post(url, data)
    assert response.status_code == 303
    assert current(match).score == (0, 2)
    row = Action.objects.get(match=match)
    assert row.entered_by_user.username == "tina" and row.entered_by_token is None
    assert "Take back the last entry" in client.get(url).content.decode()
    director_page = client.get(f"/manage/{division.event.slug}/{division.slug}/match/{pairing.key}/").content.decode()
    assert f'href="{url}"' in director_page, "the director's match page links to entering for the players"


def test_a_result_is_taken_back_until_the_opponent_confirms_it(
    division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    entering, other = Phone(match, 0), Phone(match, 1)
    finish_by_scoresheet(entering, match, 0, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ok(entering.post("take-back"), match)
    pairing.refresh_from_db()
    assert (pairing.status, pairing.confirmation, current(match).score) == ("ready", "", (0, 0))
    name = escape(match.player1.display_name)
    assert '<p class="entry-last">You took back the result of game 1.</p>' in entering.page()
    assert f'<p class="entry-last">{name} took back the result of game 1.</p>' in other.page(), "the opponent is told"
    finish_by_scoresheet(entering, match, 0, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        other.client.post(f"/play/pairings/{pairing.pk}/confirm/")
    before = footprint(match.pk)
    response = entering.post("take-back")
    assert response.status_code == 409
    assert "has confirmed this result: ask the director to correct it" in error_of(entering.seen[-1])
    assert footprint(match.pk) == before


def test_a_result_the_director_corrected_says_so_on_the_players_pages(
    division: Division, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Not only "confirmed": the panel says the director corrected it, with his reason (as the division page's
    "Corrected results" does)."""
    pairing = semi_finals(division)[0]
    match = pairing.match
    entering, other = Phone(match, 0), Phone(match, 1)
    finish_by_scoresheet(entering, match, 0, django_capture_on_commit_callbacks)
    director = Actor(user=django_user_model.objects.get(username="tina"))
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_game_result(
            match.pk, actor=director, game_number=1, winner=1, kind=1, cube_value=4, reason="side 1 won it"
        )
    pairing.refresh_from_db()
    assert (pairing.decision, pairing.confirmation) == ("director", "confirmed")
    for phone in (entering, other):
        html = phone.page()
        assert "The director corrected the result (side 1 won it): it stands by his decision." in html
        assert "The result is confirmed." not in html


def test_too_late_to_take_back_a_player_asks_and_the_opponent_accepts_on_his_phone(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="24/21 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    assert 'id="ask-correction"' in alice.page() and 'id="take-back"' not in alice.seen[-1]
    response = alice.post("ask-correction", reason="")
    assert response.status_code == 400 and "Say what was wrong" in error_of(alice.seen[-1])
    ok(alice.post("ask-correction", reason="I meant 8/5 6/5"), match)
    assert "You asked to undo the play 24/21 6/5" in alice.page()
    assert 'id="accept-correction"' not in alice.seen[-1], "she does not answer her own request"
    html = bob.page()
    assert "Alice asks to undo the play 24/21 6/5 and everything entered after it" in html
    assert "I meant 8/5 6/5" in html
    request = re.search(r'name="request" value="(\d+)"', html)
    assert request is not None
    ok(bob.post("answer-correction", request=request.group(1), accept="1"), match)
    rows = list(Action.objects.filter(match=match, kind="correction").order_by("seq"))
    assert [r.reason for r in rows] == ["correction asked by Alice (I meant 8/5 6/5), accepted by Bob"] * 2
    assert all(r.entered_by_token_id == bob.token.pk for r in rows)
    assert "Alice, your turn: play 3-1." in alice.page()
    assert "asks to undo" not in bob.page()


def test_a_refused_correction_changes_nothing(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="24/21 6/5"), match)
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(alice.post("ask-correction", reason="wrong checker"), match)
    before = kinds(match)
    request = re.search(r'name="request" value="(\d+)"', bob.page())
    assert request is not None
    ok(bob.post("answer-correction", request=request.group(1), accept="0"), match)
    assert kinds(match) == before
    response = bob.post("answer-correction", request=request.group(1), accept="1")
    assert response.status_code == 409 and "already refused" in error_of(response.content.decode())
    assert kinds(match) == before


def test_the_director_sees_a_correction_asked_for_and_decides_it(
    division: Division, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    first, second = Phone(match, 0), Phone(match, 1)
    ok(first.post("game-result", winner=0, result=1, cube=1), match)
    ok(second.post("game-result", winner=1, result=1, cube=1), match)
    ok(first.post("ask-correction", reason="game 1 was a gammon"), match)
    client = Client()
    client.force_login(django_user_model.objects.get(username="tina"))
    page = client.get(f"/manage/{division.event.slug}/{division.slug}/match/{pairing.key}/").content.decode()
    assert "A correction is asked for: undo the result of game 1 and what came after it" in page
    html = client.get(f"/play/match/{match.pk}/").content.decode()
    request = re.search(r'name="request" value="(\d+)"', html)
    assert request is not None
    data = {"kind": "answer-correction", "side": 1, "request": request.group(1), "accept": "1", "expected_seq": 2}
    assert client.post(f"/play/match/{match.pk}/", data).status_code == 303
    assert current(match).score == (0, 0)
    reasons = set(Action.objects.filter(match=match, kind="correction").values_list("reason", flat=True))
    assert reasons == {"correction asked by P1 (game 1 was a gammon), accepted by the director"}


# -- one phone per link ------------------------------------------------------------------------------------------------


def test_an_entry_link_opens_on_one_phone_only_until_the_director_reissues_it(
    division: Division, django_user_model: Any
) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    first = Phone(match, 0)
    again = first.client.get(f"/play/{first.secret}/")  # the same phone scans it again: fine
    assert again.status_code == 302
    second = Client()
    refused = second.get(f"/play/{first.secret}/", follow=True)
    assert refused.redirect_chain == [("/play/refused/", 303)] and refused.status_code == 403
    assert refused.request["PATH_INFO"] == "/play/refused/", "the refused link does not stay in the address bar"
    assert "already open on another phone. Ask the director for a new link" in refused.content.decode()
    assert first.secret not in refused.content.decode() and "entry_tokens" not in second.session
    assert second.get("/play/refused/").status_code == 403, "the reason is told once, then a generic refusal"
    assert second.get(f"/play/match/{match.pk}/").status_code == 403

    director = Client()
    director.force_login(django_user_model.objects.get(username="tina"))
    url = f"/manage/{division.event.slug}/{division.slug}/match/{pairing.key}/"
    response = director.post(url, {"action": "new-link", "new-link-side": "0"}, follow=True)
    assert response.status_code == 200 and "A new entry link for" in response.content.decode()
    assert first.client.get(f"/play/match/{match.pk}/").status_code == 403, "the old phone is signed out"
    fresh = EntryToken.objects.filter(match=match, side=0, revoked_at__isnull=True).get()
    shown = f"A new entry link for {pairing.entry_a.player.display_name}: http://testserver/play/{access.token_text(fresh)}/"
    assert shown in response.content.decode(), "the director can hand it over from the page"
    assert second.get(f"/play/{access.token_text(fresh)}/").status_code == 302
    assert second.get(f"/play/match/{match.pk}/").status_code == 200


# -- what the page says first ------------------------------------------------------------------------------------------


def test_the_call_is_shown_above_the_board_and_the_dice(division_of: Any, as_director: Actor) -> None:
    division = division_of("swiss", 6, match_length=3)
    tournaments.set_tables(division.event, actor=as_director, names=["", "", ""])
    tournaments.start_division(division, actor=as_director)
    pairing = Pairing.objects.select_related("match").filter(division=division, table__number=3).get()
    html = Phone(pairing.match, 0).page()
    assert "Table 3: you play" in html
    assert html.index("You are called") < html.index('id="entry-board"') < html.index("Enter the opening roll")


def test_the_director_entering_for_both_players_is_spoken_to_as_the_director(
    division_of: Any, as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 6, match_length=3)
    tournaments.set_tables(division.event, actor=as_director, names=["", "", ""])
    tournaments.start_division(division, actor=as_director)
    pairing = Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(
        division=division, table__number=3
    )
    client = Client()
    client.force_login(director)
    html = client.get(f"/play/match/{pairing.match_id}/").content.decode()
    a, b = pairing.entry_a.player.display_name, pairing.entry_b.player.display_name
    assert f"You are entering for both players: {a} v {b}." in html
    assert f"Table 3: {a} v {b}" in html and "The players are called" in html
    assert "This phone" not in html and "You are called" not in html and "you play" not in html


def test_the_page_says_in_words_what_the_opponent_did_last(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    assert "entry-last" not in alice.page()
    ok(alice.post("play", play="8/5 6/5"), match)
    html = bob.page()
    assert '<p class="entry-last">Alice played 3-1: 8/5 6/5.</p>' in html
    assert html.index("Alice played 3-1") < html.index('id="entry-board"')
    assert "entry-last" not in alice.page(), "his own play is not told back to the player"
    ok(bob.post("double"), match)
    assert '<p class="entry-last">Bob doubled to 2.</p>' in alice.page()
    ok(alice.post("take"), match)
    assert '<p class="entry-last">Alice took: the cube is at 2.</p>' in bob.page()
    ok(bob.post("roll", die1=6, die2=5), match)
    ok(bob.post("play", play="24/18 18/13"), match)
    assert '<p class="entry-last">Bob played 6-5: 24/13.</p>' in alice.page()


def test_the_page_says_how_the_last_game_ended(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("resign", result=2), match)
    ok(alice.post("accept-resignation"), match)
    html = alice.page()
    assert "Game 1: you won 2 points (gammon, resignation accepted)." in html
    assert html.index("Game 1: you won") < html.index("Game 2: enter the opening roll")
    assert "Game 1: you lost 2 points (gammon, resignation accepted)." in bob.page()
    ok(alice.post("opening-roll", die1=5, die2=2), match)
    assert "Game 1:" not in alice.page(), "once the next game begins, the last one's end is no longer news"


def test_an_offer_to_resign_says_what_it_is_worth_with_the_cube(new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("double"), match)
    ok(alice.post("take"), match)
    ok(bob.post("resign", result=1), match)
    expected = "Your opponent offers to resign a single game, worth 2 points with the cube at 2: accept or reject?"
    assert f'<p id="entry-prompt" class="entry-prompt" role="status">{expected}</p>' in alice.page()
    both = Phone(match, 1, client=alice.client)  # a shared board: the prompt names who answers
    assert "Alice, your opponent offers to resign a single game, worth 2 points with the cube at 2" in both.page()


def test_a_finished_match_links_to_its_page_its_download_and_the_next_match(new_match: Any) -> None:
    match = new_match(length=1)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="8/5 6/5"), match)
    ok(bob.post("resign", result=1), match)
    ok(alice.post("accept-resignation"), match)
    html = bob.page()
    assert "Alice won the match 1-0." in html
    after = html[html.index("Alice won the match") :]
    assert f'href="/matches/{match.pk}/"' in after
    assert f'href="/matches/{match.pk}/match.mat" download' in after
    assert 'href="/play/pairings/next/"' in after and ">Your next match</a>" in after
    assert bob.client.get(f"/matches/{match.pk}/match.mat").status_code == 200


def test_a_director_entering_for_the_players_sees_each_ones_next_call_by_name(
    division: Division, django_user_model: Any
) -> None:
    tina = Actor(user=django_user_model.objects.get(username="tina"))
    first, second = semi_finals(division)
    for p in (first, second):
        p.refresh_from_db()
        director_win(p, p.entry_a, tina)
    final = Pairing.objects.select_related("entry_a__player", "entry_b__player", "table").get(
        division=division, round__number=2
    )
    assert final.table is not None
    director = Client()
    director.force_login(tina.user)
    html = director.get(f"/play/match/{first.match_id}/").content.decode()
    winner, names = (
        first.entry_a.player.display_name,
        f"{final.entry_a.player.display_name} v {final.entry_b.player.display_name}",
    )
    assert f"<strong>{winner}&#x27;s next match:</strong> {final.table.label}: {names}, " in html
    assert "you play" not in html and "Your next match" not in html  # he is not a player of it


def test_a_finished_scoresheet_match_links_to_its_page_without_promising_an_analysis(
    division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    first = semi_finals(division)[0]
    phone = Phone(first.match, 0)
    finish_by_scoresheet(phone, first.match, 0, django_capture_on_commit_callbacks)
    html = phone.page()
    after = html[html.index('<p class="entry-after">') :]
    assert f'href="/matches/{first.match_id}/">The match page</a>' in after and "with its analysis" not in after


def test_in_the_crawford_game_the_scoresheet_offers_the_cube_at_1_only(division: Division) -> None:
    first = semi_finals(division)[0]
    phone = Phone(first.match, 0)
    html = phone.page()
    assert re.findall(r'<select id="result-cube"[^>]*>(.*?)</select>', html, re.S)[0].count("<option") == 7
    ok(phone.post("game-result", winner=0, result=1, cube=2), first.match)  # 2-0 in a 3-point match
    html = phone.page()
    options = re.findall(
        r'<option value="(\d+)"', re.findall(r'<select id="result-cube"[^>]*>(.*?)</select>', html, re.S)[0]
    )
    assert options == ["1"] and "This is the Crawford game" in html


def test_once_a_player_confirmed_the_result_neither_player_asks_for_a_correction(
    division: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = semi_finals(division)[0]
    match = pairing.match
    entering, other = Phone(match, 0), Phone(match, 1)
    ok(other.post("game-result", winner=1, result=1, cube=1), match)  # the confirming player's own entry, earlier
    finish_by_scoresheet(entering, match, 0, django_capture_on_commit_callbacks)
    assert 'id="ask-correction"' in other.page(), "before he confirms, his own earlier entry may be corrected"
    with django_capture_on_commit_callbacks(execute=True):
        other.client.post(f"/play/pairings/{pairing.pk}/confirm/")
    for phone in (entering, other):
        html = phone.page()
        assert 'id="ask-correction"' not in html and 'id="take-back"' not in html, "the director corrects it now"
    before = footprint(match.pk)
    response = other.post("ask-correction", reason="the first game was a gammon")
    assert response.status_code == 409 and "ask the director to correct it" in error_of(other.seen[-1])
    assert footprint(match.pk) == before


def test_a_poll_finds_the_match_s_pairing_and_playoff_by_the_match_alone(new_match: Any) -> None:
    """The live part's statements about the match's pairing and playoff read their own table: Pairing's and Playoff's
    orderings joined the round, the division and the event to every poll of every phone."""
    match = new_match(length=5)
    alice = Phone(match, 0)
    live = f"{alice.url}live/"
    etag = alice.client.get(live)["ETag"]
    with CaptureQueriesContext(connection) as captured:
        assert alice.client.get(live, HTTP_IF_NONE_MATCH=etag).status_code == 304
    ok(alice.post("opening-roll", die1=2, die2=6), match)
    with CaptureQueriesContext(connection) as later:
        assert alice.client.get(live).status_code == 200
    statements = [query["sql"] for query in [*captured.captured_queries, *later.captured_queries]]
    about = [sql for sql in statements if 'FROM "tournaments_pairing"' in sql or 'FROM "tournaments_playoff"' in sql]
    assert about and not [sql for sql in about if "JOIN" in sql], about
