"""The backgammon board as inline SVG: a pure function of engine values (no database, no request).

A :class:`BoardScene` says what one picture shows, from the *viewer's* side: the viewer sits at the bottom, plays
the light checkers and moves from the top right (their 24-point) round to the bottom right (their 1-point), with
the bear-off tray on the right. ``position.me`` is the viewer's checkers in the viewer's numbering and
``position.opp`` the other player's in theirs (engine/position.py: slot 0 off, 1-24 points, 25 bar, 26 waiting to
enter in Acey-Deucey). "Bottom" and "top" below mean the viewer and the other player.

:func:`render_board` draws: the 24 points in alternating colours numbered from the viewer's side, the checkers
(at most five drawn on a point, the count written on the outermost when there are more), the bar, the trays with
their counts, Acey-Deucey checkers still waiting to enter, the cube (centred, or on its owner's side), the dice
on the roller's half, the last play as translucent arrows with its landing points outlined, and each side's pip
count. The SVG scales to its container (``viewBox``), is an ``img`` for assistive technology, and its ``<title>``
and ``<desc>`` say in words what the picture shows. Every text from outside (names, captions) is escaped.

Each element that stands for checkers carries ``data-side`` (``bottom``/``top``), ``data-where`` (``point``,
``bar``, ``off`` or ``waiting``) and ``data-count``: the counts add up to 15 a side, whatever is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.game import GameState, Phase
from engine.moves import Play
from engine.notation import format_play
from engine.position import Position
from engine.types import BAR, OFF, WAITING

BOTTOM, TOP = 0, 1

# -- geometry (viewBox units) ------------------------------------------------------------------------------------
WIDTH, HEIGHT = 600, 482
CUBE_X, CUBE_SIZE = 6, 34
FRAME_LEFT, FRAME_RIGHT = 46, 598
LEFT_X, BAR_X, RIGHT_X, INNER_RIGHT = 56, 272, 312, 528  # left quarter, bar, right quarter, end of the points
TRAY_X, TRAY_WIDTH = 538, 50
POINT_WIDTH = 36
TOP_Y, MIDDLE_TOP, MIDDLE_BOTTOM, BOTTOM_Y = 72, 222, 268, 418  # top points, the middle gap, bottom points
FRAME_TOP, FRAME_BOTTOM = 62, 428
# Above and below the frame: the point numbers and each side's pip line, with room for the larger type a phone gets
# (static/css/site.css draws them at 21 units there, where the board is shrunk to about half its size).
NUMBERS_TOP_Y, NUMBERS_BOTTOM_Y = FRAME_TOP - 6, FRAME_BOTTOM + 20
STRIP_TOP_Y, STRIP_BOTTOM_Y = 24, HEIGHT - 8
RADIUS = 15  # five checkers fill a point's 150 units
SHOWN = 5  # checkers drawn on one spot; the count is written on the last when there are more
POINT_DEPTH = 138

# -- colours (each checker has an outline of the opposite tone, so it stands out on either point colour) ----------
INK = "#1d1f21"
LIGHT = "#f6f1e4"
DARK = "#2a2d31"
FELT = "#e8dcc0"
WOOD = "#5a3a22"
POINT_COLOURS = ("#9c3512", "#2f5d7c")
HIGHLIGHT = "#d18b00"


@dataclass(frozen=True, slots=True)
class BoardScene:
    """One picture of the board, from the viewer's side (see the module docstring). Sides: 0 bottom, 1 top."""

    position: Position
    names: tuple[str, str] = ("", "")
    dice: tuple[int, int] | None = None
    dice_side: int | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    cube_usable: bool = True
    casual: bool = False  # no doubling cube at all: none is drawn
    play: Play | None = None
    play_side: int = BOTTOM
    to_act: int | None = None
    caption: str = ""

    def name(self, side: int) -> str:
        return self.names[side] or (_("Bottom player") if side == BOTTOM else _("Top player"))

    def side_slots(self, side: int) -> tuple[int, ...]:
        return self.position.me if side == BOTTOM else self.position.opp


def scene_from_state(
    state: GameState,
    *,
    viewer: int = 0,
    names: tuple[str, str] = ("", ""),
    play: Play | None = None,
    play_by: int | None = None,
    dice: tuple[int, int] | None = None,
    dice_by: int | None = None,
    caption: str = "",
) -> BoardScene:
    """The scene of an engine :class:`GameState` seen by match side ``viewer``; ``names`` are the match's sides
    0 and 1, ``play_by``/``dice_by`` match sides. The state's own dice are shown unless ``dice`` is given."""

    def seat(side: int | None) -> int | None:
        return None if side is None else (BOTTOM if side == viewer else TOP)

    other = 1 - viewer
    shown_dice = dice if dice is not None else state.dice
    acting = state.phase not in (Phase.OPENING, Phase.OVER)
    return BoardScene(
        position=Position(state.boards[viewer], state.boards[other], validate=False),
        names=(names[viewer], names[other]),
        dice=shown_dice,
        dice_side=seat(dice_by if dice is not None else state.on_roll) if shown_dice else None,
        cube_value=state.cube.value,
        cube_owner=seat(state.cube.owner),
        cube_usable=state.cube_enabled,
        casual=state.casual,
        play=play,
        play_side=seat(play_by) or BOTTOM,
        to_act=seat(state.actor) if acting else None,
        caption=caption,
    )


# -- the picture -------------------------------------------------------------------------------------------------


def render_board(scene: BoardScene, *, uid: str = "board") -> str:
    """The SVG markup of ``scene``. ``uid`` prefixes the element ids: give each board on a page its own."""
    uid = escape(uid)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{uid}-title {uid}-desc" focusable="false">',
        f'<title id="{uid}-title">{escape(scene.caption or _("Backgammon board"))}</title>',
        f'<desc id="{uid}-desc">{escape(describe(scene))}</desc>',
        _defs(uid),
        _frame(),
        *_points(),
        *_numbers(),
        *_all_checkers(scene),
        _cube(scene),
        _dice(scene),
        _play(scene, uid),
        _strips(scene),
        "</svg>",
    ]
    return "".join(parts)


def _defs(uid: str) -> str:
    return (
        f'<defs><marker id="{uid}-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{HIGHLIGHT}"/></marker></defs>'
    )


def _frame() -> str:
    width, height = FRAME_RIGHT - FRAME_LEFT, FRAME_BOTTOM - FRAME_TOP
    return (
        f'<rect x="{FRAME_LEFT}" y="{FRAME_TOP}" width="{width}" height="{height}" rx="4" fill="{WOOD}"/>'
        f'<rect x="{LEFT_X}" y="{TOP_Y}" width="{BAR_X - LEFT_X}" height="{BOTTOM_Y - TOP_Y}" fill="{FELT}"/>'
        f'<rect x="{RIGHT_X}" y="{TOP_Y}" width="{INNER_RIGHT - RIGHT_X}" height="{BOTTOM_Y - TOP_Y}" fill="{FELT}"/>'
        f'<rect x="{TRAY_X}" y="{TOP_Y}" width="{TRAY_WIDTH}" height="{MIDDLE_TOP - TOP_Y}" fill="{FELT}"/>'
        f'<rect x="{TRAY_X}" y="{MIDDLE_BOTTOM}" width="{TRAY_WIDTH}" height="{BOTTOM_Y - MIDDLE_BOTTOM}" '
        f'fill="{FELT}"/>'
    )


def point_x(point: int) -> float:
    """The centre of the viewer's ``point`` (1-24) across the board."""
    if point <= 6:
        return INNER_RIGHT - (point - 0.5) * POINT_WIDTH
    if point <= 12:
        return BAR_X - (point - 6.5) * POINT_WIDTH
    if point <= 18:
        return LEFT_X + (point - 12.5) * POINT_WIDTH
    return RIGHT_X + (point - 18.5) * POINT_WIDTH


def _is_bottom_row(point: int) -> bool:
    return point <= 12


def _points() -> list[str]:
    out = []
    for point in range(1, 25):
        x, half = point_x(point), POINT_WIDTH / 2
        base, tip = (BOTTOM_Y, BOTTOM_Y - POINT_DEPTH) if _is_bottom_row(point) else (TOP_Y, TOP_Y + POINT_DEPTH)
        colour = POINT_COLOURS[point % 2]
        out.append(f'<path d="M{x - half:g},{base}L{x + half:g},{base}L{x:g},{tip}z" fill="{colour}"/>')
    return out


def _numbers() -> list[str]:
    out = [f'<g class="board-numbers" font-size="14" text-anchor="middle" fill="{INK}">']
    for point in range(1, 25):
        y = NUMBERS_BOTTOM_Y if _is_bottom_row(point) else NUMBERS_TOP_Y
        out.append(f'<text x="{point_x(point):g}" y="{y}">{point}</text>')
    out.append("</g>")
    return out


# -- checkers ------------------------------------------------------------------------------------------------------


def _all_checkers(scene: BoardScene) -> list[str]:
    out: list[str] = []
    for side in (BOTTOM, TOP):
        slots = scene.side_slots(side)
        for own_point in range(1, 25):
            if slots[own_point]:
                out.append(_point_stack(side, own_point, slots[own_point]))
        out.append(_bar_stack(side, slots[BAR]))
        out.append(_tray(side, slots[OFF], slots[WAITING]))
    return out


def viewer_point(side: int, own_point: int) -> int:
    """A side's own point number as the viewer numbers it."""
    return own_point if side == BOTTOM else 25 - own_point


def _colours(side: int) -> tuple[str, str]:
    return (LIGHT, INK) if side == BOTTOM else (DARK, LIGHT)


def _side_word(side: int) -> str:
    return "bottom" if side == BOTTOM else "top"


def _stack(side: int, count: int, x: float, first_y: float, step: float) -> str:
    fill, edge = _colours(side)
    circles = [
        f'<circle cx="{x:g}" cy="{first_y + i * step:g}" r="{RADIUS - 1}" fill="{fill}" stroke="{edge}" '
        f'stroke-width="1.5"/>'
        for i in range(min(count, SHOWN))
    ]
    if count > SHOWN:
        y = first_y + (SHOWN - 1) * step
        circles.append(
            f'<text class="checker-count" x="{x:g}" y="{y + 5:g}" text-anchor="middle" font-size="15" '
            f'font-weight="700" fill="{edge}">{count}</text>'
        )
    return "".join(circles)


def _point_stack(side: int, own_point: int, count: int) -> str:
    point = viewer_point(side, own_point)
    bottom_row = _is_bottom_row(point)
    first_y, step = (BOTTOM_Y - RADIUS, -2 * RADIUS) if bottom_row else (TOP_Y + RADIUS, 2 * RADIUS)
    return (
        f'<g data-side="{_side_word(side)}" data-where="point" data-point="{point}" data-count="{count}">'
        f"{_stack(side, count, point_x(point), first_y, step)}</g>"
    )


def _bar_stack(side: int, count: int) -> str:
    x = (BAR_X + RIGHT_X) / 2
    if side == BOTTOM:  # the viewer's checkers wait on the bar's lower half, the other's on the upper half
        first_y, step = MIDDLE_BOTTOM + RADIUS, 2 * RADIUS
    else:
        first_y, step = MIDDLE_TOP - RADIUS, -2 * RADIUS
    drawn = _stack(side, count, x, first_y, step) if count else ""
    return f'<g data-side="{_side_word(side)}" data-where="bar" data-count="{count}">{drawn}</g>'


def _tray(side: int, off: int, waiting: int) -> str:
    fill, edge = _colours(side)
    x = TRAY_X + 6
    slabs = []
    for i in range(off):  # a borne-off checker is drawn edge-on: a slab 8 units thick, from the outer end
        y = BOTTOM_Y - 9 * (i + 1) if side == BOTTOM else TOP_Y + 1 + 9 * i
        slabs.append(
            f'<rect x="{x}" y="{y}" width="{TRAY_WIDTH - 12}" height="8" rx="2" fill="{fill}" stroke="{edge}"/>'
        )
    label_y = MIDDLE_BOTTOM - 5 if side == BOTTOM else MIDDLE_TOP + 17  # in the wooden gap between the trays
    label = escape(_("%(count)s off") % {"count": off})
    tray = (
        f'<g data-side="{_side_word(side)}" data-where="off" data-count="{off}">{"".join(slabs)}'
        f'<text class="tray-label" x="{TRAY_X + TRAY_WIDTH / 2:g}" y="{label_y}" text-anchor="middle" font-size="12" '
        f'fill="{LIGHT}">{label}</text></g>'
    )
    return tray + _waiting(side, waiting)


def _waiting(side: int, count: int) -> str:
    """Acey-Deucey checkers not yet entered: one checker in the tray, near the middle, with the count on it."""
    if not count:
        return f'<g data-side="{_side_word(side)}" data-where="waiting" data-count="0"></g>'
    fill, edge = _colours(side)
    x = TRAY_X + TRAY_WIDTH / 2
    y = MIDDLE_BOTTOM + 2 * RADIUS + 4 if side == BOTTOM else MIDDLE_TOP - 2 * RADIUS - 4
    return (
        f'<g data-side="{_side_word(side)}" data-where="waiting" data-count="{count}">'
        f'<circle cx="{x:g}" cy="{y}" r="{RADIUS}" fill="{fill}" stroke="{edge}" stroke-width="1.5" '
        f'stroke-dasharray="3 2"/><text class="checker-count" x="{x:g}" y="{y + 5}" text-anchor="middle" '
        f'font-size="14" font-weight="700" fill="{edge}">{count}</text></g>'
    )


# -- cube, dice, the last play, the strips -------------------------------------------------------------------------


def _cube(scene: BoardScene) -> str:
    if scene.casual:
        return ""
    if scene.cube_owner == TOP:
        y = TOP_Y + 4
    elif scene.cube_owner == BOTTOM:
        y = BOTTOM_Y - 4 - CUBE_SIZE
    else:
        y = (MIDDLE_TOP + MIDDLE_BOTTOM - CUBE_SIZE) // 2
    owner = {None: "centre", BOTTOM: "bottom", TOP: "top"}[scene.cube_owner]
    text = str(scene.cube_value) if scene.cube_usable else _("CR")
    dash = "" if scene.cube_usable else ' stroke-dasharray="4 3"'
    return (
        f'<g class="cube" data-value="{scene.cube_value}" data-owner="{owner}">'
        f'<rect x="{CUBE_X}" y="{y}" width="{CUBE_SIZE}" height="{CUBE_SIZE}" rx="5" fill="#fff" stroke="{INK}" '
        f'stroke-width="2"{dash}/><text class="cube-value{"" if len(text) < 3 else " cube-value-long"}" '
        f'x="{CUBE_X + CUBE_SIZE / 2:g}" y="{y + 23}" text-anchor="middle" font-size="{17 if len(text) < 3 else 13}" '
        f'font-weight="700" fill="{INK}">{escape(text)}</text></g>'
    )


_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _die(value: int, x: float, y: float, side: int) -> str:
    fill, edge = _colours(side)
    size = 28
    dots = "".join(
        f'<circle cx="{x + size / 2 + dx * 7:g}" cy="{y + size / 2 + dy * 7:g}" r="2.8" fill="{edge}"/>'
        for dx, dy in _PIPS[value]
    )
    return (
        f'<g class="die" data-value="{value}"><rect x="{x:g}" y="{y:g}" width="{size}" height="{size}" rx="5" '
        f'fill="{fill}" stroke="{edge}" stroke-width="1.5"/>{dots}</g>'
    )


def _dice(scene: BoardScene) -> str:
    if not scene.dice:
        return ""
    side = scene.dice_side if scene.dice_side is not None else BOTTOM
    centre = (RIGHT_X + INNER_RIGHT) / 2 if side == BOTTOM else (LEFT_X + BAR_X) / 2
    y = (MIDDLE_TOP + MIDDLE_BOTTOM) / 2 - 14
    d1, d2 = scene.dice
    return (
        f'<g class="dice" data-side="{_side_word(side)}">'
        f"{_die(d1, centre - 32, y, side)}{_die(d2, centre + 4, y, side)}</g>"
    )


def _anchor(side: int, own_point: int) -> tuple[float, float]:
    """Where an arrow of the last play starts or ends for a side's own point (bar, off and waiting included)."""
    if own_point in (BAR, WAITING):
        return (BAR_X + RIGHT_X) / 2, (MIDDLE_TOP + MIDDLE_BOTTOM) / 2
    if own_point == OFF:
        y = (MIDDLE_BOTTOM + BOTTOM_Y) / 2 if side == BOTTOM else (TOP_Y + MIDDLE_TOP) / 2
        return TRAY_X + TRAY_WIDTH / 2, y
    point = viewer_point(side, own_point)
    y = BOTTOM_Y - 3 * RADIUS if _is_bottom_row(point) else TOP_Y + 3 * RADIUS
    return point_x(point), y


def _play(scene: BoardScene, uid: str) -> str:
    if not scene.play:
        return ""
    side = scene.play_side
    out = [f'<g class="last-play" data-play="{escape(format_play(scene.play))}" opacity="0.85">']
    for step in scene.play.steps:
        out.append(_arrow(_anchor(side, step.src), _anchor(side, step.dst), uid))
    for point in sorted({step.dst for step in scene.play.steps if step.dst != OFF}):
        out.append(_landing(viewer_point(side, point)))
    out.append("</g>")
    return "".join(out)


def _arrow(start: tuple[float, float], end: tuple[float, float], uid: str) -> str:
    """A curved arrow bowing towards the middle of the board, so that short moves and stacked paths stay visible."""
    (x1, y1), (x2, y2) = start, end
    middle_y = (MIDDLE_TOP + MIDDLE_BOTTOM) / 2
    mid_x, mid_y = (x1 + x2) / 2, (y1 + y2) / 2
    bow = 24 + 0.12 * abs(x2 - x1)
    control_y = mid_y + (bow if mid_y < middle_y else -bow)
    return (
        f'<path d="M{x1:g},{y1:g}Q{mid_x:g},{control_y:g} {x2:g},{y2:g}" fill="none" stroke="{HIGHLIGHT}" '
        f'stroke-width="5" stroke-linecap="round" marker-end="url(#{uid}-arrow)"/>'
    )


def _landing(point: int) -> str:
    x, half = point_x(point), POINT_WIDTH / 2
    y, height = (BOTTOM_Y - POINT_DEPTH, POINT_DEPTH) if _is_bottom_row(point) else (TOP_Y, POINT_DEPTH)
    return (
        f'<rect x="{x - half + 1:g}" y="{y}" width="{POINT_WIDTH - 2}" height="{height}" fill="none" '
        f'stroke="{HIGHLIGHT}" stroke-width="3" stroke-dasharray="6 3"/>'
    )


def _strips(scene: BoardScene) -> str:
    pips = scene.position.pips()
    out = []
    for side, y in ((TOP, STRIP_TOP_Y), (BOTTOM, STRIP_BOTTOM_Y)):
        words = _("%(name)s: %(pips)s pips") % {"name": scene.name(side), "pips": pips[side]}
        turn = f' <tspan font-weight="700">{escape(_("(to act)"))}</tspan>' if scene.to_act == side else ""
        out.append(
            f'<text class="pips" data-side="{_side_word(side)}" data-pips="{pips[side]}" x="{FRAME_LEFT}" y="{y}" '
            f'font-size="15" fill="{INK}">{escape(words)}{turn}</text>'
        )
    return "".join(out)


# -- words -----------------------------------------------------------------------------------------------------------


def describe(scene: BoardScene) -> str:
    """The picture in words, for the SVG's ``<desc>`` (screen readers, text browsers)."""
    sentences = [_describe_side(scene, BOTTOM), _describe_side(scene, TOP)]
    if scene.to_act is not None:
        sentences.append(_("%(name)s is to act.") % {"name": scene.name(scene.to_act)})
    if scene.dice:
        roller = scene.name(scene.dice_side if scene.dice_side is not None else BOTTOM)
        sentences.append(
            _("%(name)s rolled %(d1)s-%(d2)s.") % {"name": roller, "d1": scene.dice[0], "d2": scene.dice[1]}
        )
    if scene.play is not None:
        text = format_play(scene.play) or _("no move (the roll could not be played)")
        sentences.append(_("%(name)s played %(play)s.") % {"name": scene.name(scene.play_side), "play": text})
    sentences.append(_describe_cube(scene))
    return " ".join(sentences)


def _describe_side(scene: BoardScene, side: int) -> str:
    slots = scene.side_slots(side)
    colour = _("light checkers, bottom") if side == BOTTOM else _("dark checkers, top")
    parts = [
        ngettext("%(count)s pip", "%(count)s pips", scene.position.pips()[side])
        % {"count": scene.position.pips()[side]}
    ]
    where = ", ".join(f"{p}: {slots[p]}" for p in range(24, 0, -1) if slots[p])
    if where:
        parts.append(_("on points %(points)s") % {"points": where})
    for slot, text in (
        (BAR, _("%(count)s on the bar")),
        (WAITING, _("%(count)s waiting to enter")),
        (OFF, _("%(count)s borne off")),
    ):
        if slots[slot]:
            parts.append(text % {"count": slots[slot]})
    return _("%(name)s (%(colour)s): %(details)s.") % {
        "name": scene.name(side),
        "colour": colour,
        "details": "; ".join(parts),
    }


def _describe_cube(scene: BoardScene) -> str:
    if scene.casual:
        return _("A casual game: no doubling cube.")
    if not scene.cube_usable:
        return _("Crawford game: no doubling.")
    if scene.cube_owner is None:
        return _("The cube is centred at %(value)s.") % {"value": scene.cube_value}
    return _("The cube is at %(value)s, owned by %(name)s.") % {
        "value": scene.cube_value,
        "name": scene.name(scene.cube_owner),
    }
