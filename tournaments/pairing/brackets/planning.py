"""``plan_bracket``: every match of a division planned from its format and options, the main draw, the losers'
bracket of double elimination, the consolation and last chance planned at the start or drawn round by round."""

from __future__ import annotations

from functools import lru_cache

from tournaments.pairing.brackets.graph import _Graph, _key
from tournaments.pairing.brackets.plan import (
    CONSOLATION,
    FORMATS,
    LAST_CHANCE,
    MAIN,
    BracketFormat,
    Drawn,
    Empty,
    Loser,
    Place,
    Plan,
    Seed,
    Source,
    Winner,
    describe,
)
from tournaments.pairing.brackets.waves import _Feeder
from tournaments.pairing.elimination import bracket_size, draw_single_elimination, feeds, rounds
from tournaments.pairing.feeder import feeder_slots


def plan_bracket(
    entrants: int,
    format: str,
    *,
    drop_rounds: int | None = None,
    last_chance_drop_rounds: int = 1,
    last_chance_places: int = 0,
    progressive: bool = False,
    reset: bool = True,
    walkover_as_bye: bool = False,
    drawn: bool = False,
) -> Plan:
    """Plan every match of a division of ``entrants`` seeds in ``format`` (see the module docstring).
    ``walkover_as_bye``: a main round-1 match may be a walkover, which counts like a bye for the first losses (its
    winner, beaten in round 2, lost his first match played): every main round-2 loser is then a conditional
    consolation entrant, and :func:`resolve` is told which round-1 matches were walkovers.
    ``drawn``: the consolation and the last chance are drawn round by round once each round's players are known
    (tournaments/pairing/feeder.py: a bye only where an odd count forces one), instead of placed at the start; each
    of their rounds has the slots ``feeder_slots`` gives the most players who can be in it, the sides ``Drawn``.
    Double elimination's losers' bracket is always planned.

    :raises ValueError: an unknown format, an empty field, or an option outside what the format allows.
    """
    options = (drop_rounds, last_chance_drop_rounds, last_chance_places, progressive, reset, walkover_as_bye, drawn)
    return _plan(entrants, format, *options)


@lru_cache(maxsize=256)
def _plan(
    entrants: int,
    format: str,
    drop_rounds: int | None,
    last_chance_drop_rounds: int,
    last_chance_places: int,
    progressive: bool,
    reset: bool,
    walkover_as_bye: bool = False,
    drawn: bool = False,
) -> Plan:
    fmt = _parse_format(format)
    if entrants < 1:
        raise ValueError(f"a bracket needs at least one player, got {entrants}")
    _refuse_foreign_options(fmt, drop_rounds, last_chance_drop_rounds, last_chance_places, progressive, reset)
    if walkover_as_bye and fmt in (BracketFormat.SINGLE, BracketFormat.DOUBLE_ELIMINATION):
        raise ValueError(f"walkover_as_bye does not apply to the {fmt} format (it has no consolation)")
    graph = _Graph(entrants, last_chance_places, walkover_as_bye)
    main_rounds = rounds(bracket_size(entrants))
    _add_main(graph, entrants)
    drops, lc_drops = 0, 0
    drawn = drawn and fmt not in (BracketFormat.SINGLE, BracketFormat.DOUBLE_ELIMINATION)
    consolation_waves: list[list[Source]] = []
    if fmt is BracketFormat.DOUBLE_ELIMINATION:
        drops = main_rounds
        _add_double_elimination(graph, main_rounds, reset)
    elif fmt is not BracketFormat.SINGLE:
        progressive = progressive or fmt is BracketFormat.PROGRESSIVE_CONSOLATION
        drops = _drop_rounds(entrants, main_rounds, drop_rounds, progressive)
        consolation_waves = _first_losses(graph, MAIN, drops)
        if drawn:
            _add_drawn(
                graph,
                CONSOLATION,
                [len(wave) for wave in consolation_waves],
                _consolation_words(consolation_waves, drops),
            )
        else:
            _Feeder(CONSOLATION, graph).build(consolation_waves, alone=False)
    if fmt is BracketFormat.LAST_CHANCE:
        lc_drops = _last_chance_rounds(graph, last_chance_drop_rounds)
        if drawn:
            possible = _drawn_first_losses(graph, CONSOLATION, lc_drops)
            possible[0] += len(graph.places)
            if not _add_drawn(graph, LAST_CHANCE, possible, _last_chance_words(graph, lc_drops)):
                graph.places = ()
        else:
            waves = _first_losses(graph, CONSOLATION, lc_drops) if lc_drops else []
            waves = waves or [[]]
            waves[0] = waves[0] + [Place(label) for label in graph.places]
            if _Feeder(LAST_CHANCE, graph).build(waves, alone=False) is None:
                graph.places = ()  # a last chance of one is not played: it has no place to fill
    nodes = tuple(graph.nodes.values())
    late = tuple(b for b in (CONSOLATION, LAST_CHANCE) if drawn and any(n.bracket == b for n in nodes))
    waves_ = tuple(tuple(wave) for wave in consolation_waves) if CONSOLATION in late else ()
    capacity = tuple((b, graph.capacity[b]) for b in late)
    drops_ = tuple(graph.drops)
    return Plan(fmt, entrants, main_rounds, drops, lc_drops, nodes, drops_, graph.places, late, waves_, capacity)


def _add_drawn(graph: _Graph, bracket: str, possible: list[int], words: list[str]) -> bool:
    """The slots of a feeder bracket drawn round by round (``possible[k]``: the most players who can drop in before
    its round ``k + 1``; ``words[k]``: who its round ``k + 1`` is drawn from): none when fewer than two players can
    reach it (a flight of one is not played). Returns whether it has any."""
    if sum(possible) < 2:
        return False
    graph.capacity[bracket] = tuple(possible)
    for round_, count in enumerate(feeder_slots(possible), 1):
        said = words[round_ - 1] if round_ <= len(words) else f"the winners of {bracket} round {round_ - 1}"
        why = f"drawn once {bracket} round {round_}'s players are known: {said}"
        for index in range(count):
            graph.add(bracket, round_, index, (Drawn(bracket, round_), why), (Drawn(bracket, round_), why))
    return True


def _consolation_words(waves: list[list[Source]], drops: int) -> list[str]:
    """Who each round of a drawn consolation is drawn from, in words."""
    words = []
    for round_, wave in enumerate(waves, 1):
        within = any(isinstance(s, Loser) and s.within is not None for s in wave)
        nth = "his first main match" if drops == 1 else f"one of his first {drops} main matches"
        losers = f"the losers of main round {round_}" + (f" for whom it was {nth}" if within else "")
        before = f"the winners of consolation round {round_ - 1}"
        words.append(losers if round_ == 1 else f"{before} and {losers}" if wave else before)
    return words


def _last_chance_words(graph: _Graph, lc_drops: int) -> list[str]:
    nth = "their first consolation match" if lc_drops == 1 else f"one of their first {lc_drops} consolation matches"
    places = " and the entry places" if graph.places else ""
    words = []
    for round_ in range(1, max(graph.rounds_of(CONSOLATION), 1)):
        losers = f"the losers of consolation round {round_} who lost {nth}"
        words.append(losers + places if round_ == 1 else f"the winners of last-chance round {round_ - 1} and {losers}")
    return words or ["the entry places"]


def _drawn_first_losses(graph: _Graph, bracket: str, matches: int) -> list[int]:
    """The most players who can drop out of a drawn ``bracket`` into the next in each of its rounds but the last:
    every loser of a round but the last, while anyone there may have played no more than ``matches`` matches."""
    last = graph.rounds_of(bracket)
    counts = [sum(1 for n in graph.nodes.values() if n.bracket == bracket and n.round == r) for r in range(1, last)]
    return [c if matches else 0 for c in counts] or [0]


def _parse_format(format: str) -> BracketFormat:
    if format not in FORMATS:
        raise ValueError(f"unknown bracket format {format!r}: choose one of {', '.join(FORMATS)}")
    return BracketFormat(format)


def _refuse_foreign_options(
    fmt: BracketFormat, drop: int | None, lc_drop: int, places: int, progressive: bool, reset: bool
) -> None:
    consolation = fmt in (BracketFormat.MAIN_CONSOLATION, BracketFormat.PROGRESSIVE_CONSOLATION)
    refused = {
        "drop_rounds": drop is not None and not (consolation or fmt is BracketFormat.LAST_CHANCE),
        "last_chance_drop_rounds": lc_drop != 1 and fmt is not BracketFormat.LAST_CHANCE,
        "last_chance_places": places != 0 and fmt is not BracketFormat.LAST_CHANCE,
        "progressive": progressive and fmt not in (BracketFormat.LAST_CHANCE, BracketFormat.PROGRESSIVE_CONSOLATION),
        "reset": not reset and fmt is not BracketFormat.DOUBLE_ELIMINATION,
    }
    for option, bad in refused.items():
        if bad:
            raise ValueError(f"{option} does not apply to the {fmt} format")
    if places < 0:
        raise ValueError(f"last_chance_places cannot be negative, got {places}")


def _drop_rounds(entrants: int, main_rounds: int, chosen: int | None, progressive: bool) -> int:
    """Main rounds whose losers drop: never the final's loser (the runner-up)."""
    most = main_rounds - 1 if progressive else min(2, main_rounds - 1)
    if chosen is None:
        return most if progressive else min(1, most)
    if most < 1:
        raise ValueError(f"drop_rounds cannot be set: a {entrants}-player main bracket is only its final")
    if not 1 <= chosen <= most:
        span = f"for a {entrants}-player main bracket (it has {main_rounds} rounds)"
        hint = "" if progressive else "; use progressive-consolation to drop later losers too"
        raise ValueError(f"drop_rounds must be between 1 and {most} {span}{hint}")
    return chosen


def _last_chance_rounds(graph: _Graph, chosen: int) -> int:
    """Consolation rounds whose losers drop into the last chance: never the consolation final's loser."""
    most = graph.rounds_of(CONSOLATION) - 1
    if most < 1 and chosen == 1:
        return 0  # the default, when the consolation is at most its final: only the places enter
    if most < 1:
        raise ValueError("last_chance_drop_rounds cannot be set: this consolation has no round before its final")
    if not 1 <= chosen <= most:
        raise ValueError(
            f"last_chance_drop_rounds must be between 1 and {most}: this consolation has {most + 1} rounds "
            "and the loser of its final does not drop"
        )
    return chosen


def _add_main(graph: _Graph, entrants: int) -> None:
    size = bracket_size(entrants)
    for slot in draw_single_elimination(entrants):
        assert slot.a is not None  # every round-1 slot holds a real seed (elimination.py)
        b: Source = Empty() if slot.b is None else Seed(slot.b)
        why_b = f"seed {slot.b}" if slot.b else f"bye: there is no seed {size + 1 - slot.a} in this field"
        graph.add(MAIN, 1, slot.index, (Seed(slot.a), f"seed {slot.a}"), (b, why_b))
    for (r, index), ((r1, i1), (r2, i2)) in feeds(size).items():
        a, b = Winner(_key(MAIN, r1, i1)), Winner(_key(MAIN, r2, i2))
        graph.add(MAIN, r, index, (a, describe(a)), (b, describe(b)))


def _add_double_elimination(graph: _Graph, main_rounds: int, reset: bool) -> None:
    champion = _Feeder(CONSOLATION, graph).build([_losers(graph, MAIN, r) for r in range(1, main_rounds + 1)])
    if champion is None:
        return  # a lone entrant: nobody ever loses, so there is no losers' bracket and no grand final
    unbeaten = Winner(_key(MAIN, main_rounds, 0))
    grand = graph.add(
        MAIN,
        main_rounds + 1,
        0,
        (unbeaten, f"{describe(unbeaten)}: the main-bracket champion, still unbeaten"),
        (champion, f"{describe(champion)}: the consolation champion, beaten once"),
    )
    if reset:
        why_a = "the main-bracket champion, after his first loss in the grand final"
        why_b = "the consolation champion, who won the grand final; the reset is played only then"
        graph.add(MAIN, main_rounds + 2, 0, (Loser(grand), why_a), (Winner(grand), why_b), conditional=True)


def _first_losses(graph: _Graph, bracket: str, matches: int) -> list[list[Source]]:
    """The waves of the players who lose one of their first ``matches`` matches in ``bracket`` (a bye is an advance,
    not a match), one wave per round of the bracket, its final's loser never: the loser of a round-2 match who had a
    bye in round 1 lost his first match. Where a node's loser may or may not qualify (one side had a bye, the other
    did not), the source is conditional (``Loser(key, within=matches)``)."""
    waves: list[list[Source]] = []
    last = graph.rounds_of(bracket)
    for round_ in range(1, last):
        wave: list[Source] = []
        for node in (n for n in graph.nodes.values() if n.bracket == bracket and n.round == round_):
            counts = graph.loser_counts(node)
            if not counts or min(counts) > matches:
                continue
            wave.append(Loser(node.key) if max(counts) <= matches else Loser(node.key, within=matches))
        waves.append(wave)
    return waves


def _losers(graph: _Graph, bracket: str, round_: int) -> list[Source]:
    """The losers of a round, top to bottom, leaving out matches that statically have a single player."""
    nodes = [n for n in graph.nodes.values() if n.bracket == bracket and n.round == round_]
    return [Loser(n.key) for n in nodes if not isinstance(n.b, Empty)]
