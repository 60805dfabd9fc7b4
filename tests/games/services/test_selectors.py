"""Reads: the live state of a match per phase, the cube history, which matches a user may see, and constant query
counts whatever the length of the match."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from common.actor import SYSTEM
from engine.match import MatchState
from games import access, selectors, services
from games.engine_bridge import load_state
from games.models import Match

pytestmark = pytest.mark.django_db


def _fetch(match: Match) -> Match:
    return selectors.matches_visible_to(None).get(pk=match.pk)


def test_live_state_through_the_phases_of_a_game(new_match, drive) -> None:
    match = new_match(length=7)
    live = selectors.live_state(_fetch(match))
    assert live == {
        "match": match.pk,
        "seq": 0,
        "status": "scheduled",
        "length": 7,
        "variant": "standard",
        "entry_mode": "moves",
        "players": [{"id": match.player1_id, "name": "Alice"}, {"id": match.player2_id, "name": "Bob"}],
        "score": [0, 0],
        "winner": None,
        "game_number": 1,
        "crawford": False,
        "post_crawford": False,
        "phase": "opening",
        "on_roll": None,
        "to_act": None,
        "dice": None,
        "cube": {"value": 1, "owner": None, "usable": True},
        "resignation": None,
        "position_id": "4HPwATDgc/ABMA",
        "match_id": MatchState.new(7).match_id(),
        "pips": [167, 167],
        "legal_actions": ["opening-roll"],
        "legal_plays": [],
    }
    r = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(1, 3), expected_seq=0)
    live = selectors.live_state(_fetch(match))
    assert (live["phase"], live["on_roll"], live["to_act"], live["dice"], live["status"], live["seq"]) == (
        "move",
        1,
        1,
        [3, 1],
        "in_progress",
        1,
    )
    assert live["legal_actions"] == ["play", "resign"]
    engine_plays = sorted(str(p) for p in r.state.game.legal_plays())
    assert sorted(live["legal_plays"]) == engine_plays and len(engine_plays) == 16
    assert "8/5 6/5" in live["legal_plays"] and "24/23 13/10" in live["legal_plays"]  # gnubg's canonical notation
    services.record_play(match.pk, actor=SYSTEM, side=1, play="6/5 8/5", expected_seq=1)
    live = selectors.live_state(_fetch(match))
    assert (live["phase"], live["on_roll"], live["dice"], live["legal_plays"]) == ("roll", 0, None, [])
    assert live["legal_actions"] == ["roll", "double", "resign"]
    assert live["pips"] == [167, 163]  # by side (side 0 first), whoever is on roll
    assert live["position_id"] == load_state(_fetch(match)).game.position(0).key()
    services.offer_double(match.pk, actor=SYSTEM, side=0, expected_seq=2)
    live = selectors.live_state(_fetch(match))
    assert (live["phase"], live["on_roll"], live["to_act"], live["legal_actions"]) == (
        "double-offered",
        0,
        1,
        ["take", "drop"],
    )
    services.take(match.pk, actor=SYSTEM, side=1, expected_seq=3)
    live = selectors.live_state(_fetch(match))
    assert live["cube"] == {"value": 2, "owner": 1, "usable": True} and live["legal_actions"] == ["roll", "resign"]
    services.offer_resignation(match.pk, actor=SYSTEM, side=1, kind=3, expected_seq=4)
    live = selectors.live_state(_fetch(match))
    assert live["resignation"] == {"side": 1, "kind": "backgammon"} and live["to_act"] == 0
    assert live["legal_actions"] == ["accept-resignation", "reject-resignation"]
    services.accept_resignation(match.pk, actor=SYSTEM, side=0, expected_seq=5)
    live = selectors.live_state(_fetch(match))
    assert (live["score"], live["game_number"], live["phase"], live["pips"]) == ([6, 0], 2, "opening", [167, 167])
    assert (live["crawford"], live["cube"]["usable"], live["legal_actions"]) == (True, False, ["opening-roll"])


def test_live_state_in_the_crawford_game_and_after(new_match, drive) -> None:
    match = new_match(length=3)
    d = drive(match, seed=1)
    d.result(1, 2)
    live = selectors.live_state(_fetch(match))
    assert (live["crawford"], live["post_crawford"], live["cube"]["usable"]) == (True, False, False)
    d.to_roll_phase()
    assert "double" not in selectors.live_state(_fetch(match))["legal_actions"]
    d.resign(1, 1)  # the leader gives the Crawford game away: 1-2
    d.accept()
    live = selectors.live_state(_fetch(match))
    assert (live["crawford"], live["post_crawford"], live["cube"]["usable"]) == (False, True, True)
    assert live["score"] == [1, 2]


def test_live_state_in_scoresheet_mode_offers_only_game_results(new_match, drive) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    assert selectors.live_state(_fetch(match))["legal_actions"] == ["game-result"]
    d.result(0, 1)
    assert selectors.live_state(_fetch(match))["legal_actions"] == ["game-result"]
    d.result(0, 2)
    live = selectors.live_state(_fetch(match))
    assert (live["legal_actions"], live["status"], live["winner"], live["score"]) == ([], "finished", 0, [3, 0])


def test_cube_history_lists_every_double_with_its_answer_and_value(new_match, drive, cast) -> None:
    match = new_match(length=0)
    d = drive(match, seed=2)
    d.to_roll_phase()
    first = d.game.on_roll
    a = d.double()
    d.take()
    d.roll()
    d.play()
    b = d.double()  # the owner redoubles to 4
    d.take()
    d.roll()
    d.play()
    c = d.double()  # back to the first doubler: 8, dropped
    d.drop()
    assert d.state.game_number == 2
    d.to_roll_phase()
    e = d.double()  # a double in game 2 still pending
    history = selectors.cube_history(_fetch(match))
    assert [(h.game, h.seq, h.doubler, h.value, h.response, h.responder) for h in history] == [
        (1, a.action.seq, first, 2, "take", 1 - first),
        (1, b.action.seq, 1 - first, 4, "take", first),
        (1, c.action.seq, first, 8, "drop", 1 - first),
        (2, e.action.seq, d.game.on_roll, 2, None, 1 - d.game.on_roll),
    ]
    # An undone double drops out of the history.
    services.undo_last_action(match.pk, actor=cast.as_director, reason="misclick")
    assert [h.seq for h in selectors.cube_history(_fetch(match))] == [a.action.seq, b.action.seq, c.action.seq]


def test_matches_visible_to(new_match, cast, django_user_model) -> None:
    public = new_match()
    private = new_match(private=True)
    other = services.create_player(display_name="Olga")
    theirs = services.start_match(player1=other, player2=cast.bob, length=3, private=True, created_by=cast.staff)
    everyone = {public.pk, private.pk, theirs.pk}
    expected = {
        None: {public.pk},
        AnonymousUser(): {public.pk},
        cast.stranger: {public.pk},
        cast.alice_user: {public.pk, private.pk},
        cast.bob_user: everyone,
        cast.director: {public.pk, private.pk},
        cast.staff: everyone,
    }
    for user, pks in expected.items():
        visible = set(selectors.matches_visible_to(user).values_list("pk", flat=True))
        assert visible == pks, user
        assert {m.pk for m in Match.objects.all() if access.can_read(user, m)} == pks, user


def _long_match(new_match, drive) -> Match:
    match = new_match(length=0)
    d = drive(match, seed=9)
    d.check_selectors = False
    while d.seq <= 300:
        d.play_out(double_when=lambda drv: drv.game.cube.value < 8)
    d.to_roll_phase()
    d.roll()
    assert d.seq > 300
    return match


def _short_match(new_match, drive) -> Match:
    match = new_match(length=0)
    d = drive(match, seed=9)
    d.to_roll_phase()
    d.double()
    d.take()
    d.roll()
    return match


@pytest.mark.parametrize("build", [_short_match, _long_match])
def test_reads_run_a_constant_number_of_queries(new_match, drive, django_assert_num_queries, build) -> None:
    match = build(new_match, drive)
    with django_assert_num_queries(1):
        fetched = _fetch(match)
        live = selectors.live_state(fetched)
    assert live["legal_plays"] and live["phase"] == "move"
    with django_assert_num_queries(1):
        history = selectors.cube_history(fetched)
    assert history
    with django_assert_num_queries(1):
        log = list(selectors.match_log(fetched))
        [(row.entered_by_user, row.undoes) for row in log]
    with django_assert_num_queries(1):
        list(selectors.match_games(fetched))


def test_reads_stay_within_a_small_bound_without_select_related(new_match, drive, django_assert_max_num_queries):
    match = _long_match(new_match, drive)
    with django_assert_max_num_queries(3):  # the match and its two players
        selectors.live_state(Match.objects.get(pk=match.pk))
