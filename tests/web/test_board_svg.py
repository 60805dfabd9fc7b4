"""games/board_svg.py and the ``{% board %}`` tag: what the SVG holds (checkers, stacks, cube, dice, the last
play), that it is well-formed and accessible, and that every outside text is escaped."""

from __future__ import annotations

import re
from collections import Counter
from xml.etree import ElementTree

import pytest
from django.template import Context, Template

from engine.game import GameState
from engine.moves import Play
from engine.position import Position
from engine.variants import ACEY_DEUCEY
from games import board_svg
from games.board_svg import BoardScene, render_board, scene_from_state

SVG = "{http://www.w3.org/2000/svg}"

# The viewer: 7 on the 6-point (a tall stack), 3 on the 8, 2 on the 13, 1 on the bar, 2 borne off.
# The other side (own numbering): 5 on its 6, 3 on its 8, 5 on its 13, 1 on its 24, 1 borne off.
BUSY = Position.from_points({6: 7, 8: 3, 13: 2, 25: 1}, {6: 5, 8: 3, 13: 5, 24: 1})


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def counts(root: ElementTree.Element) -> dict[tuple[str, str, str | None], int]:
    """(side, where, point) -> data-count for every checker group of the SVG."""
    return {
        (g.get("data-side", ""), g.get("data-where", ""), g.get("data-point")): int(g.get("data-count", "0"))
        for g in root.iter(f"{SVG}g")
        if g.get("data-where")
    }


def expected_counts(position: Position) -> dict[tuple[str, str, str | None], int]:
    out: dict[tuple[str, str, str | None], int] = {}
    for side, slots in (("bottom", position.me), ("top", position.opp)):
        for own in range(1, 25):
            if slots[own]:
                point = own if side == "bottom" else 25 - own
                out[(side, "point", str(point))] = slots[own]
        out[(side, "bar", None)] = slots[25]
        out[(side, "off", None)] = slots[0]
        out[(side, "waiting", None)] = slots[26]
    return out


@pytest.mark.parametrize(
    "position",
    [Position.initial(), BUSY, Position.initial(ACEY_DEUCEY), Position.from_points({1: 1}, {2: 2})],
    ids=["start", "busy", "acey-deucey", "bear-off"],
)
def test_checker_counts_in_the_svg_equal_the_positions(position: Position) -> None:
    root = parse(render_board(BoardScene(position)))
    found = counts(root)
    assert found == expected_counts(position)
    totals = Counter()
    for (side, _, _), count in found.items():
        totals[side] += count
    assert totals == {"bottom": 15, "top": 15}


def test_at_most_five_checkers_are_drawn_on_a_point_and_a_taller_stack_shows_its_count() -> None:
    root = parse(render_board(BoardScene(BUSY)))
    six = next(g for g in root.iter(f"{SVG}g") if g.get("data-point") == "6" and g.get("data-side") == "bottom")
    assert len(six.findall(f"{SVG}circle")) == 5
    assert [t.text for t in six.findall(f"{SVG}text")] == ["7"]
    eight = next(g for g in root.iter(f"{SVG}g") if g.get("data-point") == "8" and g.get("data-side") == "bottom")
    assert len(eight.findall(f"{SVG}circle")) == 3
    assert eight.findall(f"{SVG}text") == []


def test_point_numbers_are_from_the_viewers_side() -> None:
    root = parse(render_board(BoardScene(Position.initial())))
    numbers = [t.text for t in next(g for g in root.iter(f"{SVG}g") if g.get("class") == "board-numbers")]
    assert sorted(map(int, numbers)) == list(range(1, 25))
    # the viewer's 24-point checkers are drawn over the top row, far right (the 24 is right of the 19)
    svg = render_board(BoardScene(Position.initial()))
    top, bottom = board_svg.NUMBERS_TOP_Y, board_svg.NUMBERS_BOTTOM_Y
    x24 = float(re.search(rf'<text x="([\d.]+)" y="{top}">24<', svg).group(1))
    x19 = float(re.search(rf'<text x="([\d.]+)" y="{top}">19<', svg).group(1))
    x1 = float(re.search(rf'<text x="([\d.]+)" y="{bottom}">1<', svg).group(1))
    assert x24 > x19 and x1 == x24


@pytest.mark.parametrize(
    ("owner", "usable", "shown", "where"),
    [(None, True, "1", "centre"), (0, True, "4", "bottom"), (1, True, "4", "top"), (None, False, "CR", "centre")],
)
def test_the_cube_shows_its_value_and_owner(owner: int | None, usable: bool, shown: str, where: str) -> None:
    value = 1 if owner is None else 4
    root = parse(render_board(BoardScene(Position.initial(), cube_value=value, cube_owner=owner, cube_usable=usable)))
    cube = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == (str(value), where)
    assert cube.find(f"{SVG}text").text == shown


def test_dice_are_drawn_with_their_pips_on_the_rollers_half() -> None:
    root = parse(render_board(BoardScene(Position.initial(), dice=(6, 1), dice_side=1)))
    dice = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "dice")
    assert dice.get("data-side") == "top"
    faces = [d for d in dice.iter(f"{SVG}g") if d.get("class") == "die"]
    assert [d.get("data-value") for d in faces] == ["6", "1"]
    assert [len(d.findall(f"{SVG}circle")) for d in faces] == [6, 1]
    assert not any(g.get("class") == "dice" for g in parse(render_board(BoardScene(Position.initial()))).iter())


def test_the_last_play_is_drawn_as_one_arrow_a_step_with_its_landing_points_outlined() -> None:
    play = Play(((8, 5, False), (6, 5, False)))
    root = parse(render_board(BoardScene(Position.initial().apply(play), play=play), uid="x"))
    last = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "last-play")
    assert last.get("data-play") == "8/5 6/5"
    arrows = last.findall(f"{SVG}path")
    assert len(arrows) == 2 and all(a.get("marker-end") == "url(#x-arrow)" for a in arrows)
    assert len(last.findall(f"{SVG}rect")) == 1  # both land on the 5-point
    assert root.find(f"{SVG}defs/{SVG}marker").get("id") == "x-arrow"


def test_pip_counts_for_both_sides_and_whose_turn() -> None:
    root = parse(render_board(BoardScene(BUSY, names=("Ann", "Bo"), to_act=1)))
    strips = {t.get("data-side"): t for t in root.iter(f"{SVG}text") if t.get("class") == "pips"}
    me, opp = BUSY.pips()
    assert strips["bottom"].get("data-pips") == str(me) and strips["top"].get("data-pips") == str(opp)
    assert strips["bottom"].text == f"Ann: {me} pips"
    assert "to act" in "".join(strips["top"].itertext())


def test_accessible_image_with_a_title_and_a_description_in_words() -> None:
    scene = BoardScene(
        BUSY, names=("Ann", "Bo"), dice=(3, 1), cube_value=2, cube_owner=1, to_act=0, caption="Game 2 · Ann 31"
    )
    root = parse(render_board(scene, uid="live"))
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 600 482" and root.get("width") is None
    assert root.get("aria-labelledby") == "live-title live-desc"
    assert root.find(f"{SVG}title").get("id") == "live-title"
    assert root.find(f"{SVG}title").text == "Game 2 · Ann 31"
    desc = root.find(f"{SVG}desc")
    assert desc.get("id") == "live-desc"
    me, opp = BUSY.pips()
    for words in (f"Ann (light checkers, bottom): {me} pips", f"Bo (dark checkers, top): {opp} pips", "1 on the bar",
                  "Ann is to act.", "Ann rolled 3-1.", "The cube is at 2, owned by Bo."):  # fmt: skip
        assert words in desc.text


def test_every_outside_text_is_escaped() -> None:
    evil = "<script>alert(1)</script>"
    scene = BoardScene(Position.initial(), names=(evil, 'Bo "&" Co'), caption=evil, to_act=0)
    svg = render_board(scene, uid='a"b')
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    root = parse(svg)  # still well-formed
    assert root.find(f"{SVG}title").text == evil
    assert 'Bo "&" Co' in root.find(f"{SVG}desc").text


def test_scene_from_an_engine_state_seen_by_either_side() -> None:
    state = GameState.new()  # the start of a game
    scene = scene_from_state(state, viewer=1, names=("Ann", "Bo"))
    assert scene.names == ("Bo", "Ann")
    assert scene.position.me == state.boards[1] and scene.to_act is None


def test_the_template_tag_draws_positions_states_and_scenes() -> None:
    template = Template('{% load board %}{% board subject uid="t" names=names %}')
    for subject in (Position.initial(), GameState.new(), BoardScene(Position.initial())):
        html = template.render(Context({"subject": subject, "names": ("<b>A</b>", "B")}))
        assert html.startswith("<svg") and 'id="t-title"' in html
        assert "<b>A</b>" not in html
    with pytest.raises(TypeError, match="BoardScene, a GameState or a Position"):
        Template("{% load board %}{% board 3 %}").render(Context())
