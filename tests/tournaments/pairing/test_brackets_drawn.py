"""Plans whose consolation and last chance are drawn round by round (``plan_bracket(..., drawn=True)``): their
slots sized by ``feeder_slots``, each side "drawn into round r", resolved through ``resolve_feeder``."""

from __future__ import annotations

import pytest

from tournaments.pairing import brackets
from tournaments.pairing.brackets import CONSOLATION, Drawn, Status
from tournaments.pairing.feeder import feeder_slots, fewest_byes

FORMATS = ("main-consolation", "progressive-consolation", "main-consolation-lastchance")


def play(plan: brackets.Plan, withdrawn: dict | None = None, **kw: object) -> brackets.Resolution[int]:
    """The better seed (lower number) wins every match, round after round, until nothing is ready."""
    seeds = {n: n for n in range(1, plan.entrants + 1)}
    places = {label: 100 + i for i, label in enumerate(plan.places)}
    results: dict[str, int | None] = {}
    while True:
        states = brackets.resolve(
            plan, seeds=seeds, results=results, places=places, places_closed=True, withdrawn=withdrawn, **kw
        )
        ready = [s for s in states.values() if s.status is Status.READY]
        if not ready:
            return states
        for s in ready:
            assert s.a is not None and s.b is not None
            results[s.key] = min(s.a, s.b)


def played(states: brackets.Resolution[int], bracket: str) -> list[tuple[str, int | None, int | None]]:
    return [(k, s.a, s.b) for k, s in states.items() if k.startswith(f"{bracket}-") and s.status is Status.FINISHED]


def test_a_drawn_consolation_has_the_slots_feeder_slots_gives_and_says_who_it_is_drawn_from() -> None:
    plan = brackets.plan_bracket(7, "main-consolation", drawn=True)
    assert plan.drawn == (CONSOLATION,)
    rounds = plan.rounds(CONSOLATION)
    assert tuple(len(r) for r in rounds) == feeder_slots([len(w) for w in plan.waves]) == (1, 1, 1)
    node = rounds[1][0]
    assert node.a == node.b == Drawn(CONSOLATION, 2)
    assert node.why_a == (
        "drawn once consolation round 2's players are known: the winners of consolation round 1 and the losers of "
        "main round 2 for whom it was his first main match"
    )
    assert plan.most_players(CONSOLATION) == 4 and plan.most_players("main") is None
    assert not brackets.plan_bracket(7, "main-consolation").drawn, "off by default"
    assert not brackets.plan_bracket(7, "double-elimination", drawn=True).drawn, "the losers' bracket is planned"


def test_seven_players_consolation_one_bye_and_its_final_in_round_2() -> None:
    """The plan made at the start gives seed 5 a second bye in round 3 (a round-2 loser who could never come)."""
    old = play(brackets.plan_bracket(7, "main-consolation"))
    assert [k for k, s in old.items() if k.startswith("consolation") and s.status is Status.BYE] == ["consolation-3-0"]
    plan = brackets.plan_bracket(7, "main-consolation", drawn=True)
    states = play(plan)
    assert played(states, CONSOLATION) == [("consolation-1-0", 6, 7), ("consolation-2-0", 5, 6)]
    assert states["consolation-3-0"].status is Status.EMPTY
    assert states.feeders[CONSOLATION].byes == {1: 5}
    assert brackets.champion(plan, states, CONSOLATION) == 5
    assert brackets.champion(plan, states) == 1


def test_a_drawn_round_waits_for_every_player_who_may_drop_in() -> None:
    plan = brackets.plan_bracket(7, "main-consolation", drawn=True)
    seeds = {n: n for n in range(1, 8)}
    states = brackets.resolve(plan, seeds=seeds, results={"main-1-1": 4}, places={}, places_closed=True)
    assert states["consolation-1-0"].status is Status.WAITING
    with pytest.raises(ValueError, match="not ready"):
        brackets.resolve(plan, seeds=seeds, results={"consolation-1-0": 6}, places={}, places_closed=True)


def test_a_withdrawn_player_is_not_drawn_from_the_round_he_left_before() -> None:
    plan = brackets.plan_bracket(7, "main-consolation", drawn=True)
    states = play(plan, withdrawn={CONSOLATION: {7: 1}})
    assert played(states, CONSOLATION) == [("consolation-1-0", 5, 6)]
    assert not states.feeders[CONSOLATION].byes
    assert 7 not in states.arrived[CONSOLATION]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_feeder_gives_more_byes_than_its_arrivals_force(fmt: str) -> None:
    for n in range(3, 34):
        plan = brackets.plan_bracket(n, fmt, drawn=True, **({"last_chance_places": 2} if "last" in fmt else {}))
        states = play(plan)
        for bracket, feeder in states.feeders.items():
            arrivals = [len(wave or ()) for wave in states.arrivals[bracket]]
            assert len(feeder.byes) == fewest_byes(arrivals), (n, bracket)
            assert states.unknown[bracket] == 0
        assert brackets.champion(plan, states) == 1
