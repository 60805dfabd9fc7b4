"""The phone's copy of the scoresheet's score rule, checked against the engine for every score (Chromium).

A scoresheet match's entry page keeps, off the network, the score of the results waiting on the phone:
static/js/entry-outbox.js, ``afterGame``, restates engine/match.py (MatchState._finish_game: the points, the
Crawford game, post-Crawford games, the match's end) because the phone has no engine to ask. This test pins that
mirror: on the real entry page of matches of 1, 2, 3, 5 and 7 points (with and without the Crawford rule, casual)
and of a money session, it walks every state the results can reach from 0-0 (each winner, every number of points
the form's results and cube values give) and compares each step of the page's function with MatchState after the
same GameResult. The page's start is the form as the server renders it; each next step starts from what the
function answered, as the phone does. A second test checks that what the function answers is what the server
renders once the same results are recorded (a reload of the page then carries on from it). Run with
RUN_BROWSER_TESTS=1.
"""

from __future__ import annotations

from typing import Any

import pytest

import games.services
from common.actor import SYSTEM
from engine.actions import GameResult
from engine.errors import IllegalActionError
from engine.match import MatchState
from engine.types import ResultKind
from games import access
from games.entry import CUBE_VALUES, RESULT_KINDS
from games.models import Match
from tests.web.browser.conftest import Pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MONEY_BOUND = 8  # a money session never ends: its states are walked up to this score
AFTER_GAME = "cases => cases.map(([data, fields]) => window.bgmatchScoresheet.afterGame(data, fields))"


def entry_page(pages: Pages, match: Match) -> Any:
    """The first player's entry page of ``match``, on a phone."""
    return pages.open(f"/play/{access.token_text(access.new_entry_token(match, 0))}/", viewport="phone")


def kept_on(form: Any) -> dict[str, str]:
    """The match as the result form keeps it (its data attributes)."""
    return dict(form.evaluate("f => Object.assign({}, f.dataset)"))


def expected(after: MatchState) -> dict[str, Any]:
    """What the page's function must answer for the engine's state ``after`` (its words, as the page keeps them)."""
    answer: dict[str, Any] = {
        "score": f"{after.score[0]} {after.score[1]}",
        "crawford": {
            name
            for name, on in (
                ("rule", after.crawford_rule),
                ("game", after.crawford_game),
                ("played", after.crawford_played),
            )
            if on
        },
        "crawfordGame": after.crawford_game,
        "postCrawford": after.post_crawford and not after.is_over,
        "over": after.is_over,
        "winner": after.winner,
    }
    if not after.is_over:  # the next game: its number and the cube values its result may have
        answer["game"] = str(after.game_number)
        answer["cubeValues"] = [str(v) for v in CUBE_VALUES] if after.game.cube_enabled else ["1"]
    return answer


def seen_as(answer: dict[str, Any], after: MatchState) -> dict[str, Any]:
    """The page's answer in the terms of :func:`expected` (its Crawford flags as a set)."""
    kept = {**answer, "crawford": set(answer["crawford"].split())}
    if after.is_over:
        kept.pop("game"), kept.pop("cubeValues")
    return kept


def results(state: MatchState, cube_values: list[str]) -> list[tuple[int, int, int]]:
    """Every result the form offers in ``state`` (winner, kind, cube), one per number of points each side may win:
    the engine's answer depends on the points, not on how they were made up."""
    kinds = [1] if state.casual else [value for value, _label in RESULT_KINDS]
    offered: dict[tuple[int, int], tuple[int, int, int]] = {}
    for winner in (0, 1):
        for kind in kinds:
            for cube in map(int, cube_values):
                offered.setdefault((winner, kind * cube), (winner, kind, cube))
    return list(offered.values())


@pytest.mark.parametrize(
    ("length", "crawford", "casual"),
    [(n, True, False) for n in (1, 2, 3, 5, 7)]
    + [(n, False, False) for n in (1, 2, 3, 5, 7)]
    + [(n, True, True) for n in (1, 3, 7)]
    + [(0, False, False)],
)
def test_the_phone_keeps_the_score_as_the_engine_does(
    pages: Pages, new_match: Any, length: int, crawford: bool, casual: bool
) -> None:
    """Every state the results can reach from 0-0, level by level (one call into the page per level), each step
    of the page's function against MatchState after the same result; a result the form offers that the engine
    refuses (a doubled Crawford game) fails too."""
    match = new_match(length=length, entry_mode=Match.EntryMode.SCORESHEET, crawford=crawford, casual=casual)
    page = entry_page(pages, match)
    form = page.locator("form.result-form")
    data = kept_on(form)
    cube_values = form.locator("select[name=cube] option").all_inner_texts() or ["1"]  # casual: no cube to choose
    state = MatchState.new(length, crawford_rule=crawford, casual=casual)
    assert (data["score"], data["game"], set(data["crawford"].split())) == ("0 0", "1", expected(state)["crawford"])

    frontier = [(state, data, cube_values)]
    reached = {(state.score, state.crawford_game, state.crawford_played)}
    while frontier:
        cases = []
        for before, kept, offered in frontier:
            for winner, kind, cube in results(before, offered):
                try:
                    after = before.apply(GameResult(winner, ResultKind(kind), cube))
                except IllegalActionError as refusal:
                    raise AssertionError(f"the form offers a result the engine refuses: {refusal}") from refusal
                fields = [["winner", str(winner)], ["result", str(kind)], ["cube", str(cube)]]
                cases.append((before, kept, fields, after))
        answers = page.evaluate(AFTER_GAME, [[kept, fields] for _before, kept, fields, _after in cases])
        frontier = []
        for (before, kept, fields, after), answer in zip(cases, answers, strict=True):
            step = f"{length}-point match at {before.score}, {kept['crawford']!r}, game {kept['game']}, {fields}"
            assert seen_as(answer, after) == expected(after), step
            key = (after.score, after.crawford_game, after.crawford_played)
            if not after.is_over and key not in reached and max(after.score) < (length or MONEY_BOUND):
                reached.add(key)
                moved_on = {**kept, "score": answer["score"], "crawford": answer["crawford"], "game": answer["game"]}
                frontier.append((after, moved_on, answer["cubeValues"]))
    scores = {score for score, _game, _played in reached}
    assert len(scores) == (length or MONEY_BOUND) ** 2, "every score short of the match's end was walked"


def test_what_the_phone_keeps_is_what_the_server_renders_after_the_same_results(pages: Pages, new_match: Any) -> None:
    """A 5-point match through the Crawford game and past it: after each result the page's function answers from
    the form, the same result recorded on the server, the reloaded form carries the same score, game, Crawford flags
    and cube values (the function reads what the server writes, whatever the state)."""
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    page = entry_page(pages, match)
    form = page.locator("form.result-form")
    seq = match.seq
    path = [(0, 1, 2), (1, 1, 1), (0, 2, 1), (1, 1, 1), (1, 1, 2), (0, 1, 1)]  # 2-0 2-1 4-1 (Crawford) 4-2 4-4 5-4
    for winner, kind, cube in path:
        fields = [["winner", str(winner)], ["result", str(kind)], ["cube", str(cube)]]
        answer = page.evaluate(AFTER_GAME, [[kept_on(form), fields]])[0]
        seq = games.services.record_game_result(
            match.pk, actor=SYSTEM, winner=winner, kind=kind, cube_value=cube, expected_seq=seq
        ).match.seq
        page.reload()
        if answer["over"]:
            break
        rendered = kept_on(form)
        assert (rendered["score"], rendered["game"], set(rendered["crawford"].split())) == (
            answer["score"],
            answer["game"],
            set(answer["crawford"].split()),
        ), fields
        assert form.locator("select[name=cube] option").all_inner_texts() == answer["cubeValues"], fields
    assert answer["over"] and answer["score"] == "5 4"
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert form.count() == 0  # no game to enter after the match's end
